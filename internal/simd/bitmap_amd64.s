//go:build amd64 && !noasm

#include "textflag.h"

// Bitmap kernels. Every function processes n bytes, n a multiple of the
// vector size (32 for AVX2, 64 for AVX-512); the Go wrappers do the rest.

// BITOP_AVX2 defines name(dst, a, b *byte, n int) computing dst = a OP b,
// where OP is applied as "OP Ya, Yb, Ydst" (so VPANDN gives a &^ b).
// STORE is VMOVDQU, or VMOVNTDQ (dst then 32-byte aligned) for streams
// much larger than the caches, which then need FENCE = SFENCE (else a
// no-op such as VZEROUPPER).
#define BITOP_AVX2(name, OP, STORE, FENCE) \
TEXT name(SB), NOSPLIT, $0-32; \
	MOVQ dst+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), BX; \
	MOVQ n+24(FP), CX; \
loop4:; \
	CMPQ CX, $128; \
	JB   loop1; \
	VMOVDQU (SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	VMOVDQU 64(SI), Y2; \
	VMOVDQU 96(SI), Y3; \
	VMOVDQU (BX), Y4; \
	VMOVDQU 32(BX), Y5; \
	VMOVDQU 64(BX), Y6; \
	VMOVDQU 96(BX), Y7; \
	OP Y0, Y4, Y0; \
	OP Y1, Y5, Y1; \
	OP Y2, Y6, Y2; \
	OP Y3, Y7, Y3; \
	STORE Y0, (DI); \
	STORE Y1, 32(DI); \
	STORE Y2, 64(DI); \
	STORE Y3, 96(DI); \
	ADDQ $128, SI; \
	ADDQ $128, BX; \
	ADDQ $128, DI; \
	SUBQ $128, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $32; \
	JB   done; \
	VMOVDQU (SI), Y0; \
	VMOVDQU (BX), Y4; \
	OP Y0, Y4, Y0; \
	STORE Y0, (DI); \
	ADDQ $32, SI; \
	ADDQ $32, BX; \
	ADDQ $32, DI; \
	SUBQ $32, CX; \
	JMP  loop1; \
done:; \
	FENCE; \
	VZEROUPPER; \
	RET

#define BITOP_AVX512(name, OP, STORE, FENCE) \
TEXT name(SB), NOSPLIT, $0-32; \
	MOVQ dst+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), BX; \
	MOVQ n+24(FP), CX; \
loop4:; \
	CMPQ CX, $256; \
	JB   loop1; \
	VMOVDQU64 (SI), Z0; \
	VMOVDQU64 64(SI), Z1; \
	VMOVDQU64 128(SI), Z2; \
	VMOVDQU64 192(SI), Z3; \
	VMOVDQU64 (BX), Z4; \
	VMOVDQU64 64(BX), Z5; \
	VMOVDQU64 128(BX), Z6; \
	VMOVDQU64 192(BX), Z7; \
	OP Z0, Z4, Z0; \
	OP Z1, Z5, Z1; \
	OP Z2, Z6, Z2; \
	OP Z3, Z7, Z3; \
	STORE Z0, (DI); \
	STORE Z1, 64(DI); \
	STORE Z2, 128(DI); \
	STORE Z3, 192(DI); \
	ADDQ $256, SI; \
	ADDQ $256, BX; \
	ADDQ $256, DI; \
	SUBQ $256, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $64; \
	JB   done; \
	VMOVDQU64 (SI), Z0; \
	VMOVDQU64 (BX), Z4; \
	OP Z0, Z4, Z0; \
	STORE Z0, (DI); \
	ADDQ $64, SI; \
	ADDQ $64, BX; \
	ADDQ $64, DI; \
	SUBQ $64, CX; \
	JMP  loop1; \
done:; \
	FENCE; \
	VZEROUPPER; \
	RET

