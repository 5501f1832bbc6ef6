//go:build amd64 && !noasm

#include "textflag.h"

// Elementwise arithmetic and comparisons.
//
// func k(dst, a, b unsafe.Pointer, bstride, n int, s uint64)
//
// b advances bstride bytes per vector; bstride 0 means the array–scalar
// form: the scalar s is broadcast into the 64-byte local frame and read
// from there. n is a multiple of the elements per vector (AVX-512) or of 8
// (AVX2 comparisons, which write one bitmap byte per 8 elements).

#define ELEM_PROLOGUE(BCAST, VREG, VMOV) \
	MOVQ  dst+0(FP), DI; \
	MOVQ  a+8(FP), SI; \
	MOVQ  b+16(FP), BX; \
	MOVQ  bstride+24(FP), R8; \
	MOVQ  n+32(FP), CX; \
	TESTQ R8, R8; \
	JNZ   start; \
	BCAST s+40(FP), VREG; \
	VMOV  VREG, 0(SP); \
	LEAQ  0(SP), BX; \
start:

// NT_MIN_VECTORS is the output size, in 64-byte units, from which the
// arithmetic kernels write with non-temporal stores (4 MiB): a result that
// large does not stay in cache anyway, and streaming stores skip the read
// of every destination line before it is overwritten.
#define NT_MIN_VECTORS 65536

// ARITH_AVX2 defines dst = a OP b over 32-byte vectors of EPV elements.
#define ARITH_AVX2(name, OP, BCAST, EPV) \
TEXT name(SB), NOSPLIT, $64-48; \
	ELEM_PROLOGUE(BCAST, Y15, VMOVDQU); \
	CMPQ    CX, $(2*NT_MIN_VECTORS*EPV); \
	JB      loop2; \
	TESTQ   $31, DI; \
	JNZ     loop2; \
