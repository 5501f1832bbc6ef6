//go:build amd64 && !noasm

#include "textflag.h"

// Minimum kernels, also used for maxima: every element is XORed with inv
// (0, or all ones for a maximum, which reverses the order), and floats are
// first mapped to integer keys whose signed order is the total order
// -Inf < ... < -0 < +0 < ... < +Inf (NaN lanes are masked out).
//
// func k(x unsafe.Pointer, bits *byte, stride, n int, inv, ident int64) (acc [8]uint64)
//
// An element counts only when its bitmap bit is set; the bitmap pointer
// advances by stride bytes per 8 elements (AVX2) or per vector (AVX-512),
// so stride 0 over an all-ones byte means "no bitmap". The accumulators
// start at ident (the largest value) and acc returns the per-lane minima.
// n is a multiple of 16 (AVX2, AVX-512 64-bit) or 32 (AVX-512 32-bit).

// Bit masks that turn a broadcast bitmap byte into lane masks.
DATA bitsQLo<>+0(SB)/8, $1
DATA bitsQLo<>+8(SB)/8, $2
DATA bitsQLo<>+16(SB)/8, $4
DATA bitsQLo<>+24(SB)/8, $8
GLOBL bitsQLo<>(SB), RODATA|NOPTR, $32
DATA bitsQHi<>+0(SB)/8, $16
DATA bitsQHi<>+8(SB)/8, $32
DATA bitsQHi<>+16(SB)/8, $64
DATA bitsQHi<>+24(SB)/8, $128
GLOBL bitsQHi<>(SB), RODATA|NOPTR, $32
DATA bitsD<>+0(SB)/8, $0x0000000200000001
DATA bitsD<>+8(SB)/8, $0x0000000800000004
DATA bitsD<>+16(SB)/8, $0x0000002000000010
DATA bitsD<>+24(SB)/8, $0x0000008000000040
GLOBL bitsD<>(SB), RODATA|NOPTR, $32

#define MIN_PROLOGUE \
	MOVQ x+0(FP), SI; \
	MOVQ bits+8(FP), BX; \
	MOVQ stride+16(FP), R8; \
	MOVQ n+24(FP), CX; \
	MOVQ inv+32(FP), AX

#define MIN_INT_AVX512(name, KMOV, XOR, MIN, BCAST, EPV) \
TEXT name(SB), NOSPLIT, $0-112; \
	MIN_PROLOGUE; \
	BCAST     AX, Z12; \
	BCAST     ident+40(FP), Z0; \
	VMOVDQA64 Z0, Z1; \
loop:; \
	CMPQ CX, $(2*EPV); \
	JB   done; \
	KMOV (BX), K1; \
	KMOV (BX)(R8*1), K2; \
	XOR  (SI), Z12, Z4; \
	XOR  64(SI), Z12, Z5; \
	MIN  Z4, Z0, K1, Z0; \
	MIN  Z5, Z1, K2, Z1; \
	LEAQ (BX)(R8*2), BX; \
	ADDQ $128, SI; \
	SUBQ $(2*EPV), CX; \
	JMP  loop; \
done:; \
	MIN       Z1, Z0, Z0; \
	VMOVDQU64 Z0, acc+48(FP); \
	VZEROUPPER; \
	RET

#define MIN_FLT_AVX512(name, KMOV, CMP, SRA, SRL, SH, TERN, MIN, BCAST, EPV) \
TEXT name(SB), NOSPLIT, $0-112; \
	MIN_PROLOGUE; \
	BCAST     AX, Z12; \
	BCAST     ident+40(FP), Z0; \
	VMOVDQA64 Z0, Z1; \
