package expr

import (
	"bytes"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

// checkUTF8Once is checkUTF8 of s, run once per array and batch: an
// expression naming a column in several string functions checks its
// bytes once.
func checkUTF8Once(c *batch, s byteStrings) error {
	if c.utf8ok[s] {
		return nil
	}
	if err := checkUTF8(s); err != nil {
		return err
	}
	if c.utf8ok == nil {
		c.utf8ok = map[array.Array]bool{}
	}
	c.utf8ok[s] = true
	return nil
}

// literalKind is the test of a string predicate with a constant needle.
type literalKind int

const (
	litContains literalKind = iota
	litPrefix
	litSuffix
)

// literalPredicateNode is literalPredicate of the nodes s and needle
// (ns) when needle is a constant string and s is not: nil when the
// row-by-row path must answer.
func literalPredicateNode(e *Expr, c *batch, ns []*node, kind literalKind) (array.Array, error) {
	lit := ns[1].lit
	if lit == nil || !lit.Valid || ns[0].lit != nil {
		return nil, nil
	}
	var needle []byte
	switch v := lit.Value.(type) {
	case string:
		needle = []byte(v)
	case []byte:
		needle = v
	default:
		return nil, nil
	}
	s, err := ns[0].array(c)
	if err != nil {
		return nil, err
	}
	out, err := literalPredicate(c, s, needle, kind, isBytes(ns[0].typ))
	if err != nil {
		return nil, evalErr(e, err)
	}
	return out, nil
}

// literalPredicate is f(s, needle) for every row of the utf8 array s
// (a binary one when binary is set: its bytes are not checked), as a
// boolean array with s's nulls, computed over s's offsets and bytes
// directly. It returns nil when s is not an array with int32 offsets or
// needle is not valid UTF-8 in a string test (the row-by-row path
// answers, or names the error).
func literalPredicate(c *batch, s array.Array, needle []byte, kind literalKind, binary bool) (array.Array, error) {
	bin, ok := s.(*array.Binary[int32])
	if !ok || !binary && !utf8.Valid(needle) {
		return nil, nil
	}
	if !binary {
		if err := checkUTF8Once(c, bin); err != nil {
			return nil, err
		}
	}
	n := bin.Len()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	bits := vals.Bytes()
	offs, data := bin.Offsets(), bin.ValueBytes()
	switch kind {
	case litContains:
		markContains(bits, offs, data, needle)
	case litPrefix:
		for i := range n {
			if bytes.HasPrefix(data[offs[i]:offs[i+1]], needle) {
				bitutil.SetBit(bits, i)
			}
		}
	case litSuffix:
		for i := range n {
			if bytes.HasSuffix(data[offs[i]:offs[i+1]], needle) {
				bitutil.SetBit(bits, i)
			}
		}
	}
	return boolLike(n, vals, s), nil
}

// markContains sets bit i of bits for every slot i (of the len(offs)-1
// slots data[offs[i]:offs[i+1]]) holding needle. The slots are
// contiguous, so it searches their bytes as one run: a hit inside slot i
// marks it, and the search goes on from the next slot; a hit crossing
// into the next slot marks nothing (no later start in slot i fits
// either).
func markContains(bits []byte, offs []int32, data, needle []byte) {
	n := len(offs) - 1
	if len(needle) == 0 {
		bitutil.SetBitsTo(bits, 0, n, true)
		return
	}
	hi := int(offs[n])
	r := 0
	for p := int(offs[0]); p < hi; {
		k := simd.Index(data[p:hi], needle)
		if k < 0 {
			return
		}
		hit := p + k
		for int(offs[r+1]) <= hit {
			r++
		}
		end := int(offs[r+1])
		if hit+len(needle) <= end {
			bitutil.SetBit(bits, r)
		}
		p = end
		r++
	}
}

// boolLike is the boolean array of the n value bits vals with the nulls
// of like.
func boolLike(n int, vals *memory.Buffer, like array.Array) *array.Boolean {
	valid, nulls := validityLike(like)
	return boolArray(n, vals, valid, nulls)
}

// validityLike is a copy of like's validity bitmap (from bit 0) and its
// null count; nil when no slot is null.
func validityLike(like array.Array) (*memory.Buffer, int) {
	n, nulls := like.Len(), like.NullN()
	if nulls == 0 {
		return nil, 0
	}
	valid := memory.Allocate(nil, bitutil.BytesForBits(n))
	if src, off := like.Data().ValidityBitmap(); src != nil {
		bitutil.CopyBits(valid.Bytes(), 0, src, off, n)
	} else {
		for i := range n {
			bitutil.SetBitTo(valid.Bytes(), i, like.IsValid(i))
		}
	}
	return valid, nulls
}

// mapValues is f of each value of the utf8 array s (checked valid UTF-8)
// as a utf8 array with s's nulls, built over the offsets and bytes
// directly (a null slot is empty).
func mapValues(s *array.Binary[int32], f func(dst, v []byte) []byte) (array.Array, error) {
	n := s.Len()
	offs, data := s.Offsets(), s.ValueBytes()
	out := make([]byte, 0, int(offs[n]-offs[0]))
	outOffs := make([]int32, n+1)
	hasNulls := s.NullN() > 0
	for i := range n {
		if !hasNulls || s.IsValid(i) {
			out = f(out, data[offs[i]:offs[i+1]])
			if len(out) > math.MaxInt32 {
				return nil, fmt.Errorf("row %d: result passes 2 GiB of string data: %w", i, datatype.ErrLimit)
			}
		}
		outOffs[i+1] = int32(len(out))
	}
	valid, nulls := validityLike(s)
	d := array.NewData(datatype.String, n, []*memory.Buffer{valid, memory.FromSlice(outOffs), memory.FromSlice(out)}, nil, nulls, 0)
	return array.Make(d)
}
