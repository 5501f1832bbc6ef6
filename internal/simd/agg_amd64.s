//go:build amd64 && !noasm

#include "textflag.h"

// Sums. The kernels only ever process whole blocks (see the glue for the
// block sizes) and return the sum of their lanes: an integer, or the bits
// of a float64.

// HSUM_Y adds up the four 64-bit lanes of Y0 into X0 (clobbers Y1);
// HSUM_Z does the same for the eight lanes of Z0.
#define HSUM_Y(ADD) \
	VEXTRACTI128 $1, Y0, X1; \
	ADD          X1, X0, X0; \
	VPSHUFD      $0x4e, X0, X1; \
	ADD          X1, X0, X0

#define HSUM_Z(ADD) \
	VEXTRACTI64X4 $1, Z0, Y1; \
	ADD           Y1, Y0, Y0; \
	HSUM_Y(ADD)

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

// SUM_AVX2 defines name(x unsafe.Pointer, n int) uint64: LOAD
// widens 4 elements of ES bytes to 64-bit lanes, ADD accumulates them.
// n is a multiple of 4.
#define SUM_AVX2(name, LOAD, ADD, ES) \
TEXT name(SB), NOSPLIT, $0-24; \
	MOVQ    x+0(FP), SI; \
	MOVQ    n+8(FP), CX; \
	VPXOR   Y0, Y0, Y0; \
	VPXOR   Y1, Y1, Y1; \
	VPXOR   Y2, Y2, Y2; \
	VPXOR   Y3, Y3, Y3; \
loop4:; \
	CMPQ CX, $16; \
	JB   loop1; \
	LOAD (SI), Y4; \
	LOAD (4*ES)(SI), Y5; \
	LOAD (8*ES)(SI), Y6; \
	LOAD (12*ES)(SI), Y7; \
	ADD  Y4, Y0, Y0; \
	ADD  Y5, Y1, Y1; \
	ADD  Y6, Y2, Y2; \
	ADD  Y7, Y3, Y3; \
	ADDQ $(16*ES), SI; \
	SUBQ $16, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $4; \
	JB   done; \
	LOAD (SI), Y4; \
	ADD  Y4, Y0, Y0; \
	ADDQ $(4*ES), SI; \
	SUBQ $4, CX; \
	JMP  loop1; \
done:; \
	ADD     Y1, Y0, Y0; \
	ADD     Y3, Y2, Y2; \
	ADD     Y2, Y0, Y0; \
	HSUM_Y(ADD); \
	VMOVQ   X0, ret+16(FP); \
	VZEROUPPER; \
	RET

// SUM_AVX512 is SUM_AVX2 with 8 elements per vector; n is a multiple of 8.
#define SUM_AVX512(name, LOAD, ADD, ES) \
TEXT name(SB), NOSPLIT, $0-24; \
	MOVQ      x+0(FP), SI; \
	MOVQ      n+8(FP), CX; \
	VPXORQ    Z0, Z0, Z0; \
	VPXORQ    Z1, Z1, Z1; \
	VPXORQ    Z2, Z2, Z2; \
	VPXORQ    Z3, Z3, Z3; \
loop4:; \
	CMPQ CX, $32; \
	JB   loop1; \
	LOAD (SI), Z4; \
	LOAD (8*ES)(SI), Z5; \
	LOAD (16*ES)(SI), Z6; \
	LOAD (24*ES)(SI), Z7; \
	ADD  Z4, Z0, Z0; \
	ADD  Z5, Z1, Z1; \
	ADD  Z6, Z2, Z2; \
	ADD  Z7, Z3, Z3; \
	ADDQ $(32*ES), SI; \
	SUBQ $32, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $8; \
	JB   done; \
	LOAD (SI), Z4; \
	ADD  Z4, Z0, Z0; \
	ADDQ $(8*ES), SI; \
	SUBQ $8, CX; \
	JMP  loop1; \
done:; \
	ADD       Z1, Z0, Z0; \
	ADD       Z3, Z2, Z2; \
	ADD       Z2, Z0, Z0; \
	HSUM_Z(ADD); \
	VMOVQ     X0, ret+16(FP); \
	VZEROUPPER; \
	RET

// QMASKS_AVX2 turns the bitmap byte at addr into two 4-lane masks.
#define QMASKS_AVX2(addr, lo, hi, t) \
	VPBROADCASTB addr, t; \
	VPAND        Y14, t, lo; \
	VPCMPEQQ     Y14, lo, lo; \
	VPAND        Y15, t, hi; \
	VPCMPEQQ     Y15, hi, hi

