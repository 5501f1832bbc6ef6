//go:build amd64 && !noasm

#include "textflag.h"

// CONCAT_AVX2 defines a concatKernel for headers of STRIDE bytes (pointer,
// length first) and ends stored with MOVE at SCALE bytes each.
//
// A value of 1 to 32 bytes is copied with one 32-byte load and store when
// the load stays within the value's 4 KiB page (it may read past the value,
// never past the page, so it cannot fault) and the store within dst; near
// a page end it is copied with two overlapping loads from inside the value.
// Values of 33 to 256 bytes are copied in 32-byte pieces, the last one
// overlapping the one before. Longer values, and short ones whose 32-byte
// store would pass the end of dst, are left to the caller.
//
// Registers: AX value index, BX pos, CX n, DI dst, R8 dstLen, R9 ends,
// R10 base, R11 destination of the value, R12 valid, R13 value pointer,
// R14 value length, SI header, DX scratch.
#define CONCAT_AVX2(name, STRIDE, MOVE, SCALE) \
TEXT name(SB), NOSPLIT, $0-88; \
	MOVQ    dst+0(FP), DI; \
	MOVQ    dstLen+8(FP), R8; \
	MOVQ    pos+16(FP), BX; \
	MOVQ    ends+24(FP), R9; \
	MOVQ    base+32(FP), R10; \
	MOVQ    hdrs+40(FP), SI; \
	MOVQ    i+48(FP), AX; \
	MOVQ    n+56(FP), CX; \
	MOVQ    valid+64(FP), R12; \
	IMUL3Q  $STRIDE, AX, DX; \
	ADDQ    DX, SI; \
loop:; \
	CMPQ    AX, CX; \
	JAE     done; \
	MOVQ    8(SI), R14; \
	TESTQ   R12, R12; \
	JZ      counted; \
	CMPB    (R12)(AX*1), $0; \
	JNE     counted; \
	XORL    R14, R14; \
counted:; \
	TESTQ   R14, R14; \
	JZ      next; \
	MOVQ    (SI), R13; \
	LEAQ    (DI)(BX*1), R11; \
	CMPQ    R14, $32; \
	JA      long; \
	LEAQ    32(BX), DX; \
	CMPQ    DX, R8; \
	JA      done; \
	MOVL    R13, DX; \
	ANDL    $4095, DX; \
	CMPL    DX, $4064; \
	JA      edge; \
	VMOVDQU (R13), Y0; \
	VMOVDQU Y0, (R11); \
	ADDQ    R14, BX; \
	JMP     next; \
edge:; \
	CMPQ    R14, $16; \
	JB      lt16; \
	VMOVDQU (R13), X0; \
	VMOVDQU -16(R13)(R14*1), X1; \
	VMOVDQU X0, (R11); \
	VMOVDQU X1, -16(R11)(R14*1); \
	ADDQ    R14, BX; \
	JMP     next; \
lt16:; \
	CMPQ    R14, $8; \
	JB      lt8; \
	MOVQ    (R13), DX; \
	MOVQ    DX, (R11); \
	MOVQ    -8(R13)(R14*1), DX; \
	MOVQ    DX, -8(R11)(R14*1); \
	ADDQ    R14, BX; \
	JMP     next; \
lt8:; \
	CMPQ    R14, $4; \
	JB      lt4; \
	MOVL    (R13), DX; \
	MOVL    DX, (R11); \
	MOVL    -4(R13)(R14*1), DX; \
	MOVL    DX, -4(R11)(R14*1); \
	ADDQ    R14, BX; \
	JMP     next; \
lt4:; \
	MOVB    (R13), DX; \
	MOVB    DX, (R11); \
	MOVB    -1(R13)(R14*1), DX; \
	MOVB    DX, -1(R11)(R14*1); \
	CMPQ    R14, $3; \
	JNE     lt4done; \
	MOVB    1(R13), DX; \
	MOVB    DX, 1(R11); \
lt4done:; \
	ADDQ    R14, BX; \
	JMP     next; \
long:; \
	CMPQ    R14, $256; \
	JA      done; \
	LEAQ    (BX)(R14*1), DX; \
	CMPQ    DX, R8; \
	JA      done; \
	ADDQ    R14, BX; \
	SUBQ    $32, R14; \
	XORL    DX, DX; \
piece:; \
	VMOVDQU (R13)(DX*1), Y0; \
	VMOVDQU Y0, (R11)(DX*1); \
	ADDQ    $32, DX; \
	CMPQ    DX, R14; \
	JB      piece; \
	VMOVDQU (R13)(R14*1), Y0; \
	VMOVDQU Y0, (R11)(R14*1); \
next:; \
	LEAQ    (R10)(BX*1), DX; \
	MOVE    DX, (R9)(AX*SCALE); \
	INCQ    AX; \
	ADDQ    $STRIDE, SI; \
	JMP     loop; \
done:; \
	MOVQ    AX, stop+72(FP); \
	MOVQ    BX, end+80(FP); \
	VZEROUPPER; \
	RET

CONCAT_AVX2(·concatS16E32AVX2, 16, MOVL, 4)
CONCAT_AVX2(·concatS16E64AVX2, 16, MOVQ, 8)
CONCAT_AVX2(·concatS24E32AVX2, 24, MOVL, 4)
CONCAT_AVX2(·concatS24E64AVX2, 24, MOVQ, 8)
