//go:build amd64 && !noasm

#include "textflag.h"

// func indexPairAVX2(p *byte, n int, first, last byte, k int) int
//
// Registers: SI p, R8 p+k, CX n, DI position, Y0 first and Y1 last in
// every byte.
TEXT ·indexPairAVX2(SB), NOSPLIT, $0-40
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVQ         k+24(FP), DX
	LEAQ         (SI)(DX*1), R8
	VPBROADCASTB first+16(FP), Y0
	VPBROADCASTB last+17(FP), Y1
	XORQ         DI, DI

loop:
	VPCMPEQB  (SI)(DI*1), Y0, Y2
	VPCMPEQB  (R8)(DI*1), Y1, Y3
	VPAND     Y2, Y3, Y2
	VPMOVMSKB Y2, AX
	TESTL     AX, AX
	JNZ       found
	ADDQ      $32, DI
	CMPQ      DI, CX
	JB        loop
	MOVQ      $-1, ret+32(FP)
	VZEROUPPER
	RET

found:
	BSFL       AX, AX
	ADDQ       DI, AX
	MOVQ       AX, ret+32(FP)
	VZEROUPPER
	RET
