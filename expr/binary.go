package expr

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// The binary forms of the string functions: the same kernels over bytes
// and offsets, counting bytes where the string forms count code points,
// and never reading the bytes as UTF-8.

func init() {
	hex := func(name string) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			a, _, err := textArgs(e, args[:1])
			if err != nil {
				return nil, err
			}
			return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
				return mapStringsAs(e, c, a, datatype.String, noSkip, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
					const digits = "0123456789ABCDEF"
					for _, b := range v[0] {
						dst = append(dst, digits[b>>4], digits[b&15])
					}
					return dst, nil
				})
			}}, nil
		})
	}
	hex("hex")
	hex("to_hex")
	unhex := func(name string) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			a, err := stringArg(e, args[0])
			if err != nil {
				return nil, err
			}
			return &node{typ: datatype.Binary, src: e, eval: func(c *batch) (array.Array, error) {
				return mapStringsAs(e, c, []*node{a}, datatype.Binary, noSkip, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
					return appendUnhex(dst, v[0])
				})
			}}, nil
		})
	}
	unhex("unhex")
	unhex("from_hex")
	toBase64 := func(name string) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			a, bin, err := textArgs(e, args[:1])
			if err != nil {
				return nil, err
			}
			if !bin {
				return nil, errAt(e, datatype.ErrInvalid, "%s needs a binary, not %s (%s)", e.fn, args[0].typ, args[0].src)
			}
			return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
				return mapStringsAs(e, c, a, datatype.String, noSkip, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
					return base64.StdEncoding.AppendEncode(dst, v[0]), nil
				})
			}}, nil
		})
	}
	toBase64("to_base64")
	toBase64("base64")
	register("from_base64", 1, 1, func(e *Expr, args []*node) (*node, error) {
		a, err := stringArg(e, args[0])
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.Binary, src: e, eval: func(c *batch) (array.Array, error) {
			return mapStringsAs(e, c, []*node{a}, datatype.Binary, noSkip, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
				out, err := base64.StdEncoding.AppendDecode(dst, v[0])
				if err != nil {
					return nil, fmt.Errorf("%q is not base64: %v: %w", v[0], err, datatype.ErrInvalid)
				}
				return out, nil
			})
		}}, nil
	})
}

// isBytes reports whether t is a binary type: binary, large_binary,
// binary_view or fixed_size_binary.
func isBytes(t datatype.DataType) bool {
	switch t.Kind() {
	case datatype.KindBinary, datatype.KindLargeBinary, datatype.KindBinaryView, datatype.KindFixedSizeBinary:
		return true
	}
	return false
}

// textArgs checks the text arguments of a function that has a string
// and a binary form: all strings (or nulls), or, when one of them is a
// binary, the binary form, where a string literal stands for its bytes
// and a null literal is a binary null. bin reports the binary form.
func textArgs(e *Expr, args []*node) (out []*node, bin bool, err error) {
	for _, a := range args {
		bin = bin || isBytes(a.typ)
	}
	if !bin {
		out, err = stringArgs(e, args)
		return out, false, err
	}
	out = make([]*node, len(args))
	for i, a := range args {
		switch {
		case isBytes(a.typ):
			out[i] = a
		case isNull(a.typ) || isStringy(a.typ) && isLit(a):
			if out[i], err = castNode(a, datatype.Binary); err != nil {
				return nil, true, err
			}
		default:
			return nil, true, errAt(e, datatype.ErrInvalid, "%s of a binary and %s (%s): both must be binary", e.fn, a.typ, a.src)
		}
	}
	return out, true, nil
}

// units counts the values of a function: code points of a string, bytes
// of a binary (bytes true).
type units struct{ bytes bool }

// String names the units: characters or bytes.
func (u units) String() string {
	if u.bytes {
		return "bytes"
	}
	return "characters"
}

// count is the number of units of s.
func (u units) count(s []byte) int64 {
	if u.bytes {
		return int64(len(s))
	}
	return int64(utf8.RuneCount(s))
}

// offset is the byte offset of unit n of s (len(s) past its end).
func (u units) offset(s []byte, n int64) int {
	if u.bytes {
		return int(min(max(n, 0), int64(len(s))))
	}
	return runeOffset(s, n)
}

// width is the byte width of the first unit of s (not empty).
func (u units) width(s []byte) int {
	if u.bytes {
		return 1
	}
	_, w := utf8.DecodeRune(s)
	return w
}

// appendReverse appends the units of s in reverse order.
func (u units) appendReverse(dst, s []byte) []byte {
	if u.bytes {
		for i := len(s) - 1; i >= 0; i-- {
			dst = append(dst, s[i])
		}
		return dst
	}
	for i := len(s); i > 0; {
		_, w := utf8.DecodeLastRune(s[:i])
		dst = append(dst, s[i-w:i]...)
		i -= w
	}
	return dst
}

// trimBytes is s without the leading (left) and trailing (right) bytes
// that are in cut.
func trimBytes(s, cut []byte, left, right bool) []byte {
	var set [256]bool
	for _, b := range cut {
		set[b] = true
	}
	if left {
		for len(s) > 0 && set[s[0]] {
			s = s[1:]
		}
	}
	if right {
		for len(s) > 0 && set[s[len(s)-1]] {
			s = s[:len(s)-1]
		}
	}
	return s
}

// appendUnhex appends the bytes the hexadecimal digits of h stand for,
// as DuckDB's unhex: an odd count has a 0 put in front.
func appendUnhex(dst, h []byte) ([]byte, error) {
	digit := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	if k := bytes.IndexFunc(h, func(r rune) bool { _, ok := digit(byte(r)); return r >= utf8.RuneSelf || !ok }); k >= 0 {
		return nil, fmt.Errorf("%q is not hexadecimal: byte %d: %w", h, k, datatype.ErrInvalid)
	}
	if len(h)%2 == 1 {
		lo, _ := digit(h[0])
		dst = append(dst, lo)
		h = h[1:]
	}
	for i := 0; i < len(h); i += 2 {
		hi, _ := digit(h[i])
		lo, _ := digit(h[i+1])
		dst = append(dst, hi<<4|lo)
	}
	return dst, nil
}