// SUMM_AVX2 defines name(x unsafe.Pointer, bits *byte, n int) (acc
// [8]uint64): the sum of the elements whose bit is set; n is a multiple
// of 8 and bit i of the byte-aligned bits belongs to element i.
#define SUMM_AVX2(name, LOAD, ADD, ES) \
TEXT name(SB), NOSPLIT, $0-32; \
	MOVQ    x+0(FP), SI; \
	MOVQ    bits+8(FP), BX; \
	MOVQ    n+16(FP), CX; \
	VPXOR   Y0, Y0, Y0; \
	VPXOR   Y1, Y1, Y1; \
	VPXOR   Y2, Y2, Y2; \
	VPXOR   Y3, Y3, Y3; \
	VMOVDQU bitsQLo<>(SB), Y14; \
	VMOVDQU bitsQHi<>(SB), Y15; \
loop2:; \
	CMPQ CX, $16; \
	JB   loop1; \
	QMASKS_AVX2((BX), Y8, Y9, Y12); \
	QMASKS_AVX2(1(BX), Y10, Y11, Y13); \
	LOAD  (SI), Y4; \
	LOAD  (4*ES)(SI), Y5; \
	LOAD  (8*ES)(SI), Y6; \
	LOAD  (12*ES)(SI), Y7; \
	VPAND Y8, Y4, Y4; \
	VPAND Y9, Y5, Y5; \
	VPAND Y10, Y6, Y6; \
	VPAND Y11, Y7, Y7; \
	ADD   Y4, Y0, Y0; \
	ADD   Y5, Y1, Y1; \
	ADD   Y6, Y2, Y2; \
	ADD   Y7, Y3, Y3; \
	ADDQ  $2, BX; \
	ADDQ  $(16*ES), SI; \
	SUBQ  $16, CX; \
	JMP   loop2; \
loop1:; \
	CMPQ CX, $8; \
	JB   done; \
	QMASKS_AVX2((BX), Y8, Y9, Y12); \
	LOAD  (SI), Y4; \
	LOAD  (4*ES)(SI), Y5; \
	VPAND Y8, Y4, Y4; \
	VPAND Y9, Y5, Y5; \
	ADD   Y4, Y0, Y0; \
	ADD   Y5, Y1, Y1; \
	ADDQ  $1, BX; \
	ADDQ  $(8*ES), SI; \
	SUBQ  $8, CX; \
	JMP   loop1; \
done:; \
	ADD     Y1, Y0, Y0; \
	ADD     Y3, Y2, Y2; \
	ADD     Y2, Y0, Y0; \
	HSUM_Y(ADD); \
	VMOVQ   X0, ret+24(FP); \
	VZEROUPPER; \
	RET

// SUMM_AVX512 is SUMM_AVX2 with one opmask per bitmap byte.
#define SUMM_AVX512(name, LOAD, ADD, ES) \
TEXT name(SB), NOSPLIT, $0-32; \
	MOVQ      x+0(FP), SI; \
	MOVQ      bits+8(FP), BX; \
	MOVQ      n+16(FP), CX; \
	VPXORQ    Z0, Z0, Z0; \
	VPXORQ    Z1, Z1, Z1; \
	VPXORQ    Z2, Z2, Z2; \
	VPXORQ    Z3, Z3, Z3; \
loop4:; \
	CMPQ  CX, $32; \
	JB    loop1; \
	KMOVB (BX), K1; \
	KMOVB 1(BX), K2; \
	KMOVB 2(BX), K3; \
	KMOVB 3(BX), K4; \
	LOAD  (SI), Z4; \
	LOAD  (8*ES)(SI), Z5; \
	LOAD  (16*ES)(SI), Z6; \
	LOAD  (24*ES)(SI), Z7; \
	ADD   Z4, Z0, K1, Z0; \
	ADD   Z5, Z1, K2, Z1; \
	ADD   Z6, Z2, K3, Z2; \
	ADD   Z7, Z3, K4, Z3; \
	ADDQ  $4, BX; \
	ADDQ  $(32*ES), SI; \
	SUBQ  $32, CX; \
	JMP   loop4; \
