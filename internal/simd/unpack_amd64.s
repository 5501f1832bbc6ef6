//go:build amd64 && !noasm

#include "textflag.h"

// func unpack32AVX2(dst *uint32, src *byte, groups, bw int, tab *unpackTable)
// Each group of eight values takes bw bytes of src. Its lower four values
// come from the 16 bytes at the group's start, its upper four from the 16
// at byte tab.hi of it; VPSHUFB moves each value's four bytes into its
// lane, VPSRLVD drops the bits before it, VPAND those after.
TEXT ·unpack32AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ bw+24(FP), DX
	MOVQ tab+32(FP), AX
	VMOVDQU 0(AX), Y1
	VMOVDQU 32(AX), Y2
	VMOVDQU 64(AX), Y3
	MOVQ    96(AX), R8

loop:
	TESTQ       CX, CX
	JZ          done
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(R8*1), Y0, Y0
	VPSHUFB     Y1, Y0, Y0
	VPSRLVD     Y2, Y0, Y0
	VPAND       Y3, Y0, Y0
	VMOVDQU     Y0, (DI)
	ADDQ        DX, SI
	ADDQ        $32, DI
	DECQ        CX
	JMP         loop

done:
	VZEROUPPER
	RET
