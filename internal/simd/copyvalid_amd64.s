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