BITOP_AVX2(·andAVX2, VPAND, VMOVDQU, VZEROUPPER)
BITOP_AVX2(·andNTAVX2, VPAND, VMOVNTDQ, SFENCE)
BITOP_AVX512(·andAVX512, VPANDQ, VMOVDQU64, VZEROUPPER)
BITOP_AVX512(·andNTAVX512, VPANDQ, VMOVNTDQ, SFENCE)
BITOP_AVX2(·orAVX2, VPOR, VMOVDQU, VZEROUPPER)
BITOP_AVX2(·orNTAVX2, VPOR, VMOVNTDQ, SFENCE)
BITOP_AVX512(·orAVX512, VPORQ, VMOVDQU64, VZEROUPPER)
BITOP_AVX512(·orNTAVX512, VPORQ, VMOVNTDQ, SFENCE)
BITOP_AVX2(·xorAVX2, VPXOR, VMOVDQU, VZEROUPPER)
BITOP_AVX2(·xorNTAVX2, VPXOR, VMOVNTDQ, SFENCE)
BITOP_AVX512(·xorAVX512, VPXORQ, VMOVDQU64, VZEROUPPER)
BITOP_AVX512(·xorNTAVX512, VPXORQ, VMOVNTDQ, SFENCE)
BITOP_AVX2(·andNotAVX2, VPANDN, VMOVDQU, VZEROUPPER)
BITOP_AVX2(·andNotNTAVX2, VPANDN, VMOVNTDQ, SFENCE)
BITOP_AVX512(·andNotAVX512, VPANDNQ, VMOVDQU64, VZEROUPPER)
BITOP_AVX512(·andNotNTAVX512, VPANDNQ, VMOVNTDQ, SFENCE)

// func notAVX2(dst, src *byte, n int)
TEXT ·notAVX2(SB), NOSPLIT, $0-24
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    n+16(FP), CX
	VPCMPEQD Y15, Y15, Y15
loop:
	CMPQ    CX, $32
	JB      done
	VPXOR   (SI), Y15, Y0
	VMOVDQU Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $32, CX
	JMP     loop
done:
	VZEROUPPER
	RET

// func notAVX512(dst, src *byte, n int)
TEXT ·notAVX512(SB), NOSPLIT, $0-24
	MOVQ       dst+0(FP), DI
	MOVQ       src+8(FP), SI
	MOVQ       n+16(FP), CX
	VPTERNLOGD $0xff, Z15, Z15, Z15
loop:
	CMPQ      CX, $64
	JB        done
	VPXORQ    (SI), Z15, Z0
	VMOVDQU64 Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $64, CX
	JMP       loop
done:
	VZEROUPPER
	RET

// popcntLUT maps a nibble to its number of set bits (twice, one per lane).
DATA popcntLUT<>+0(SB)/8, $0x0302020102010100
DATA popcntLUT<>+8(SB)/8, $0x0403030203020201
DATA popcntLUT<>+16(SB)/8, $0x0302020102010100
DATA popcntLUT<>+24(SB)/8, $0x0403030203020201
GLOBL popcntLUT<>(SB), RODATA|NOPTR, $32

DATA lowNibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL lowNibbles<>(SB), RODATA|NOPTR, $32

// POPCNT_NIBBLES adds the popcounts of the 32 bytes at addr to the four
// 64-bit lanes of acc (Y15 lookup table, Y14 nibble mask, Y13 zero).
#define POPCNT_NIBBLES(addr, t1, t2, acc) \
	VMOVDQU addr, t1; \
	VPSRLW  $4, t1, t2; \
	VPAND   Y14, t1, t1; \
	VPAND   Y14, t2, t2; \
	VPSHUFB t1, Y15, t1; \
	VPSHUFB t2, Y15, t2; \
	VPADDB  t1, t2, t1; \
	VPSADBW Y13, t1, t1; \
	VPADDQ  t1, acc, acc

// func popCountAVX2(b *byte, n int) int
TEXT ·popCountAVX2(SB), NOSPLIT, $0-24
	MOVQ    b+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVDQU popcntLUT<>(SB), Y15
	VMOVDQU lowNibbles<>(SB), Y14
	VPXOR   Y13, Y13, Y13
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
loop2:
	CMPQ CX, $64
	JB   loop1
	POPCNT_NIBBLES((SI), Y2, Y3, Y0)
	POPCNT_NIBBLES(32(SI), Y4, Y5, Y1)
	ADDQ $64, SI
	SUBQ $64, CX
	JMP  loop2
loop1:
	CMPQ CX, $32
	JB   done
	POPCNT_NIBBLES((SI), Y2, Y3, Y0)
	ADDQ $32, SI
	SUBQ $32, CX
	JMP  loop1