loop:; \
	CMPQ      CX, $(2*EPV); \
	JB        done; \
	KMOV      (BX), K1; \
	KMOV      (BX)(R8*1), K2; \
	VMOVDQU64 (SI), Z4; \
	VMOVDQU64 64(SI), Z5; \
	CMP       $7, Z4, Z4, K1, K1; \
	CMP       $7, Z5, Z5, K2, K2; \
	SRA       $SH, Z4, Z6; \
	SRA       $SH, Z5, Z7; \
	SRL       $1, Z6, Z6; \
	SRL       $1, Z7, Z7; \
	TERN      $0x96, Z12, Z6, Z4; \
	TERN      $0x96, Z12, Z7, Z5; \
	MIN       Z4, Z0, K1, Z0; \
	MIN       Z5, Z1, K2, Z1; \
	LEAQ      (BX)(R8*2), BX; \
	ADDQ      $128, SI; \
	SUBQ      $(2*EPV), CX; \
	JMP       loop; \
done:; \
	MIN       Z1, Z0, Z0; \
	VMOVDQU64 Z0, acc+48(FP); \
	VZEROUPPER; \
	RET

MIN_INT_AVX512(·minI64AVX512, KMOVB, VPXORQ, VPMINSQ, VPBROADCASTQ, 8)
MIN_INT_AVX512(·minI32AVX512, KMOVW, VPXORD, VPMINSD, VPBROADCASTD, 16)
MIN_FLT_AVX512(·minF64AVX512, KMOVB, VCMPPD, VPSRAQ, VPSRLQ, 63, VPTERNLOGQ, VPMINSQ, VPBROADCASTQ, 8)
MIN_FLT_AVX512(·minF32AVX512, KMOVW, VCMPPS, VPSRAD, VPSRLD, 31, VPTERNLOGD, VPMINSD, VPBROADCASTD, 16)

// AVX2 lane masks from one bitmap byte (Y14, Y15: the lane bits).
#define QMASKS(addr, lo, hi, t) \
	VPBROADCASTB addr, t; \
	VPAND        Y14, t, lo; \
	VPCMPEQQ     Y14, lo, lo; \
	VPAND        Y15, t, hi; \
	VPCMPEQQ     Y15, hi, hi

#define DMASK(addr, m, t) \
	VPBROADCASTB addr, t; \
	VPAND        Y14, t, m; \
	VPCMPEQD     Y14, m, m

// MIN64_SEL sets the lanes of acc to x where valid and x < acc.
#define MIN64_SEL(x, valid, acc, t) \
	VPCMPGTQ  x, acc, t; \
	VPAND     valid, t, t; \
	VPBLENDVB t, x, acc, acc

// FKEY64 maps the float64 lanes of x to inverted keys and clears the
// valid lanes holding NaN (Y11 zero, Y12 inv).
#define FKEY64(x, valid, t) \
	VCMPPD   $7, x, x, t; \
	VPAND    t, valid, valid; \
	VPCMPGTQ x, Y11, t; \
	VPSRLQ   $1, t, t; \
	VPXOR    t, x, x; \
	VPXOR    Y12, x, x

#define MIN64_AVX2_END \
	VPCMPGTQ  Y1, Y0, Y6; \
	VPBLENDVB Y6, Y1, Y0, Y0; \
	VPCMPGTQ  Y3, Y2, Y6; \
	VPBLENDVB Y6, Y3, Y2, Y2; \
	LEAQ      acc+48(FP), DI; \
	VMOVDQU   Y0, (DI); \
	VMOVDQU   Y2, 32(DI); \
	VZEROUPPER; \
	RET

#define MIN64_AVX2_START \
	MIN_PROLOGUE; \
	VMOVQ        AX, X12; \
	VPBROADCASTQ X12, Y12; \
	VPXOR        Y11, Y11, Y11; \
	VMOVDQU      bitsQLo<>(SB), Y14; \
	VMOVDQU      bitsQHi<>(SB), Y15; \
	VPBROADCASTQ ident+40(FP), Y0; \
	VMOVDQA      Y0, Y1; \
	VMOVDQA      Y0, Y2; \
	VMOVDQA      Y0, Y3

TEXT ·minI64AVX2(SB), NOSPLIT, $0-112
	MIN64_AVX2_START
