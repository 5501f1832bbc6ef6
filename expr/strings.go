package expr

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// byteStrings is what every string layout offers: slot i's bytes.
type byteStrings interface {
	array.Array
	Value(i int) []byte
}

func init() {
	// strToStr registers name(s), f of each value; bf, when not nil, is
	// its binary form; whole, when not nil, maps a whole utf8 array in
	// place of mapValues.
	strToStr := func(name string, f, bf func(dst, s []byte) []byte, whole func(*array.Binary[int32]) (array.Array, error)) {
		if whole == nil {
			whole = func(s *array.Binary[int32]) (array.Array, error) { return mapValues(s, f) }
		}
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			ns, bin, err := textArgs(e, args)
			if err != nil {
				return nil, err
			}
			a := ns[0]
			if bin {
				if bf == nil {
					return nil, errAt(e, datatype.ErrInvalid, "%s needs a string, not %s (%s)", name, a.typ, a.src)
				}
				return &node{typ: datatype.Binary, src: e, eval: func(c *batch) (array.Array, error) {
					return mapStrings(e, c, ns, func(dst []byte, _ int, v [][]byte) ([]byte, error) { return bf(dst, v[0]), nil })
				}}, nil
			}
			return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
				if a.lit == nil {
					x, err := a.array(c)
					if err != nil {
						return nil, err
					}
					if bin, ok := x.(*array.Binary[int32]); ok {
						if err := checkUTF8Once(c, bin); err != nil {
							return nil, evalErr(e, err)
						}
						out, err := whole(bin)
						if err != nil {
							return nil, evalErr(e, err)
						}
						return out, nil
					}
				}
				return mapStrings(e, c, ns, func(dst []byte, _ int, v [][]byte) ([]byte, error) { return f(dst, v[0]), nil })
			}}, nil
		})
	}
	strToStr("lower", toLower.appendTo, nil, toLower.array)
	strToStr("upper", toUpper.appendTo, nil, toUpper.array)
	strToStr("reverse", units{}.appendReverse, units{bytes: true}.appendReverse, nil)
	trim := func(name string, left, right bool) {
		register(name, 1, 2, func(e *Expr, args []*node) (*node, error) {
			ns, bin, err := textArgs(e, args)
			if err != nil {
				return nil, err
			}
			return &node{typ: textType(bin), src: e, eval: func(c *batch) (array.Array, error) {
				return mapStrings(e, c, ns, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
					cut := []byte(" ")
					if len(v) > 1 {
						cut = v[1]
					}
					s := v[0]
					if bin {
						return append(dst, trimBytes(s, cut, left, right)...), nil
					}
					if left {
						s = bytes.TrimLeft(s, string(cut))
					}
					if right {
						s = bytes.TrimRight(s, string(cut))
					}
					return append(dst, s...), nil
				})
			}}, nil
		})
	}
	trim("trim", true, true)
	trim("ltrim", true, false)
	trim("rtrim", false, true)
	// length counts code points of a string, bytes of a binary; strlen
	// counts bytes.
	length := func(name string, u units) {
		register(name, 1, 1, func(e *Expr, args []*node) (*node, error) {
			ns, bin, err := textArgs(e, args)
			if err != nil {
				return nil, err
			}
			u := units{bytes: u.bytes || bin}
			return &node{typ: datatype.Int64, src: e, eval: func(c *batch) (array.Array, error) {
				return mapStringsTo(e, c, ns, func(v [][]byte) (int64, error) { return u.count(v[0]), nil })
			}}, nil
		})
	}
	length("length", units{})
	length("strlen", units{bytes: true})
	strPred := func(name string, kind literalKind, f func(s, t []byte) bool) {
		register(name, 2, 2, func(e *Expr, args []*node) (*node, error) {
			ns, _, err := textArgs(e, args)
			if err != nil {
				return nil, err
			}
			return &node{typ: datatype.Bool, src: e, eval: func(c *batch) (array.Array, error) {
				if out, err := literalPredicateNode(e, c, ns, kind); out != nil || err != nil {
					return out, err
				}
				return mapStringsTo(e, c, ns, func(v [][]byte) (bool, error) { return f(v[0], v[1]), nil })
			}}, nil
		})
	}
	strPred("starts_with", litPrefix, bytes.HasPrefix)
	strPred("ends_with", litSuffix, bytes.HasSuffix)
	strPred("contains", litContains, bytes.Contains)
	register("substr", 2, 3, bindSubstr)
	// concat and || join strings, or binaries when one of the arguments
	// is a binary (the others then binary too, string literals read as
	// their bytes); concat_ws puts its first argument between the others.
	concat := func(name string, min, skipFrom int, sep bool) {
		register(name, min, -1, func(e *Expr, args []*node) (*node, error) {
			ns, bin, err := concatArgs(e, args)
			if err != nil {
				return nil, err
			}
			return &node{typ: textType(bin), src: e, eval: func(c *batch) (array.Array, error) {
				return mapStringsSkip(e, c, ns, skipFrom, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
					if !sep {
						for _, s := range v {
							dst = append(dst, s...)
						}
						return dst, nil
					}
					for k, s := range v[1:] {
						if k > 0 {
							dst = append(dst, v[0]...)
						}
						dst = append(dst, s...)
					}
					return dst, nil
				})
			}}, nil
		})
	}
	concat("concat", 1, 0, false)
	concat("string_concat", 1, noSkip, false)
	concat("concat_ws", 2, 1, true)
}

