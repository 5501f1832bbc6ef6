package expr

import (
	"bytes"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
)

// maxRepeat bounds the bytes one row of repeat, lpad or rpad may make.
const maxRepeat = 1 << 28

func init() {
	// strInt registers name(s, n [, t]): strings (or binaries) with an
	// integer second argument; f is given s, n, the third string (nil when
	// absent) and the units counted.
	strInt := func(name string, min, max int, f func(dst, s []byte, n int64, t []byte, u units) ([]byte, error)) {
		register(name, min, max, func(e *Expr, args []*node) (*node, error) {
			text := []*node{args[0]}
			if len(args) > 2 {
				text = append(text, args[2])
			}
			strs, bin, err := textArgs(e, text)
			if err != nil {
				return nil, err
			}
			n, err := intArg(e, args[1])
			if err != nil {
				return nil, err
			}
			u := units{bytes: bin}
			return &node{typ: textType(bin), src: e, eval: func(c *batch) (array.Array, error) {
				na, err := n.array(c)
				if err != nil {
					return nil, err
				}
				ns := na.(*array.Int64)
				return mapStrings(e, c, strs, func(dst []byte, i int, v [][]byte) ([]byte, error) {
					if ns.IsNull(i) {
						return nil, errNullRow
					}
					var t []byte
					if len(v) > 1 {
						t = v[1]
					}
					return f(dst, v[0], ns.Value(i), t, u)
				})
			}}, nil
		})
	}
	strInt("lpad", 3, 3, func(dst, s []byte, n int64, fill []byte, u units) ([]byte, error) {
		return appendPad(dst, s, n, fill, true, u)
	})
	strInt("rpad", 3, 3, func(dst, s []byte, n int64, fill []byte, u units) ([]byte, error) {
		return appendPad(dst, s, n, fill, false, u)
	})
	strInt("left", 2, 2, func(dst, s []byte, n int64, _ []byte, u units) ([]byte, error) {
		if n < 0 {
			n = max(0, u.count(s)+n)
		}
		return append(dst, s[:u.offset(s, n)]...), nil
	})
	strInt("right", 2, 2, func(dst, s []byte, n int64, _ []byte, u units) ([]byte, error) {
		size := u.count(s)
		skip := size - n
		if n < 0 {
			skip = size
			if n > -size {
				skip = -n
			}
		}
		return append(dst, s[u.offset(s, max(skip, 0)):]...), nil
	})
	strInt("repeat", 2, 2, func(dst, s []byte, n int64, _ []byte, _ units) ([]byte, error) {
		if n <= 0 || len(s) == 0 {
			return dst, nil
		}
		if n > maxRepeat/int64(len(s)) {
			return nil, fmt.Errorf("repeat of %d bytes %d times passes %d bytes: %w", len(s), n, maxRepeat, datatype.ErrLimit)
		}
		for range n {
			dst = append(dst, s...)
		}
		return dst, nil
	})
	position := func(name string) {
		register(name, 2, 2, func(e *Expr, args []*node) (*node, error) {
			ns, bin, err := textArgs(e, args)
			if err != nil {
				return nil, err
			}
			u := units{bytes: bin}
			return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
				return mapStringsTo(e, c, ns, func(v [][]byte) (int64, error) {
					k := bytes.Index(v[0], v[1])
					if k < 0 {
						return 0, nil
					}
					return u.count(v[0][:k]) + 1, nil
				})
			}}, nil
		})
	}
	position("strpos")
	position("instr")
	register("replace", 3, 3, func(e *Expr, args []*node) (*node, error) {
		ns, bin, err := textArgs(e, args)
		if err != nil {
			return nil, err
		}
		return &node{typ: textType(bin), src: e, eval: func(c *batch) (array.Array, error) {
			return mapStrings(e, c, ns, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
				return appendReplaced(dst, v[0], v[1], v[2]), nil
			})
		}}, nil
	})
	register("octet_length", 1, 1, func(e *Expr, args []*node) (*node, error) {
		ns, _, err := textArgs(e, args)
		if err != nil {
			return nil, err
		}
		a := ns[0]
		return unary(e, a, datatype.Int64, func(x array.Array) (array.Array, error) {
			s, ok := x.(byteStrings)
			if !ok {
				return nil, fmt.Errorf("octet_length of %s: %w", x.DataType(), datatype.ErrNotSupported)
			}
			out := make([]int64, s.Len())
			for i := range out {
				out[i] = int64(len(s.Value(i)))
			}
			return int64Array(out, s), nil
		}), nil
	})
	register("encode", 1, 1, func(e *Expr, args []*node) (*node, error) {
		a, err := stringArg(e, args[0])
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.Binary, src: e, eval: func(c *batch) (array.Array, error) {
			ss, err := evalStrings(e, c, []*node{a})
			if err != nil {
				return nil, err
			}
			return castBytes(e, ss[0], datatype.Binary)
		}}, nil
	})
	register("decode", 1, 1, func(e *Expr, args []*node) (*node, error) {
		a := args[0]
		if !isBytes(a.typ) && !isNull(a.typ) {
			return nil, errAt(e, datatype.ErrInvalid, "decode needs a binary, not %s (%s)", a.typ, a.src)
		}
		a, err := castNode(a, datatype.Binary)
		if err != nil {
			return nil, err
		}
		return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
			ss, err := evalStrings(e, c, []*node{a})
			if err != nil {
				return nil, err
			}
			if err := checkUTF8(ss[0]); err != nil { // decode checks, as DuckDB's does
				return nil, evalErr(e, err)
			}
			return castBytes(e, ss[0], datatype.String)
		}}, nil
	})
	split := func(name string) {
		register(name, 2, 2, func(e *Expr, args []*node) (*node, error) {
			ns, err := stringArgs(e, args)
			if err != nil {
				return nil, err
			}
			return &node{typ: datatype.ListOf(datatype.String), src: e, eval: func(c *batch) (array.Array, error) {
				return mapStringLists(e, c, ns, func(parts [][]byte, v [][]byte) [][]byte {
					return splitLiteral(parts, v[0], v[1])
				})
			}}, nil
		})
	}
	split("string_split")
	split("str_split")
	split("string_to_array")
	register("array_to_string", 2, 2, bindJoin)
}

