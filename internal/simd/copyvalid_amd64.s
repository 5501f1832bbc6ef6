//go:build amd64 && !noasm

#include "textflag.h"

// COPY_VALID_AVX512 defines func(dst, src, bits *byte, blocks int, shift
// uint): blocks of 64 bytes (EPB elements) copied from src to dst, each
// element loaded only where its validity bit is set and zero elsewhere.
// The mask of a block is LOADM's word at bits shifted right by shift; bits
// advances EPB/8 bytes a block. STORE is VMOVDQU64, or VMOVNTDQ (dst then
// 64-byte aligned) followed by FENCE = SFENCE.
#define COPY_VALID_AVX512(name, LOADM, KMOV, MOVE, EPB, STORE, FENCE) \
TEXT name(SB), NOSPLIT, $0-40; \
	MOVQ  dst+0(FP), DI; \
	MOVQ  src+8(FP), SI; \
	MOVQ  bits+16(FP), DX; \
	MOVQ  blocks+24(FP), BX; \
	MOVQ  shift+32(FP), CX; \
loop:; \
	TESTQ BX, BX; \
	JZ    done; \
	LOADM (DX), AX; \
	SHRL  CX, AX; \
	KMOV  AX, K1; \
	MOVE  (SI), K1, Z0; \
	STORE Z0, (DI); \
	ADDQ  $64, SI; \
	ADDQ  $64, DI; \
	ADDQ  $(EPB/8), DX; \
	DECQ  BX; \
	JMP   loop; \
done:; \
	FENCE; \
	VZEROUPPER; \
	RET

COPY_VALID_AVX512(·copyValid32AVX512, MOVL, KMOVW, VMOVDQU32.Z, 16, VMOVDQU32, NOP)
COPY_VALID_AVX512(·copyValid64AVX512, MOVWLZX, KMOVB, VMOVDQU64.Z, 8, VMOVDQU64, NOP)
COPY_VALID_AVX512(·copyValid32NTAVX512, MOVL, KMOVW, VMOVDQU32.Z, 16, VMOVNTDQ, SFENCE)
COPY_VALID_AVX512(·copyValid64NTAVX512, MOVWLZX, KMOVB, VMOVDQU64.Z, 8, VMOVNTDQ, SFENCE)

// Lane bits for the AVX2 kernels: lane k of a vector is valid when bit k
// of the block's mask is set (low and high vector of a 64-byte block).
DATA laneBitsQ<>+0(SB)/8, $1
DATA laneBitsQ<>+8(SB)/8, $2
DATA laneBitsQ<>+16(SB)/8, $4
DATA laneBitsQ<>+24(SB)/8, $8
DATA laneBitsQ<>+32(SB)/8, $16
DATA laneBitsQ<>+40(SB)/8, $32
DATA laneBitsQ<>+48(SB)/8, $64
DATA laneBitsQ<>+56(SB)/8, $128
GLOBL laneBitsQ<>(SB), RODATA|NOPTR, $64

DATA laneBitsD<>+0(SB)/4, $1
DATA laneBitsD<>+4(SB)/4, $2
DATA laneBitsD<>+8(SB)/4, $4
DATA laneBitsD<>+12(SB)/4, $8
DATA laneBitsD<>+16(SB)/4, $16
DATA laneBitsD<>+20(SB)/4, $32
DATA laneBitsD<>+24(SB)/4, $64
DATA laneBitsD<>+28(SB)/4, $128
DATA laneBitsD<>+32(SB)/4, $256
DATA laneBitsD<>+36(SB)/4, $512
DATA laneBitsD<>+40(SB)/4, $1024
DATA laneBitsD<>+44(SB)/4, $2048
DATA laneBitsD<>+48(SB)/4, $4096
DATA laneBitsD<>+52(SB)/4, $8192
DATA laneBitsD<>+56(SB)/4, $16384
DATA laneBitsD<>+60(SB)/4, $32768
GLOBL laneBitsD<>(SB), RODATA|NOPTR, $64

// COPY_VALID_AVX2 is COPY_VALID_AVX512 over two 32-byte vectors a block:
// the mask is broadcast to every lane, and a lane whose bit (LANES) is set
// compares equal to that bit and keeps its element; the others are zeroed
// by the AND with the compare's result. STORE is VMOVDQU, or VMOVNTDQ (dst
// then 32-byte aligned) followed by FENCE = SFENCE.
#define COPY_VALID_AVX2(name, LOADM, BCAST, CMPEQ, LANES, EPB, STORE, FENCE) \
TEXT name(SB), NOSPLIT, $0-40; \
	MOVQ    dst+0(FP), DI; \
	MOVQ    src+8(FP), SI; \
	MOVQ    bits+16(FP), DX; \
	MOVQ    blocks+24(FP), BX; \
	MOVQ    shift+32(FP), CX; \
	VMOVDQU LANES<>+0(SB), Y7; \
	VMOVDQU LANES<>+32(SB), Y8; \
loop:; \
	TESTQ   BX, BX; \
	JZ      done; \
	LOADM   (DX), AX; \
	SHRL    CX, AX; \
	MOVQ    AX, X6; \
	BCAST   X6, Y6; \
	VPAND   Y7, Y6, Y0; \
	VPAND   Y8, Y6, Y1; \
	CMPEQ   Y7, Y0, Y0; \
	CMPEQ   Y8, Y1, Y1; \
	VPAND   (SI), Y0, Y0; \
	VPAND   32(SI), Y1, Y1; \
	STORE   Y0, (DI); \
	STORE   Y1, 32(DI); \
	ADDQ    $64, SI; \
	ADDQ    $64, DI; \
	ADDQ    $(EPB/8), DX; \
	DECQ    BX; \
	JMP     loop; \
done:; \
	FENCE; \
	VZEROUPPER; \
	RET

COPY_VALID_AVX2(·copyValid32AVX2, MOVL, VPBROADCASTD, VPCMPEQD, laneBitsD, 16, VMOVDQU, NOP)
COPY_VALID_AVX2(·copyValid64AVX2, MOVWLZX, VPBROADCASTQ, VPCMPEQQ, laneBitsQ, 8, VMOVDQU, NOP)
COPY_VALID_AVX2(·copyValid32NTAVX2, MOVL, VPBROADCASTD, VPCMPEQD, laneBitsD, 16, VMOVNTDQ, SFENCE)
COPY_VALID_AVX2(·copyValid64NTAVX2, MOVWLZX, VPBROADCASTQ, VPCMPEQQ, laneBitsQ, 8, VMOVNTDQ, SFENCE)