// concatArgs are the arguments of concat, || and concat_ws: strings
// (other types cast to text), or binaries when one is a binary.
func concatArgs(e *Expr, args []*node) ([]*node, bool, error) {
	for _, a := range args {
		if isBytes(a.typ) {
			return textArgs(e, args)
		}
	}
	ns := make([]*node, len(args))
	for i, a := range args {
		var err error
		if ns[i], err = castNode(a, datatype.String); err != nil {
			return nil, false, errAt(e, datatype.ErrInvalid, "%s of %s", e.fn, a.typ)
		}
	}
	return ns, false, nil
}

// stringArg checks that a is a string (or the null literal, taken as one).
func stringArg(e *Expr, a *node) (*node, error) {
	if isNull(a.typ) {
		return castNode(a, datatype.String)
	}
	if !isStringy(a.typ) {
		return nil, errAt(e, datatype.ErrInvalid, "%s needs a string, not %s (%s)", e.fn, a.typ, a.src)
	}
	return a, nil
}

func stringArgs(e *Expr, args []*node) ([]*node, error) {
	out := make([]*node, len(args))
	for i, a := range args {
		var err error
		if out[i], err = stringArg(e, a); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func appendMapped(dst, s []byte, f func(rune) rune) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, byte(f(rune(c))))
			i++
			continue
		}
		r, w := utf8.DecodeRune(s[i:])
		dst = utf8.AppendRune(dst, f(r))
		i += w
	}
	return dst
}

// evalStrings evaluates the arguments as string arrays (checking the
// UTF-8 of strings, not of binaries); a constant is an array of one
// slot, read through [slot].
func evalStrings(e *Expr, c *batch, args []*node) ([]byteStrings, error) {
	out := make([]byteStrings, len(args))
	for k, a := range args {
		var x array.Array
		var err error
		if a.lit != nil {
			x, err = scalarArray(*a.lit, 1)
		} else {
			x, err = a.array(c)
		}
		if err != nil {
			return nil, err
		}
		s, ok := x.(byteStrings)
		if !ok {
			return nil, evalErr(e, fmt.Errorf("%s is not a string array: %w", x.DataType(), datatype.ErrInvalid))
		}
		if isBytes(a.typ) {
			out[k] = s // binary: bytes, never read as UTF-8
			continue
		}
		if err := checkUTF8Once(c, s); err != nil {
			return nil, evalErr(e, err)
		}
		out[k] = s
	}
	return out, nil
}

// mapStrings is f of the arguments' values, row by row, as a string
// array (a binary one when the first argument is a binary); a row with a
// null argument is null.
func mapStrings(e *Expr, c *batch, args []*node, f func(dst []byte, i int, v [][]byte) ([]byte, error)) (array.Array, error) {
	return mapStringsAs(e, c, args, textType(isBytes(args[0].typ)), noSkip, f)
}

// mapStringsSkip is mapStrings passing only the valid arguments from
// skipFrom on (a null one before it makes the row null).
func mapStringsSkip(e *Expr, c *batch, args []*node, skipFrom int, f func(dst []byte, i int, v [][]byte) ([]byte, error)) (array.Array, error) {
	return mapStringsAs(e, c, args, textType(isBytes(args[0].typ)), skipFrom, f)
}

// noSkip is the skipFrom of mapStringsAs that skips no argument.
const noSkip = math.MaxInt

// textType is the type of a string function's result: utf8, or binary
// for the binary form (bin).
func textType(bin bool) datatype.DataType {
	if bin {
		return datatype.Binary
	}
	return datatype.String
}

// mapStringsAs is mapStringsSkip with a result of type t (utf8 or
// binary).
func mapStringsAs(e *Expr, c *batch, args []*node, t datatype.DataType, skipFrom int, f func(dst []byte, i int, v [][]byte) ([]byte, error)) (array.Array, error) {
	ss, err := evalStrings(e, c, args)
	if err != nil {
		return nil, err
	}
	b := array.NewBinaryBuilder[int32](t)
	b.Reserve(c.n)
	v := make([][]byte, 0, len(ss))
	var buf []byte
rows:
	for i := range c.n {
		v = v[:0]
		for k, s := range ss {
			j := slot(s, i)
			if s.IsNull(j) {
				if k >= skipFrom {
					continue
				}
				b.AppendNull()
				continue rows
			}
			v = append(v, s.Value(j))
		}
		if buf, err = f(buf[:0], i, v); errors.Is(err, errNullRow) {
			b.AppendNull()
			continue
		} else if err != nil {
			return nil, evalErr(e, fmt.Errorf("row %d: %w", i, err))
		}
		if b.DataLen()+len(buf) > math.MaxInt32 {
			return nil, evalErr(e, fmt.Errorf("result passes 2 GiB of string data: %w", datatype.ErrLimit))
		}
		b.Append(buf)
	}
	return b.NewArray(), nil
}