loop1:; \
	CMPQ  CX, $8; \
	JB    done; \
	KMOVB (BX), K1; \
	LOAD  (SI), Z4; \
	ADD   Z4, Z0, K1, Z0; \
	ADDQ  $1, BX; \
	ADDQ  $(8*ES), SI; \
	SUBQ  $8, CX; \
	JMP   loop1; \
done:; \
	ADD       Z1, Z0, Z0; \
	ADD       Z3, Z2, Z2; \
	ADD       Z2, Z0, Z0; \
	HSUM_Z(ADD); \
	VMOVQ     X0, ret+24(FP); \
	VZEROUPPER; \
	RET

SUM_AVX2(·sumI8AVX2, VPMOVSXBQ, VPADDQ, 1)
SUM_AVX2(·sumI16AVX2, VPMOVSXWQ, VPADDQ, 2)
SUM_AVX2(·sumI32AVX2, VPMOVSXDQ, VPADDQ, 4)
SUM_AVX2(·sumI64AVX2, VMOVDQU, VPADDQ, 8)
SUM_AVX2(·sumU8AVX2, VPMOVZXBQ, VPADDQ, 1)
SUM_AVX2(·sumU16AVX2, VPMOVZXWQ, VPADDQ, 2)
SUM_AVX2(·sumU32AVX2, VPMOVZXDQ, VPADDQ, 4)
SUM_AVX2(·sumF32AVX2, VCVTPS2PD, VADDPD, 4)
SUM_AVX2(·sumF64AVX2, VMOVUPD, VADDPD, 8)

SUM_AVX512(·sumI8AVX512, VPMOVSXBQ, VPADDQ, 1)
SUM_AVX512(·sumI16AVX512, VPMOVSXWQ, VPADDQ, 2)
SUM_AVX512(·sumI32AVX512, VPMOVSXDQ, VPADDQ, 4)
SUM_AVX512(·sumI64AVX512, VMOVDQU64, VPADDQ, 8)
SUM_AVX512(·sumU8AVX512, VPMOVZXBQ, VPADDQ, 1)
SUM_AVX512(·sumU16AVX512, VPMOVZXWQ, VPADDQ, 2)
SUM_AVX512(·sumU32AVX512, VPMOVZXDQ, VPADDQ, 4)
SUM_AVX512(·sumF32AVX512, VCVTPS2PD, VADDPD, 4)
SUM_AVX512(·sumF64AVX512, VMOVUPD, VADDPD, 8)

SUMM_AVX2(·sumMaskedI8AVX2, VPMOVSXBQ, VPADDQ, 1)
SUMM_AVX2(·sumMaskedI16AVX2, VPMOVSXWQ, VPADDQ, 2)
SUMM_AVX2(·sumMaskedI32AVX2, VPMOVSXDQ, VPADDQ, 4)
SUMM_AVX2(·sumMaskedI64AVX2, VMOVDQU, VPADDQ, 8)
SUMM_AVX2(·sumMaskedU8AVX2, VPMOVZXBQ, VPADDQ, 1)
SUMM_AVX2(·sumMaskedU16AVX2, VPMOVZXWQ, VPADDQ, 2)
SUMM_AVX2(·sumMaskedU32AVX2, VPMOVZXDQ, VPADDQ, 4)
SUMM_AVX2(·sumMaskedF32AVX2, VCVTPS2PD, VADDPD, 4)
SUMM_AVX2(·sumMaskedF64AVX2, VMOVUPD, VADDPD, 8)

SUMM_AVX512(·sumMaskedI8AVX512, VPMOVSXBQ, VPADDQ, 1)
SUMM_AVX512(·sumMaskedI16AVX512, VPMOVSXWQ, VPADDQ, 2)
SUMM_AVX512(·sumMaskedI32AVX512, VPMOVSXDQ, VPADDQ, 4)
SUMM_AVX512(·sumMaskedI64AVX512, VMOVDQU64, VPADDQ, 8)
SUMM_AVX512(·sumMaskedU8AVX512, VPMOVZXBQ, VPADDQ, 1)
SUMM_AVX512(·sumMaskedU16AVX512, VPMOVZXWQ, VPADDQ, 2)
SUMM_AVX512(·sumMaskedU32AVX512, VPMOVZXDQ, VPADDQ, 4)
SUMM_AVX512(·sumMaskedF32AVX512, VCVTPS2PD, VADDPD, 4)
SUMM_AVX512(·sumMaskedF64AVX512, VMOVUPD, VADDPD, 8)