// slot is the slot of s holding row i: i, or 0 for a constant of
// evalStrings (an array of one slot; a batch of one row reads slot 0
// either way).
func slot(s byteStrings, i int) int {
	if s.Len() == 1 {
		return 0
	}
	return i
}

// castBytes copies the values of s into an array of t (binary or utf8).
func castBytes(e *Expr, s byteStrings, t datatype.DataType) (array.Array, error) {
	b := array.NewBinaryBuilder[int32](t)
	b.Reserve(s.Len())
	for i := range s.Len() {
		if s.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := s.Value(i)
		if b.DataLen()+len(v) > math.MaxInt32 {
			return nil, evalErr(e, fmt.Errorf("result passes 2 GiB of data: %w", datatype.ErrLimit))
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}

// checkUTF8 is an error naming the first row of s (a string or binary
// array) that is not valid UTF-8. A utf8 array is checked in one pass
// over its bytes when it can be: the whole run valid and no value
// starting inside a character mean that every value is valid.
func checkUTF8(s byteStrings) error {
	if b, ok := s.(*array.Binary[int32]); ok && b.Len() > 0 {
		offs, data := b.Offsets(), b.ValueBytes()
		lo, hi := int(offs[0]), int(offs[len(offs)-1])
		if simd.ValidUTF8(data[lo:hi]) {
			split := false
			for _, o := range offs[1 : len(offs)-1] {
				if int(o) < hi && !utf8.RuneStart(data[o]) {
					split = true
					break
				}
			}
			if !split {
				return nil
			}
		}
	}
	for i := range s.Len() {
		if s.IsValid(i) && !utf8.Valid(s.Value(i)) {
			return fmt.Errorf("row %d: invalid UTF-8 %q: %w", i, s.Value(i), datatype.ErrInvalid)
		}
	}
	return nil
}

// intArg checks that a is an integer (or null) and casts it to int64.
func intArg(e *Expr, a *node) (*node, error) {
	if !isInt(a.typ) && !isNull(a.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "%s needs an integer, not %s (%s)", e.fn, a.typ, a.src)
	}
	return castNode(a, datatype.Int64)
}

// runeOffset is the byte offset of code point n of s (len(s) past its end).
func runeOffset(s []byte, n int64) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, w := utf8.DecodeRune(s[i:])
		i += w
	}
	return i
}

// appendPad pads s to n units (code points, or bytes) with the units of
// fill, repeated, on the left or the right; a longer s is cut to its
// first n units, as DuckDB's lpad and rpad do.
func appendPad(dst, s []byte, n int64, fill []byte, left bool, u units) ([]byte, error) {
	n = max(n, 0)
	size := u.count(s)
	if size >= n {
		return append(dst, s[:u.offset(s, n)]...), nil
	}
	need := n - size
	if len(fill) == 0 {
		return nil, fmt.Errorf("padding %q to %d %s with an empty string: %w", s, n, u, datatype.ErrInvalid)
	}
	if need > maxRepeat/int64(len(fill)) {
		return nil, fmt.Errorf("padding to %d %s passes %d bytes: %w", n, u, maxRepeat, datatype.ErrLimit)
	}
	if !left {
		dst = append(dst, s...)
	}
	for k := 0; need > 0; need-- {
		w := u.width(fill[k:])
		dst = append(dst, fill[k:k+w]...)
		if k += w; k == len(fill) {
			k = 0
		}
	}
	if left {
		dst = append(dst, s...)
	}
	return dst, nil
}

// appendReplaced is s with every from replaced by to; an empty from
// replaces nothing (as in DuckDB).
func appendReplaced(dst, s, from, to []byte) []byte {
	if len(from) == 0 {
		return append(dst, s...)
	}
	for {
		k := bytes.Index(s, from)
		if k < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:k]...)
		dst = append(dst, to...)
		s = s[k+len(from):]
	}
}