// mapStringsTo is f of the arguments' values, row by row, as an int64 or
// bool array; a row with a null argument is null.
func mapStringsTo[T int64 | bool](e *Expr, c *batch, args []*node, f func(v [][]byte) (T, error)) (array.Array, error) {
	ss, err := evalStrings(e, c, args)
	if err != nil {
		return nil, err
	}
	vals := make([]T, c.n)
	valid := make([]bool, c.n)
	v := make([][]byte, len(ss))
	nulls := 0
rows:
	for i := range c.n {
		for k, s := range ss {
			j := slot(s, i)
			if s.IsNull(j) {
				nulls++
				continue rows
			}
			v[k] = s.Value(j)
		}
		valid[i] = true
		if vals[i], err = f(v); err != nil {
			return nil, evalErr(e, fmt.Errorf("row %d: %w", i, err))
		}
	}
	if nulls == 0 {
		valid = nil
	}
	switch vs := any(vals).(type) {
	case []bool:
		b := array.NewBooleanBuilder(datatype.Bool)
		b.AppendValues(vs, valid)
		return b.NewArray(), nil
	case []int64:
		b := array.NewPrimitiveBuilder[int64](datatype.Int64)
		b.AppendValues(vs, valid)
		return b.NewArray(), nil
	}
	return nil, nil
}

// errNullRow makes a row of mapStrings null.
var errNullRow = errors.New("null row")

// bindSubstr binds substr(s, start [, length]): length code points from
// the 1-based start, as DuckDB's substring counts them: a negative start
// counts from the end, start 0 begins before the first character, a
// negative length goes backwards from start.
func bindSubstr(e *Expr, args []*node) (*node, error) {
	ns, bin, err := textArgs(e, args[:1])
	if err != nil {
		return nil, err
	}
	s, u := ns[0], units{bytes: bin}
	ints := make([]*node, 0, 2)
	for _, a := range args[1:] {
		if !isInt(a.typ) && !isNull(a.typ) {
			return nil, errAt(e, datatype.ErrInvalid, "substr needs integer positions, not %s (%s)", a.typ, a.src)
		}
		n, err := castNode(a, datatype.Int64)
		if err != nil {
			return nil, err
		}
		ints = append(ints, n)
	}
	return &node{typ: textType(bin), src: e, eval: func(c *batch) (array.Array, error) {
		ia := make([]*array.Int64, len(ints))
		for k, n := range ints {
			x, err := n.array(c)
			if err != nil {
				return nil, err
			}
			ia[k] = x.(*array.Int64)
		}
		return mapStrings(e, c, []*node{s}, func(dst []byte, i int, v [][]byte) ([]byte, error) {
			if ia[0].IsNull(i) || len(ia) > 1 && ia[1].IsNull(i) {
				return nil, errNullRow
			}
			length := int64(math.MaxUint32)
			if len(ia) > 1 {
				length = ia[1].Value(i)
			}
			return appendSubstr(dst, v[0], ia[0].Value(i), length, u), nil
		})
	}}, nil
}

// appendSubstr appends the units (code points, or bytes) of s that
// substr(s, offset, length) selects, as DuckDB's substring: the units
// from offset-1 (0-based; a negative offset counts from the end) to
// length further on, or, for a negative length, the -length units before
// it; the part outside s is dropped.
func appendSubstr(dst, s []byte, offset, length int64, u units) []byte {
	const far = 1 << 40 // beyond any value: clamping keeps the arithmetic in range
	size := u.count(s)
	offset, length = min(max(offset, -far), far), min(max(length, -2*far), 2*far)
	start := offset - 1
	if offset < 0 {
		start = size + offset
	}
	end := start + length
	if length < 0 {
		start, end = end, start
	}
	start, end = min(max(start, 0), size), min(max(end, 0), size)
	if start >= end {
		return dst
	}
	from := u.offset(s, start)
	return append(dst, s[from:from+u.offset(s[from:], end-start)]...)
}

// upperRune is unicode.ToUpper, but for ß, which becomes ẞ as in
// DuckDB (Go's simple case mapping keeps it).
func upperRune(r rune) rune {
	if r == 'ß' {
		return 'ẞ'
	}
	return unicode.ToUpper(r)
}
