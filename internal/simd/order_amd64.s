//go:build amd64 && !noasm

#include "textflag.h"

// ORDERED_AVX2 defines func(p unsafe.Pointer, n int) int: the number of
// leading pairs (p[i], p[i+1]), i < n, checked without finding
// p[i] > p[i+1], a multiple of EPV (elements of ES bytes per vector).
#define ORDERED_AVX2(name, CMPGT, EPV, ES) \
TEXT name(SB), NOSPLIT, $0-24; \
	MOVQ    p+0(FP), SI; \
	MOVQ    n+8(FP), CX; \
	XORQ    AX, AX; \
loop:; \
	LEAQ    EPV(AX), DX; \
	CMPQ    DX, CX; \
	JA      done; \
	VMOVDQU (SI), Y0; \
	VMOVDQU ES(SI), Y1; \
	CMPGT   Y1, Y0, Y2; \
	VPTEST  Y2, Y2; \
	JNZ     done; \
	MOVQ    DX, AX; \
	ADDQ    $(EPV*ES), SI; \
	JMP     loop; \
done:; \
	MOVQ    AX, ret+16(FP); \
	VZEROUPPER; \
	RET

// ORDERED_AVX512 is ORDERED_AVX2 over 64-byte vectors: CMP with predicate
// 1 sets a mask bit where p[i+1] < p[i].
#define ORDERED_AVX512(name, LOAD, CMP, KTEST, EPV, ES) \
TEXT name(SB), NOSPLIT, $0-24; \
	MOVQ    p+0(FP), SI; \
	MOVQ    n+8(FP), CX; \
	XORQ    AX, AX; \
loop:; \
	LEAQ    EPV(AX), DX; \
	CMPQ    DX, CX; \
	JA      done; \
	LOAD    (SI), Z0; \
	LOAD    ES(SI), Z1; \
	CMP     $1, Z0, Z1, K1; \
	KTEST   K1, K1; \
	JNZ     done; \
	MOVQ    DX, AX; \
	ADDQ    $(EPV*ES), SI; \
	JMP     loop; \
done:; \
	MOVQ    AX, ret+16(FP); \
	VZEROUPPER; \
	RET

ORDERED_AVX2(·orderedI32AVX2, VPCMPGTD, 8, 4)
ORDERED_AVX2(·orderedI64AVX2, VPCMPGTQ, 4, 8)
ORDERED_AVX512(·orderedI32AVX512, VMOVDQU32, VPCMPD, KORTESTW, 16, 4)
ORDERED_AVX512(·orderedI64AVX512, VMOVDQU64, VPCMPQ, KORTESTB, 8, 8)