// splitLiteral appends to parts the pieces of s between the separators
// sep; an empty sep splits s into its code points, an empty s is one
// empty piece.
func splitLiteral(parts [][]byte, s, sep []byte) [][]byte {
	if len(sep) == 0 {
		if len(s) == 0 {
			return append(parts, s)
		}
		for i := 0; i < len(s); {
			_, w := utf8.DecodeRune(s[i:])
			parts = append(parts, s[i:i+w])
			i += w
		}
		return parts
	}
	for {
		k := bytes.Index(s, sep)
		if k < 0 {
			return append(parts, s)
		}
		parts = append(parts, s[:k])
		s = s[k+len(sep):]
	}
}

// mapStringLists is f of the arguments' values, row by row, as a
// list<utf8> array; a row with a null argument is null.
func mapStringLists(e *Expr, c *batch, args []*node, f func(parts [][]byte, v [][]byte) [][]byte) (array.Array, error) {
	return mapStringListsNulls(e, c, args, func(parts [][]byte, nulls []bool, v [][]byte) ([][]byte, []bool) {
		return f(parts, v), nulls
	})
}

// mapStringListsNulls is mapStringLists where f also says which parts
// are null (nulls, nil or as long as parts).
func mapStringListsNulls(e *Expr, c *batch, args []*node, f func(parts [][]byte, nulls []bool, v [][]byte) ([][]byte, []bool)) (array.Array, error) {
	ss, err := evalStrings(e, c, args)
	if err != nil {
		return nil, err
	}
	b := array.NewListBuilder[int32](datatype.ListOf(datatype.String))
	b.Reserve(c.n)
	vb := b.ValueBuilder().(*array.BinaryBuilder[int32])
	v := make([][]byte, len(ss))
	var parts [][]byte
	var nulls []bool
rows:
	for i := range c.n {
		for k, s := range ss {
			j := slot(s, i)
			if s.IsNull(j) {
				b.AppendNull()
				continue rows
			}
			v[k] = s.Value(j)
		}
		parts, nulls = f(parts[:0], nulls[:0], v)
		if vb.Len()+len(parts) > math.MaxInt32 {
			return nil, evalErr(e, fmt.Errorf("row %d: result passes 2^31 list elements: %w", i, datatype.ErrLimit))
		}
		b.Append(true)
		for k, p := range parts {
			if len(nulls) > 0 && nulls[k] {
				vb.AppendNull()
				continue
			}
			if vb.DataLen()+len(p) > math.MaxInt32 {
				return nil, evalErr(e, fmt.Errorf("row %d: result passes 2 GiB of string data: %w", i, datatype.ErrLimit))
			}
			vb.Append(p)
		}
	}
	return b.NewArray(), nil
}

// bindJoin binds array_to_string(list, sep): the list's strings joined
// with sep, null elements skipped (DuckDB's string_agg).
func bindJoin(e *Expr, args []*node) (*node, error) {
	l := args[0]
	lt, ok := l.typ.(*datatype.ListType)
	if !ok || (l.typ.Kind() != datatype.KindList && l.typ.Kind() != datatype.KindLargeList) {
		return nil, errAt(e, datatype.ErrInvalid, "%s needs a list, not %s (%s)", e.fn, l.typ, l.src)
	}
	if !isStringy(lt.Elem().Type) {
		return nil, errAt(e, datatype.ErrInvalid, "%s needs a list of strings, not %s (%s)", e.fn, l.typ, l.src)
	}
	sep, err := stringArg(e, args[1])
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
		la, err := l.array(c)
		if err != nil {
			return nil, err
		}
		type lister interface {
			array.Array
			ValueOffsets(i int) (int, int)
			ListValues() array.Array
		}
		list, ok := la.(lister)
		if !ok {
			return nil, evalErr(e, fmt.Errorf("%s is not a list array: %w", la.DataType(), datatype.ErrInvalid))
		}
		elems, ok := list.ListValues().(byteStrings)
		if !ok {
			return nil, evalErr(e, fmt.Errorf("%s is not a list of strings: %w", la.DataType(), datatype.ErrInvalid))
		}
		for i := range elems.Len() {
			if elems.IsValid(i) && !utf8.Valid(elems.Value(i)) {
				return nil, evalErr(e, fmt.Errorf("list element %d: invalid UTF-8 %q: %w", i, elems.Value(i), datatype.ErrInvalid))
			}
		}
		return mapStrings(e, c, []*node{sep}, func(dst []byte, i int, v [][]byte) ([]byte, error) {
			if list.IsNull(i) {
				return nil, errNullRow
			}
			start, end := list.ValueOffsets(i)
			first := true
			for k := start; k < end; k++ {
				if elems.IsNull(k) {
					continue
				}
				if !first {
					dst = append(dst, v[0]...)
				}
				first = false
				dst = append(dst, elems.Value(k)...)
			}
			return dst, nil
		})
	}}, nil
}