done:
	VPADDQ       Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDQ       X1, X0, X0
	VMOVQ        X0, AX
	MOVQ         AX, ret+16(FP)
	VZEROUPPER
	RET

// func popCountAVX512(b *byte, n int) int
TEXT ·popCountAVX512(SB), NOSPLIT, $0-24
	MOVQ   b+0(FP), SI
	MOVQ   n+8(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
loop4:
	CMPQ     CX, $256
	JB       loop1
	VPOPCNTQ (SI), Z4
	VPOPCNTQ 64(SI), Z5
	VPOPCNTQ 128(SI), Z6
	VPOPCNTQ 192(SI), Z7
	VPADDQ   Z4, Z0, Z0
	VPADDQ   Z5, Z1, Z1
	VPADDQ   Z6, Z2, Z2
	VPADDQ   Z7, Z3, Z3
	ADDQ     $256, SI
	SUBQ     $256, CX
	JMP      loop4
loop1:
	CMPQ     CX, $64
	JB       done
	VPOPCNTQ (SI), Z4
	VPADDQ   Z4, Z0, Z0
	ADDQ     $64, SI
	SUBQ     $64, CX
	JMP      loop1
done:
	VPADDQ         Z1, Z0, Z0
	VPADDQ         Z3, Z2, Z2
	VPADDQ         Z2, Z0, Z0
	VEXTRACTI64X4  $1, Z0, Y1
	VPADDQ         Y1, Y0, Y0
	VEXTRACTI128   $1, Y0, X1
	VPADDQ         X1, X0, X0
	VPSHUFD        $0x4e, X0, X1
	VPADDQ         X1, X0, X0
	VMOVQ          X0, AX
	MOVQ           AX, ret+16(FP)
	VZEROUPPER
	RET

// SHIFT_BODY realigns the vectors at lo and lo+1: dst lane = lo>>s |
// (lo+1)<<(8-s), with the shift counts in X14 and X15.
// func shiftBitsAVX2(dst, src *byte, n int, shift uint)
TEXT ·shiftBitsAVX2(SB), NOSPLIT, $0-32
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  n+16(FP), CX
	MOVQ  shift+24(FP), AX
	MOVQ  $8, BX
	SUBQ  AX, BX
	VMOVQ AX, X14
	VMOVQ BX, X15
loop2:
	CMPQ    CX, $64
	JB      loop1
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 1(SI), Y2
	VMOVDQU 33(SI), Y3
	VPSRLQ  X14, Y0, Y0
	VPSRLQ  X14, Y1, Y1
	VPSLLQ  X15, Y2, Y2
	VPSLLQ  X15, Y3, Y3
	VPOR    Y2, Y0, Y0
	VPOR    Y3, Y1, Y1
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $64, CX
	JMP     loop2
loop1:
	CMPQ    CX, $32
	JB      done
	VMOVDQU (SI), Y0
	VMOVDQU 1(SI), Y2
	VPSRLQ  X14, Y0, Y0
	VPSLLQ  X15, Y2, Y2
	VPOR    Y2, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $32, CX
	JMP     loop1
done:
	VZEROUPPER
	RET

// func shiftBitsAVX512(dst, src *byte, n int, shift uint)
TEXT ·shiftBitsAVX512(SB), NOSPLIT, $0-32
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  n+16(FP), CX
	MOVQ  shift+24(FP), AX
	MOVQ  $8, BX
	SUBQ  AX, BX
	VMOVQ AX, X14
	VMOVQ BX, X15
loop2:
	CMPQ      CX, $128
	JB        loop1
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 1(SI), Z2
	VMOVDQU64 65(SI), Z3
	VPSRLQ    X14, Z0, Z0
	VPSRLQ    X14, Z1, Z1
	VPSLLQ    X15, Z2, Z2
	VPSLLQ    X15, Z3, Z3
	VPORQ     Z2, Z0, Z0
	VPORQ     Z3, Z1, Z1
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, 64(DI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $128, CX
	JMP       loop2
loop1:
	CMPQ      CX, $64
	JB        done
	VMOVDQU64 (SI), Z0
	VMOVDQU64 1(SI), Z2
	VPSRLQ    X14, Z0, Z0
	VPSLLQ    X15, Z2, Z2
	VPORQ     Z2, Z0, Z0
	VMOVDQU64 Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $64, CX
	JMP       loop1
done:
	VZEROUPPER
	RET
