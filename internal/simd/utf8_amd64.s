//go:build amd64 && !noasm

#include "textflag.h"

// UTF-8 validation, 32 bytes per step. Each byte is looked at together
// with the one before it: the high nibble of the earlier byte, its low
// nibble and the high nibble of the later byte each select, from a
// 16-entry table, the set of error kinds that value is compatible with;
// a pair is malformed when all three share a kind. The kinds (bits):
//
//	0x01 a lead byte followed by ASCII or another lead byte
//	0x02 ASCII followed by a continuation byte
//	0x04 E0 followed by 80..9F (overlong three-byte form)
//	0x08 F4 followed by 90..BF, F5..FF followed by 90..BF (past U+10FFFF)
//	0x10 ED followed by A0..BF (a surrogate)
//	0x20 C0 or C1 followed by a continuation (overlong two-byte form)
//	0x40 F0 followed by 80..8F (overlong four-byte form), F5..FF
//	     followed by 80..8F (past U+10FFFF)
//	0x80 a continuation followed by a continuation
//
// Kind 0x80 is an error only where the byte is not the third or fourth
// of a character, known from the bytes two and three places back (E0..FF
// and F0..FF): bit 0x80 of "two back >= E0 or three back >= F0" is
// flipped into the result. A block of ASCII only needs the block before
// it not to end inside a character.

// utf8Hi1 is indexed by the high nibble of the earlier byte.
DATA utf8Hi1<>+0(SB)/8, $0x0202020202020202
DATA utf8Hi1<>+8(SB)/8, $0x4915012180808080
DATA utf8Hi1<>+16(SB)/8, $0x0202020202020202
DATA utf8Hi1<>+24(SB)/8, $0x4915012180808080
GLOBL utf8Hi1<>(SB), RODATA|NOPTR, $32

// utf8Lo1 is indexed by the low nibble of the earlier byte.
DATA utf8Lo1<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA utf8Lo1<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
DATA utf8Lo1<>+16(SB)/8, $0xcbcbcb8b8383a3e7
DATA utf8Lo1<>+24(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL utf8Lo1<>(SB), RODATA|NOPTR, $32

// utf8Hi2 is indexed by the high nibble of the later byte.
DATA utf8Hi2<>+0(SB)/8, $0x0101010101010101
DATA utf8Hi2<>+8(SB)/8, $0x01010101babaaee6
DATA utf8Hi2<>+16(SB)/8, $0x0101010101010101
DATA utf8Hi2<>+24(SB)/8, $0x01010101babaaee6
GLOBL utf8Hi2<>(SB), RODATA|NOPTR, $32

// utf8Open is subtracted (saturating) from a block: a byte left non-zero
// is a lead byte too close to the end to be complete (the last byte
// C0.., the second last E0.., the third last F0..).
DATA utf8Open<>+0(SB)/8, $0xffffffffffffffff
DATA utf8Open<>+8(SB)/8, $0xffffffffffffffff
DATA utf8Open<>+16(SB)/8, $0xffffffffffffffff
DATA utf8Open<>+24(SB)/8, $0xbfdfefffffffffff
GLOBL utf8Open<>(SB), RODATA|NOPTR, $32

DATA utf8Third<>+0(SB)/8, $0x6060606060606060
DATA utf8Third<>+8(SB)/8, $0x6060606060606060
DATA utf8Third<>+16(SB)/8, $0x6060606060606060
DATA utf8Third<>+24(SB)/8, $0x6060606060606060
GLOBL utf8Third<>(SB), RODATA|NOPTR, $32

DATA utf8Fourth<>+0(SB)/8, $0x7070707070707070
DATA utf8Fourth<>+8(SB)/8, $0x7070707070707070
DATA utf8Fourth<>+16(SB)/8, $0x7070707070707070
DATA utf8Fourth<>+24(SB)/8, $0x7070707070707070
GLOBL utf8Fourth<>(SB), RODATA|NOPTR, $32

DATA utf8Nibble<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA utf8Nibble<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA utf8Nibble<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA utf8Nibble<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL utf8Nibble<>(SB), RODATA|NOPTR, $32

DATA utf8High<>+0(SB)/8, $0x8080808080808080
DATA utf8High<>+8(SB)/8, $0x8080808080808080
DATA utf8High<>+16(SB)/8, $0x8080808080808080
DATA utf8High<>+24(SB)/8, $0x8080808080808080
GLOBL utf8High<>(SB), RODATA|NOPTR, $32

// func validUTF8AVX2(prev, p *byte, n int) bool
//
// Registers: SI p, CX bytes left, Y15 errors so far, Y14 the block
// before, Y13 its unfinished lead bytes, Y12 nibble mask, Y11/Y10/Y9 the
// tables, Y8 utf8Open.
TEXT ·validUTF8AVX2(SB), NOSPLIT, $0-25
	MOVQ    prev+0(FP), DX
	MOVQ    p+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVDQU utf8Hi1<>(SB), Y11
	VMOVDQU utf8Lo1<>(SB), Y10
	VMOVDQU utf8Hi2<>(SB), Y9
	VMOVDQU utf8Open<>(SB), Y8
	VMOVDQU utf8Nibble<>(SB), Y12
	VMOVDQU (DX), Y14
	VPSUBUSB Y8, Y14, Y13
	VPXOR   Y15, Y15, Y15

loop:
	VMOVDQU   (SI), Y0
	VPMOVMSKB Y0, AX
	TESTL     AX, AX
	JNZ       mixed
	// ASCII only: the block before must not end inside a character.
	VPOR      Y13, Y15, Y15
	VPXOR     Y13, Y13, Y13
	VMOVDQA   Y0, Y14
	JMP       next

mixed:
	// Y1 = the last 16 bytes before the block's upper half, per lane:
	// [before.hi, block.lo]; Y2, Y3, Y4 = the block shifted one, two and
	// three bytes later (each byte's predecessors).
	VPERM2I128 $0x21, Y0, Y14, Y1
	VPALIGNR   $15, Y1, Y0, Y2
	VPALIGNR   $14, Y1, Y0, Y3
	VPALIGNR   $13, Y1, Y0, Y4

	VPSRLW  $4, Y2, Y5
	VPAND   Y12, Y5, Y5
	VPSHUFB Y5, Y11, Y5
	VPAND   Y12, Y2, Y6
	VPSHUFB Y6, Y10, Y6
	VPSRLW  $4, Y0, Y7
	VPAND   Y12, Y7, Y7
	VPSHUFB Y7, Y9, Y7
	VPAND   Y5, Y6, Y5
	VPAND   Y7, Y5, Y5

	VPSUBUSB utf8Third<>(SB), Y3, Y3
	VPSUBUSB utf8Fourth<>(SB), Y4, Y4
	VPOR     Y3, Y4, Y3
	VPAND    utf8High<>(SB), Y3, Y3
	VPXOR    Y3, Y5, Y5
	VPOR     Y5, Y15, Y15

	VPSUBUSB Y8, Y0, Y13
	VMOVDQA  Y0, Y14

next:
	ADDQ $32, SI
	SUBQ $32, CX
	JNZ  loop

	VPTEST Y15, Y15
	SETEQ  ret+24(FP)
	VZEROUPPER
	RET