loopnt:; \
	CMPQ    CX, $(2*EPV); \
	JB      ntdone; \
	VMOVDQU (SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	OP      (BX), Y0, Y0; \
	OP      (BX)(R8*1), Y1, Y1; \
	VMOVNTDQ Y0, (DI); \
	VMOVNTDQ Y1, 32(DI); \
	LEAQ    (BX)(R8*2), BX; \
	ADDQ    $64, SI; \
	ADDQ    $64, DI; \
	SUBQ    $(2*EPV), CX; \
	JMP     loopnt; \
ntdone:; \
	SFENCE; \
loop2:; \
	CMPQ    CX, $(2*EPV); \
	JB      loop1; \
	VMOVDQU (SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	OP      (BX), Y0, Y0; \
	OP      (BX)(R8*1), Y1, Y1; \
	VMOVDQU Y0, (DI); \
	VMOVDQU Y1, 32(DI); \
	LEAQ    (BX)(R8*2), BX; \
	ADDQ    $64, SI; \
	ADDQ    $64, DI; \
	SUBQ    $(2*EPV), CX; \
	JMP     loop2; \
loop1:; \
	CMPQ    CX, $EPV; \
	JB      done; \
	VMOVDQU (SI), Y0; \
	OP      (BX), Y0, Y0; \
	VMOVDQU Y0, (DI); \
	ADDQ    R8, BX; \
	ADDQ    $32, SI; \
	ADDQ    $32, DI; \
	SUBQ    $EPV, CX; \
	JMP     loop1; \
done:; \
	VZEROUPPER; \
	RET

#define ARITH_AVX512(name, OP, BCAST, EPV) \
TEXT name(SB), NOSPLIT, $64-48; \
	ELEM_PROLOGUE(BCAST, Z15, VMOVDQU64); \
	CMPQ      CX, $(NT_MIN_VECTORS*EPV); \
	JB        loop2; \
	TESTQ     $63, DI; \
	JNZ       loop2; \
loopnt:; \
	CMPQ      CX, $(2*EPV); \
	JB        ntdone; \
	VMOVDQU64 (SI), Z0; \
	VMOVDQU64 64(SI), Z1; \
	OP        (BX), Z0, Z0; \
	OP        (BX)(R8*1), Z1, Z1; \
	VMOVNTDQ  Z0, (DI); \
	VMOVNTDQ  Z1, 64(DI); \
	LEAQ      (BX)(R8*2), BX; \
	ADDQ      $128, SI; \
	ADDQ      $128, DI; \
	SUBQ      $(2*EPV), CX; \
	JMP       loopnt; \
ntdone:; \
	SFENCE; \
loop2:; \
	CMPQ      CX, $(2*EPV); \
	JB        loop1; \
	VMOVDQU64 (SI), Z0; \
	VMOVDQU64 64(SI), Z1; \
	OP        (BX), Z0, Z0; \
	OP        (BX)(R8*1), Z1, Z1; \
	VMOVDQU64 Z0, (DI); \
	VMOVDQU64 Z1, 64(DI); \
	LEAQ      (BX)(R8*2), BX; \
	ADDQ      $128, SI; \
	ADDQ      $128, DI; \
	SUBQ      $(2*EPV), CX; \
	JMP       loop2; \
loop1:; \
	CMPQ      CX, $EPV; \
	JB        done; \
	VMOVDQU64 (SI), Z0; \
	OP        (BX), Z0, Z0; \
	VMOVDQU64 Z0, (DI); \
	ADDQ      R8, BX; \
	ADDQ      $64, SI; \
	ADDQ      $64, DI; \
	SUBQ      $EPV, CX; \
	JMP       loop1; \
done:; \
	VZEROUPPER; \
	RET

ARITH_AVX2(·addI32AVX2, VPADDD, VPBROADCASTD, 8)
ARITH_AVX2(·subI32AVX2, VPSUBD, VPBROADCASTD, 8)
ARITH_AVX2(·mulI32AVX2, VPMULLD, VPBROADCASTD, 8)
ARITH_AVX2(·addI64AVX2, VPADDQ, VPBROADCASTQ, 4)
ARITH_AVX2(·subI64AVX2, VPSUBQ, VPBROADCASTQ, 4)
ARITH_AVX2(·addF32AVX2, VADDPS, VPBROADCASTD, 8)
ARITH_AVX2(·subF32AVX2, VSUBPS, VPBROADCASTD, 8)
ARITH_AVX2(·mulF32AVX2, VMULPS, VPBROADCASTD, 8)
ARITH_AVX2(·addF64AVX2, VADDPD, VPBROADCASTQ, 4)
ARITH_AVX2(·subF64AVX2, VSUBPD, VPBROADCASTQ, 4)
ARITH_AVX2(·mulF64AVX2, VMULPD, VPBROADCASTQ, 4)

ARITH_AVX512(·addI32AVX512, VPADDD, VPBROADCASTD, 16)
ARITH_AVX512(·subI32AVX512, VPSUBD, VPBROADCASTD, 16)
ARITH_AVX512(·mulI32AVX512, VPMULLD, VPBROADCASTD, 16)
ARITH_AVX512(·addI64AVX512, VPADDQ, VPBROADCASTQ, 8)
ARITH_AVX512(·subI64AVX512, VPSUBQ, VPBROADCASTQ, 8)
ARITH_AVX512(·mulI64AVX512, VPMULLQ, VPBROADCASTQ, 8)
ARITH_AVX512(·addF32AVX512, VADDPS, VPBROADCASTD, 16)
ARITH_AVX512(·subF32AVX512, VSUBPS, VPBROADCASTD, 16)
ARITH_AVX512(·mulF32AVX512, VMULPS, VPBROADCASTD, 16)
ARITH_AVX512(·addF64AVX512, VADDPD, VPBROADCASTQ, 8)
ARITH_AVX512(·subF64AVX512, VSUBPD, VPBROADCASTQ, 8)
ARITH_AVX512(·mulF64AVX512, VMULPD, VPBROADCASTQ, 8)

// CMP_AVX512 writes the opmask of "a CMP b" (predicate IMM), MB bytes per
// vector of EPV elements.
#define CMP_AVX512(name, CMP, IMM, BCAST, KMOV, EPV, MB) \
TEXT name(SB), NOSPLIT, $64-48; \
	ELEM_PROLOGUE(BCAST, Z15, VMOVDQU64); \
loop:; \
	CMPQ      CX, $EPV; \
	JB        done; \
	VMOVDQU64 (SI), Z0; \
	CMP       $IMM, (BX), Z0, K1; \
	KMOV      K1, (DI); \
	ADDQ      R8, BX; \
	ADDQ      $64, SI; \
	ADDQ      $MB, DI; \
	SUBQ      $EPV, CX; \
	JMP       loop; \
done:; \
	VZEROUPPER; \
	RET

// Predicates: VPCMP[DQ] 0 ==, 1 <, 2 <=, 4 !=, 5 >=, 6 >; VCMPP[SD]
// EQ_OQ, LT_OS, LE_OS, NEQ_UQ, GE_OS, GT_OS, which match Go's operators.
CMP_AVX512(·cmpEqI64AVX512, VPCMPQ, 0, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpNeI64AVX512, VPCMPQ, 4, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpLtI64AVX512, VPCMPQ, 1, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpLeI64AVX512, VPCMPQ, 2, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpGtI64AVX512, VPCMPQ, 6, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpGeI64AVX512, VPCMPQ, 5, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpEqI32AVX512, VPCMPD, 0, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpNeI32AVX512, VPCMPD, 4, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpLtI32AVX512, VPCMPD, 1, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpLeI32AVX512, VPCMPD, 2, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpGtI32AVX512, VPCMPD, 6, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpGeI32AVX512, VPCMPD, 5, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpEqF64AVX512, VCMPPD, 0x00, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpNeF64AVX512, VCMPPD, 0x04, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpLtF64AVX512, VCMPPD, 0x01, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpLeF64AVX512, VCMPPD, 0x02, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpGtF64AVX512, VCMPPD, 0x0e, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpGeF64AVX512, VCMPPD, 0x0d, VPBROADCASTQ, KMOVB, 8, 1)
CMP_AVX512(·cmpEqF32AVX512, VCMPPS, 0x00, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpNeF32AVX512, VCMPPS, 0x04, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpLtF32AVX512, VCMPPS, 0x01, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpLeF32AVX512, VCMPPS, 0x02, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpGtF32AVX512, VCMPPS, 0x0e, VPBROADCASTD, KMOVW, 16, 2)
CMP_AVX512(·cmpGeF32AVX512, VCMPPS, 0x0d, VPBROADCASTD, KMOVW, 16, 2)

// CMP64_AVX2 and CMP32_AVX2 compare 8 elements per step with the
// comparison instructions CMPA (and CMPB), XOR the 8 result bits with INV
// and store them as one bitmap byte.
#define CMP64_AVX2(name, CMPA, CMPB, INV) \
TEXT name(SB), NOSPLIT, $64-48; \
	ELEM_PROLOGUE(VPBROADCASTQ, Y15, VMOVDQU); \
loop:; \
	CMPQ      CX, $8; \
	JB        done; \
	VMOVDQU   (SI), Y0; \
	VMOVDQU   32(SI), Y1; \
	VMOVDQU   (BX), Y2; \
	VMOVDQU   (BX)(R8*1), Y3; \
	CMPA; \
	CMPB; \
	VMOVMSKPD Y4, AX; \
	VMOVMSKPD Y5, DX; \
	SHLL      $4, DX; \
	ORL       DX, AX; \
	XORL      $INV, AX; \
	MOVB      AX, (DI); \
	LEAQ      (BX)(R8*2), BX; \
	ADDQ      $64, SI; \
	INCQ      DI; \
	SUBQ      $8, CX; \
	JMP       loop; \
done:; \
	VZEROUPPER; \
	RET

#define CMP32_AVX2(name, CMPA, INV) \
TEXT name(SB), NOSPLIT, $64-48; \
	ELEM_PROLOGUE(VPBROADCASTD, Y15, VMOVDQU); \
loop:; \
	CMPQ      CX, $8; \
	JB        done; \
	VMOVDQU   (SI), Y0; \
	VMOVDQU   (BX), Y2; \
	CMPA; \
	VMOVMSKPS Y4, AX; \
	XORL      $INV, AX; \
	MOVB      AX, (DI); \
	ADDQ      R8, BX; \
	ADDQ      $32, SI; \
	INCQ      DI; \
	SUBQ      $8, CX; \
	JMP       loop; \
done:; \
	VZEROUPPER; \
	RET

// Y0/Y1 hold a, Y2/Y3 hold b; results go to Y4/Y5. Integer AVX2 has only
// == and >, so != <= >= are their complements (INV 0xff) and < swaps.
#define EQ64A VPCMPEQQ Y2, Y0, Y4
#define EQ64B VPCMPEQQ Y3, Y1, Y5
#define GT64A VPCMPGTQ Y2, Y0, Y4
#define GT64B VPCMPGTQ Y3, Y1, Y5
#define LT64A VPCMPGTQ Y0, Y2, Y4
#define LT64B VPCMPGTQ Y1, Y3, Y5
#define EQ32 VPCMPEQD Y2, Y0, Y4
#define GT32 VPCMPGTD Y2, Y0, Y4
#define LT32 VPCMPGTD Y0, Y2, Y4

CMP64_AVX2(·cmpEqI64AVX2, EQ64A, EQ64B, 0)
CMP64_AVX2(·cmpNeI64AVX2, EQ64A, EQ64B, 0xff)
CMP64_AVX2(·cmpLtI64AVX2, LT64A, LT64B, 0)
CMP64_AVX2(·cmpLeI64AVX2, GT64A, GT64B, 0xff)
CMP64_AVX2(·cmpGtI64AVX2, GT64A, GT64B, 0)
CMP64_AVX2(·cmpGeI64AVX2, LT64A, LT64B, 0xff)
CMP32_AVX2(·cmpEqI32AVX2, EQ32, 0)
CMP32_AVX2(·cmpNeI32AVX2, EQ32, 0xff)
CMP32_AVX2(·cmpLtI32AVX2, LT32, 0)
CMP32_AVX2(·cmpLeI32AVX2, GT32, 0xff)
CMP32_AVX2(·cmpGtI32AVX2, GT32, 0)
CMP32_AVX2(·cmpGeI32AVX2, LT32, 0xff)

#define FCMP64A(imm) VCMPPD $imm, Y2, Y0, Y4
#define FCMP64B(imm) VCMPPD $imm, Y3, Y1, Y5
#define FCMP32(imm) VCMPPS $imm, Y2, Y0, Y4

CMP64_AVX2(·cmpEqF64AVX2, FCMP64A(0x00), FCMP64B(0x00), 0)
CMP64_AVX2(·cmpNeF64AVX2, FCMP64A(0x04), FCMP64B(0x04), 0)
CMP64_AVX2(·cmpLtF64AVX2, FCMP64A(0x01), FCMP64B(0x01), 0)
CMP64_AVX2(·cmpLeF64AVX2, FCMP64A(0x02), FCMP64B(0x02), 0)
CMP64_AVX2(·cmpGtF64AVX2, FCMP64A(0x0e), FCMP64B(0x0e), 0)
CMP64_AVX2(·cmpGeF64AVX2, FCMP64A(0x0d), FCMP64B(0x0d), 0)
CMP32_AVX2(·cmpEqF32AVX2, FCMP32(0x00), 0)
CMP32_AVX2(·cmpNeF32AVX2, FCMP32(0x04), 0)
CMP32_AVX2(·cmpLtF32AVX2, FCMP32(0x01), 0)
CMP32_AVX2(·cmpLeF32AVX2, FCMP32(0x02), 0)
CMP32_AVX2(·cmpGtF32AVX2, FCMP32(0x0e), 0)
CMP32_AVX2(·cmpGeF32AVX2, FCMP32(0x0d), 0)

// Byte swapping with VPSHUFB; n is a multiple of the vector size in bytes.
DATA swap16<>+0(SB)/8, $0x0607040502030001
DATA swap16<>+8(SB)/8, $0x0e0f0c0d0a0b0809
GLOBL swap16<>(SB), RODATA|NOPTR, $16
DATA swap32<>+0(SB)/8, $0x0405060700010203
DATA swap32<>+8(SB)/8, $0x0c0d0e0f08090a0b
GLOBL swap32<>(SB), RODATA|NOPTR, $16
DATA swap64<>+0(SB)/8, $0x0001020304050607
DATA swap64<>+8(SB)/8, $0x08090a0b0c0d0e0f
GLOBL swap64<>(SB), RODATA|NOPTR, $16

// func k(dst, src unsafe.Pointer, n int)
#define BSWAP_AVX2(name, MASK) \
TEXT name(SB), NOSPLIT, $0-24; \
	MOVQ           dst+0(FP), DI; \
	MOVQ           src+8(FP), SI; \
	MOVQ           n+16(FP), CX; \
	VBROADCASTI128 MASK, Y15; \
loop:; \
	CMPQ    CX, $32; \
	JB      done; \
	VMOVDQU (SI), Y0; \
	VPSHUFB Y15, Y0, Y0; \
	VMOVDQU Y0, (DI); \
	ADDQ    $32, SI; \
	ADDQ    $32, DI; \
	SUBQ    $32, CX; \
	JMP     loop; \
done:; \
	VZEROUPPER; \
	RET

#define BSWAP_AVX512(name, MASK) \
TEXT name(SB), NOSPLIT, $0-24; \
	MOVQ            dst+0(FP), DI; \
	MOVQ            src+8(FP), SI; \
	MOVQ            n+16(FP), CX; \
	VBROADCASTI32X4 MASK, Z15; \
loop:; \
	CMPQ      CX, $64; \
	JB        done; \
	VMOVDQU64 (SI), Z0; \
	VPSHUFB   Z15, Z0, Z0; \
	VMOVDQU64 Z0, (DI); \
	ADDQ      $64, SI; \
	ADDQ      $64, DI; \
	SUBQ      $64, CX; \
	JMP       loop; \
done:; \
	VZEROUPPER; \
	RET

BSWAP_AVX2(·bswap16AVX2, swap16<>(SB))
BSWAP_AVX2(·bswap32AVX2, swap32<>(SB))
BSWAP_AVX2(·bswap64AVX2, swap64<>(SB))
BSWAP_AVX512(·bswap16AVX512, swap16<>(SB))
BSWAP_AVX512(·bswap32AVX512, swap32<>(SB))
BSWAP_AVX512(·bswap64AVX512, swap64<>(SB))