loop:
	CMPQ  CX, $16
	JB    done
	QMASKS((BX), Y9, Y10, Y8)
	VPXOR (SI), Y12, Y4
	VPXOR 32(SI), Y12, Y5
	MIN64_SEL(Y4, Y9, Y0, Y6)
	MIN64_SEL(Y5, Y10, Y1, Y7)
	QMASKS((BX)(R8*1), Y9, Y10, Y8)
	VPXOR 64(SI), Y12, Y4
	VPXOR 96(SI), Y12, Y5
	MIN64_SEL(Y4, Y9, Y2, Y6)
	MIN64_SEL(Y5, Y10, Y3, Y7)
	LEAQ  (BX)(R8*2), BX
	ADDQ  $128, SI
	SUBQ  $16, CX
	JMP   loop
done:
	MIN64_AVX2_END

TEXT ·minF64AVX2(SB), NOSPLIT, $0-112
	MIN64_AVX2_START
loop:
	CMPQ    CX, $16
	JB      done
	QMASKS((BX), Y9, Y10, Y8)
	VMOVDQU (SI), Y4
	VMOVDQU 32(SI), Y5
	FKEY64(Y4, Y9, Y6)
	FKEY64(Y5, Y10, Y7)
	MIN64_SEL(Y4, Y9, Y0, Y6)
	MIN64_SEL(Y5, Y10, Y1, Y7)
	QMASKS((BX)(R8*1), Y9, Y10, Y8)
	VMOVDQU 64(SI), Y4
	VMOVDQU 96(SI), Y5
	FKEY64(Y4, Y9, Y6)
	FKEY64(Y5, Y10, Y7)
	MIN64_SEL(Y4, Y9, Y2, Y6)
	MIN64_SEL(Y5, Y10, Y3, Y7)
	LEAQ    (BX)(R8*2), BX
	ADDQ    $128, SI
	SUBQ    $16, CX
	JMP     loop
done:
	MIN64_AVX2_END

#define MIN32_AVX2_START \
	MIN_PROLOGUE; \
	VMOVQ        AX, X12; \
	VPBROADCASTD X12, Y12; \
	VMOVDQU      bitsD<>(SB), Y14; \
	VPBROADCASTD ident+40(FP), Y13; \
	VMOVDQA      Y13, Y0; \
	VMOVDQA      Y13, Y1

#define MIN32_AVX2_END \
	LEAQ    acc+48(FP), DI; \
	VMOVDQU Y0, (DI); \
	VMOVDQU Y1, 32(DI); \
	VZEROUPPER; \
	RET

// I32_STEP and F32_STEP fold 8 elements at x into acc (Y13 identity).
#define I32_STEP(maddr, x, acc) \
	DMASK(maddr, Y9, Y8); \
	VPXOR     x, Y12, Y4; \
	VPBLENDVB Y9, Y4, Y13, Y4; \
	VPMINSD   Y4, acc, acc

#define F32_STEP(maddr, x, acc) \
	DMASK(maddr, Y9, Y8); \
	VMOVDQU   x, Y4; \
	VCMPPS    $7, Y4, Y4, Y6; \
	VPAND     Y6, Y9, Y9; \
	VPSRAD    $31, Y4, Y6; \
	VPSRLD    $1, Y6, Y6; \
	VPXOR     Y6, Y4, Y4; \
	VPXOR     Y12, Y4, Y4; \
	VPBLENDVB Y9, Y4, Y13, Y4; \
	VPMINSD   Y4, acc, acc

TEXT ·minI32AVX2(SB), NOSPLIT, $0-112
	MIN32_AVX2_START
loop:
	CMPQ CX, $16
	JB   done
	I32_STEP((BX), (SI), Y0)
	I32_STEP((BX)(R8*1), 32(SI), Y1)
	LEAQ (BX)(R8*2), BX
	ADDQ $64, SI
	SUBQ $16, CX
	JMP  loop
done:
	MIN32_AVX2_END

TEXT ·minF32AVX2(SB), NOSPLIT, $0-112
	MIN32_AVX2_START
loop:
	CMPQ CX, $16
	JB   done
	F32_STEP((BX), (SI), Y0)
	F32_STEP((BX)(R8*1), 32(SI), Y1)
	LEAQ (BX)(R8*2), BX
	ADDQ $64, SI
	SUBQ $16, CX
	JMP  loop
done:
	MIN32_AVX2_END
