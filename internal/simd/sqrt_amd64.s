//go:build amd64 && !noasm

#include "textflag.h"

// func sqrt64AVX2(dst, src unsafe.Pointer, n int)
// n is a byte count, a multiple of 32; VSQRTPD is exactly rounded, as
// math.Sqrt is, and gives the same NaN, -0 and +Inf results.
TEXT ·sqrt64AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

loop2:
	CMPQ    CX, $64
	JB      loop1
	VSQRTPD (SI), Y0
	VSQRTPD 32(SI), Y1
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $64, CX
	JMP     loop2

loop1:
	CMPQ    CX, $32
	JB      done
	VSQRTPD (SI), Y0
	VMOVUPD Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $32, CX
	JMP     loop1

done:
	VZEROUPPER
	RET
