package expr

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("split_part", 3, 3, bindSplitPart)
	register("translate", 3, 3, func(e *Expr, args []*node) (*node, error) {
		ns, err := stringArgs(e, args)
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
			return mapStrings(e, c, ns, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
				return appendTranslated(dst, v[0], v[1], v[2]), nil
			})
		}}, nil
	})
	register("ascii", 1, 1, func(e *Expr, args []*node) (*node, error) {
		ns, err := stringArgs(e, args)
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
			return mapStringsTo(e, c, ns, func(v [][]byte) (int64, error) {
				if len(v[0]) == 0 {
					return 0, nil
				}
				r, _ := utf8.DecodeRune(v[0])
				return int64(r), nil
			})
		}}, nil
	})
	register("chr", 1, 1, func(e *Expr, args []*node) (*node, error) {
		a, err := intArg(e, args[0])
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
			x, err := a.array(c)
			if err != nil {
				return nil, err
			}
			codes := x.(*array.Int64)
			b := array.NewBinaryBuilder[int32](datatype.String)
			b.Reserve(c.n)
			var buf []byte
			for i := range c.n {
				if codes.IsNull(i) {
					b.AppendNull()
					continue
				}
				r := codes.Value(i)
				if r < 0 || r > utf8.MaxRune || !utf8.ValidRune(rune(r)) {
					return nil, evalErr(e, fmt.Errorf("row %d: %d is not a Unicode code point: %w", i, r, datatype.ErrInvalid))
				}
				buf = utf8.AppendRune(buf[:0], rune(r))
				b.Append(buf)
			}
			return b.NewArray(), nil
		}}, nil
	})
	register("bit_length", 1, 1, func(e *Expr, args []*node) (*node, error) {
		ns, _, err := textArgs(e, args)
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
			return mapStringsTo(e, c, ns, func(v [][]byte) (int64, error) { return 8 * int64(len(v[0])), nil })
		}}, nil
	})
	hash := func(name string, sum func(dst, v []byte) []byte) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			ns, _, err := textArgs(e, args)
			if err != nil {
				return nil, err
			}
			return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
				var raw []byte
				return mapStringsAs(e, c, ns, datatype.String, noSkip, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
					raw = sum(raw[:0], v[0])
					return hex.AppendEncode(dst, raw), nil
				})
			}}, nil
		})
	}
	hash("md5", func(dst, v []byte) []byte { s := md5.Sum(v); return append(dst, s[:]...) })
	hash("sha256", func(dst, v []byte) []byte { s := sha256.Sum256(v); return append(dst, s[:]...) })
}

// bindSplitPart binds split_part(s, sep, k): piece k (1-based; negative
// counts from the end) of s split at sep, an empty string past the
// pieces or for k = 0, as DuckDB's. An empty sep splits into code points.
func bindSplitPart(e *Expr, args []*node) (*node, error) {
	ns, err := stringArgs(e, args[:2])
	if err != nil {
		return nil, err
	}
	k, err := intArg(e, args[2])
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
		ka, err := k.array(c)
		if err != nil {
			return nil, err
		}
		ks := ka.(*array.Int64)
		var parts [][]byte
		return mapStrings(e, c, ns, func(dst []byte, i int, v [][]byte) ([]byte, error) {
			if ks.IsNull(i) {
				return nil, errNullRow
			}
			parts = splitLiteral(parts[:0], v[0], v[1])
			n := int64(len(parts))
			switch idx := ks.Value(i); {
			case idx > 0 && idx <= n:
				return append(dst, parts[idx-1]...), nil
			case idx < 0 && idx >= -n:
				return append(dst, parts[n+idx]...), nil
			}
			return dst, nil
		})
	}}, nil
}

// appendTranslated appends s with every code point found in from
// replaced by the one at the same place in to, or dropped when to is
// shorter (the first place of a code point repeated in from counts).
func appendTranslated(dst, s, from, to []byte) []byte {
	var repl map[rune]rune // -1: drop
	for len(from) > 0 {
		f, w := utf8.DecodeRune(from)
		from = from[w:]
		t := rune(-1)
		if len(to) > 0 {
			var wt int
			t, wt = utf8.DecodeRune(to)
			to = to[wt:]
		}
		if repl == nil {
			repl = map[rune]rune{}
		}
		if _, ok := repl[f]; !ok {
			repl[f] = t
		}
	}
	if repl == nil {
		return append(dst, s...)
	}
	for len(s) > 0 {
		r, w := utf8.DecodeRune(s)
		t, ok := repl[r]
		switch {
		case !ok:
			dst = append(dst, s[:w]...)
		case t >= 0:
			dst = utf8.AppendRune(dst, t)
		}
		s = s[w:]
	}
	return dst
}
