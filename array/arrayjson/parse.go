package arrayjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Parse builds an array of type t from a JSON array literal, one
// element per slot, null for a null slot. It is meant for tests and
// examples. Each type reads:
//
//	bool                      true, false
//	integers, floats          numbers (or numbers in strings); floats also "NaN", "Inf", "-Inf"
//	decimals                  "123.45" or 123.45, exact at the type's scale
//	date32, date64            days / milliseconds since the epoch, or "2024-02-29"
//	time32, time64, duration  integers in the type's unit
//	timestamp                 integers in the type's unit, or RFC 3339 "2024-02-29T12:00:00Z"
//	month_interval            integer months
//	day_time_interval         [days, ms] or {"days": 1, "milliseconds": 2}
//	month_day_nano_interval   [months, days, ns] or {"months": …, "days": …, "nanoseconds": …}
//	binary, utf8 (all kinds)  strings (the string's bytes)
//	fixed_size_binary         strings of exactly the width
//	lists (all kinds)         arrays: [[1, 2], null, []]
//	struct                    objects by field name (missing fields are null) or arrays by position
//	map                       arrays of [key, value] pairs, or objects: [[["k", 1]], {"k2": 2}]
//	unions                    [type code, value]
//	dictionary                plain values, dictionary-encoded as they come
//	run-end encoded           plain values, equal neighbours merged into runs
//	extension                 as the storage type
//
// Errors wrap [array.ErrInvalid] and name the position: the path into the value
// ("[2].b[0]") and the byte offset in the literal. The array returned
// passes [array.ValidateFull] (a date64 must be whole days, a time within a
// day, a decimal within its precision).
func Parse(t datatype.DataType, literal string) (array.Array, error) {
	b, err := array.TryNewBuilder(t)
	if err != nil {
		return nil, err
	}
	if err := appendLiteral(b, literal); err != nil {
		return nil, fmt.Errorf("arrayjson: Parse %s: %w", t, err)
	}
	a := b.NewArray()
	// Values the builders take but the spec's rules refuse (a date64
	// that is not a whole day, a time beyond a day) are errors here.
	if err := array.Validate(a.Data(), array.ValidateFull); err != nil {
		return nil, fmt.Errorf("arrayjson: Parse %s: %w", t, err)
	}
	return a, nil
}

// Append appends the elements of a JSON array literal to b, each read as
// [Parse] reads it. On error, b holds the elements before the bad one
// (and possibly part of it); errors wrap [array.ErrInvalid] and name the
// position.
func Append(b array.Builder, literal string) error {
	if err := appendLiteral(b, literal); err != nil {
		return fmt.Errorf("arrayjson: Append %s: %w", b.Type(), err)
	}
	return nil
}

// appendLiteral is Append without the package's prefix on its errors.
func appendLiteral(b array.Builder, literal string) error {
	root, err := parseJSON(literal)
	if err != nil {
		return fmt.Errorf("%w: %w", array.ErrInvalid, err)
	}
	if root.kind != jsonArray {
		return fmt.Errorf("%w: at offset %d: want a JSON array, got %s", array.ErrInvalid, root.pos, root.kind)
	}
	b.Reserve(len(root.arr))
	for i, e := range root.arr {
		if err := appendJSON(b, e, "["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	return nil
}

// MustParse is [Parse] for tests and examples: it panics on error.
func MustParse(t datatype.DataType, literal string) array.Array {
	a, err := Parse(t, literal)
	if err != nil {
		panic(err)
	}
	return a
}

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// jsonNode is a parsed JSON value that keeps object keys in order and its
// byte offset in the literal.
type jsonNode struct {
	kind jsonKind
	pos  int64
	b    bool
	s    string // number text or string value
	arr  []*jsonNode
	keys []string // object keys, in order, with their values in arr
}

func (n *jsonNode) describe() string {
	switch n.kind {
	case jsonNumber:
		return "number " + n.s
	case jsonString:
		return "string " + strconv.Quote(n.s)
	case jsonBool:
		return "boolean " + strconv.FormatBool(n.b)
	}
	return n.kind.String()
}

const maxJSONDepth = 200

func parseJSON(s string) (*jsonNode, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	p := &jsonParser{dec: dec, src: s}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("at offset %d: data after the top-level value", dec.InputOffset())
	}
	return n, nil
}

type jsonParser struct {
	dec *json.Decoder
	src string
}

// start returns the offset of the next value: the decoder's offset is the
// end of the previous token, before separators and white space.
func (p *jsonParser) start() int64 {
	i := p.dec.InputOffset()
	for i < int64(len(p.src)) && strings.IndexByte(" \t\r\n,:", p.src[i]) >= 0 {
		i++
	}
	return i
}

func (p *jsonParser) token() (json.Token, error) {
	pos := p.start()
	tok, err := p.dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, fmt.Errorf("at offset %d: %w", pos, err)
	}
	return tok, nil
}

func (p *jsonParser) value(depth int) (*jsonNode, error) {
	dec := p.dec
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("at offset %d: nested deeper than %d", p.start(), maxJSONDepth)
	}
	pos := p.start()
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	n := &jsonNode{pos: pos}
	switch tok := tok.(type) {
	case nil:
	case bool:
		n.kind, n.b = jsonBool, tok
	case json.Number:
		n.kind, n.s = jsonNumber, string(tok)
	case string:
		n.kind, n.s = jsonString, tok
	case json.Delim:
		if tok == '[' {
			n.kind = jsonArray
		} else {
			n.kind = jsonObject
		}
		for dec.More() {
			if n.kind == jsonObject {
				kt, err := p.token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, kt.(string))
			}
			c, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.arr = append(n.arr, c)
		}
		if _, err := p.token(); err != nil { // the closing delimiter
			return nil, err
		}
	}
	return n, nil
}

// jsonError is an error about the value at path.
func jsonError(n *jsonNode, path string, format string, args ...any) error {
	return fmt.Errorf("%w: at %s (offset %d): %s", array.ErrInvalid, path, n.pos, fmt.Sprintf(format, args...))
}

// dictionaryAppender is implemented by every array.DictionaryBuilder.
// fixedWidth is the width of a fixed-size binary builder's values.
func fixedWidth(b *array.FixedSizeBinaryBuilder) int {
	return datatype.StorageOf(b.Type()).(*datatype.FixedSizeBinaryType).ByteWidth
}

type dictionaryAppender interface {
	array.Builder
	AppendArray(a array.Array) error
}

func appendJSON(b array.Builder, n *jsonNode, path string) error {
	if n.kind == jsonNull {
		b.AppendNull()
		return nil
	}
	switch b := b.(type) {
	case *array.NullBuilder:
		return jsonError(n, path, "want null, got %s", n.describe())
	case *array.BooleanBuilder:
		if n.kind != jsonBool {
			return jsonError(n, path, "want a boolean, got %s", n.describe())
		}
		b.Append(n.b)
	case *array.BinaryBuilder[int32]:
		return appendJSONChecked(n, path, b.CheckRoom, b.AppendString)
	case *array.BinaryBuilder[int64]:
		return appendJSONString(n, path, b.AppendString)
	case *array.BinaryViewBuilder:
		return appendJSONChecked(n, path, b.CheckRoom, b.AppendString)
	case *array.FixedSizeBinaryBuilder:
		if n.kind == jsonString && len(n.s) != fixedWidth(b) {
			return jsonError(n, path, "want %d bytes, got %d", fixedWidth(b), len(n.s))
		}
		return appendJSONString(n, path, b.AppendString)
	case *array.ListBuilder[int32]:
		return appendJSONList(b, n, path, func() { b.Append(true) })
	case *array.ListBuilder[int64]:
		return appendJSONList(b, n, path, func() { b.Append(true) })
	case *array.ListViewBuilder[int32]:
		return appendJSONList(b, n, path, func() { b.Append(true) })
	case *array.ListViewBuilder[int64]:
		return appendJSONList(b, n, path, func() { b.Append(true) })
	case *array.FixedSizeListBuilder:
		if n.kind == jsonArray && len(n.arr) != b.Size() {
			return jsonError(n, path, "want a list of %d values, got %d", b.Size(), len(n.arr))
		}
		return appendJSONList(b, n, path, func() { b.Append(true) })
	case *array.StructBuilder:
		return appendJSONStruct(b, n, path)
	case *array.MapBuilder:
		return appendJSONMap(b, n, path)
	case *array.UnionBuilder:
		return appendJSONUnion(b, n, path)
	case *array.RunEndEncodedBuilder:
		if err := appendJSON(b.ValueBuilder(), n, path); err != nil {
			return err
		}
		b.Append()
	case *array.ExtensionBuilder:
		return appendJSON(b.StorageBuilder(), n, path)
	case dictionaryAppender:
		vt := b.Type().(*datatype.DictionaryType).Value
		vb, err := array.TryNewBuilder(vt)
		if err != nil {
			return err
		}
		if err := appendJSON(vb, n, path); err != nil {
			return err
		}
		if err := b.AppendArray(vb.NewArray()); err != nil {
			return jsonError(n, path, "%v", err)
		}
	default:
		return appendJSONPrimitive(b, n, path)
	}
	return nil
}

func appendJSONString(n *jsonNode, path string, add func(string)) error {
	if n.kind != jsonString {
		return jsonError(n, path, "want a string, got %s", n.describe())
	}
	add(n.s)
	return nil
}

// appendJSONChecked is appendJSONString for a builder whose room is
// limited: a string it cannot hold is an error, not a panic.
func appendJSONChecked(n *jsonNode, path string, room func(int) error, add func(string)) error {
	if n.kind == jsonString {
		if err := room(len(n.s)); err != nil {
			return jsonError(n, path, "%v", err)
		}
	}
	return appendJSONString(n, path, add)
}

// listStarter is the part of the list builders appendJSONList uses.
type listStarter interface{ ValueBuilder() array.Builder }

func appendJSONList(b listStarter, n *jsonNode, path string, start func()) error {
	if n.kind != jsonArray {
		return jsonError(n, path, "want a list, got %s", n.describe())
	}
	start()
	vb := b.ValueBuilder()
	for i, e := range n.arr {
		if err := appendJSON(vb, e, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	return nil
}

func appendJSONStruct(b *array.StructBuilder, n *jsonNode, path string) error {
	st := datatype.StorageOf(b.Type()).(*datatype.StructType)
	switch n.kind {
	case jsonArray:
		if len(n.arr) != st.NumFields() {
			return jsonError(n, path, "want %d field values, got %d", st.NumFields(), len(n.arr))
		}
		b.Append(true)
		for i, e := range n.arr {
			if err := appendJSON(b.FieldBuilder(i), e, path+"."+st.Field(i).Name); err != nil {
				return err
			}
		}
	case jsonObject:
		vals := make([]*jsonNode, st.NumFields())
		for k, key := range n.keys {
			i := st.FieldIndex(key)
			if i < 0 {
				return jsonError(n.arr[k], path, "struct has no field %q", key)
			}
			vals[i] = n.arr[k]
		}
		b.Append(true)
		for i, e := range vals {
			if e == nil {
				b.FieldBuilder(i).AppendNull()
				continue
			}
			if err := appendJSON(b.FieldBuilder(i), e, path+"."+st.Field(i).Name); err != nil {
				return err
			}
		}
	default:
		return jsonError(n, path, "want an object or array for a struct, got %s", n.describe())
	}
	return nil
}

func appendJSONMap(b *array.MapBuilder, n *jsonNode, path string) error {
	kb, ib := b.KeyBuilder(), b.ItemBuilder()
	add := func(k, v *jsonNode, p string) error {
		if k.kind == jsonNull {
			return jsonError(k, p, "map key is null")
		}
		if err := appendJSON(kb, k, p+".key"); err != nil {
			return err
		}
		return appendJSON(ib, v, p+".value")
	}
	switch n.kind {
	case jsonArray:
		b.Append(true)
		for i, e := range n.arr {
			p := path + "[" + strconv.Itoa(i) + "]"
			if e.kind != jsonArray || len(e.arr) != 2 {
				return jsonError(e, p, "want a [key, value] pair, got %s", e.describe())
			}
			if err := add(e.arr[0], e.arr[1], p); err != nil {
				return err
			}
		}
	case jsonObject:
		b.Append(true)
		for i, key := range n.keys {
			k := &jsonNode{kind: jsonString, s: key, pos: n.arr[i].pos}
			if err := add(k, n.arr[i], path+"["+strconv.Quote(key)+"]"); err != nil {
				return err
			}
		}
	default:
		return jsonError(n, path, "want an array of pairs or an object for a map, got %s", n.describe())
	}
	return nil
}

func appendJSONUnion(b *array.UnionBuilder, n *jsonNode, path string) error {
	if n.kind != jsonArray || len(n.arr) != 2 || n.arr[0].kind != jsonNumber {
		return jsonError(n, path, "want [type code, value] for a union, got %s", n.describe())
	}
	code, err := strconv.ParseInt(n.arr[0].s, 10, 8)
	if err != nil || code < 0 || datatype.StorageOf(b.Type()).(*datatype.UnionType).ChildIndex()[code] < 0 {
		return jsonError(n.arr[0], path, "union %s has no type code %s", b.Type(), n.arr[0].s)
	}
	return appendJSON(b.Append(int8(code)), n.arr[1], path+"<"+strconv.Itoa(int(code))+">")
}

// appendJSONPrimitive appends to a fixed-width builder.
func appendJSONPrimitive(b array.Builder, n *jsonNode, path string) error {
	t := datatype.StorageOf(b.Type())
	var err error
	switch b := b.(type) {
	case *array.PrimitiveBuilder[int8]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[int16]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[int32]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[int64]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[uint8]:
		err = appendUint(b, n)
	case *array.PrimitiveBuilder[uint16]:
		err = appendUint(b, n)
	case *array.PrimitiveBuilder[uint32]:
		err = appendUint(b, n)
	case *array.PrimitiveBuilder[uint64]:
		err = appendUint(b, n)
	case *array.PrimitiveBuilder[datatype.Time32]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[datatype.Time64]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[datatype.Duration]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[datatype.MonthInterval]:
		err = appendInt(b, n)
	case *array.PrimitiveBuilder[datatype.Float16]:
		var f float64
		if f, err = jsonFloat(n, 32); err == nil {
			b.Append(datatype.Float16From(float32(f)))
		}
	case *array.PrimitiveBuilder[float32]:
		var f float64
		if f, err = jsonFloat(n, 32); err == nil {
			b.Append(float32(f))
		}
	case *array.PrimitiveBuilder[float64]:
		var f float64
		if f, err = jsonFloat(n, 64); err == nil {
			b.Append(f)
		}
	case *array.PrimitiveBuilder[datatype.Decimal32]:
		var v *big.Int
		if v, err = jsonDecimal(n, t.(*datatype.DecimalType)); err == nil {
			b.Append(datatype.Decimal32(v.Int64()))
		}
	case *array.PrimitiveBuilder[datatype.Decimal64]:
		var v *big.Int
		if v, err = jsonDecimal(n, t.(*datatype.DecimalType)); err == nil {
			b.Append(datatype.Decimal64(v.Int64()))
		}
	case *array.PrimitiveBuilder[datatype.Decimal128]:
		var v *big.Int
		if v, err = jsonDecimal(n, t.(*datatype.DecimalType)); err == nil {
			b.Append(datatype.Decimal128FromBig(v))
		}
	case *array.PrimitiveBuilder[datatype.Decimal256]:
		var v *big.Int
		if v, err = jsonDecimal(n, t.(*datatype.DecimalType)); err == nil {
			b.Append(datatype.Decimal256FromBig(v))
		}
	case *array.PrimitiveBuilder[datatype.Date32]:
		if n.kind == jsonString {
			var d time.Time
			if d, err = time.Parse(time.DateOnly, n.s); err == nil {
				b.Append(datatype.Date32(d.Unix() / 86400))
			}
		} else {
			err = appendInt(b, n)
		}
	case *array.PrimitiveBuilder[datatype.Date64]:
		if n.kind == jsonString {
			var d time.Time
			if d, err = time.Parse(time.DateOnly, n.s); err == nil {
				b.Append(datatype.Date64(d.UnixMilli()))
			}
		} else {
			err = appendInt(b, n)
		}
	case *array.PrimitiveBuilder[datatype.Timestamp]:
		if _, perr := strconv.ParseInt(n.s, 10, 64); n.kind == jsonString && perr != nil {
			var ts time.Time
			if ts, err = time.Parse(time.RFC3339Nano, n.s); err == nil {
				b.Append(datatype.TimestampOf(ts, t.(*datatype.TimestampType).Unit))
			}
		} else {
			err = appendInt(b, n)
		}
	case *array.PrimitiveBuilder[datatype.DayTimeInterval]:
		var v []int64
		if v, err = jsonInts(n, []string{"days", "milliseconds"}, []int{32, 32}); err == nil {
			b.Append(datatype.DayTimeInterval{Days: int32(v[0]), Milliseconds: int32(v[1])})
		}
	case *array.PrimitiveBuilder[datatype.MonthDayNanoInterval]:
		var v []int64
		if v, err = jsonInts(n, []string{"months", "days", "nanoseconds"}, []int{32, 32, 64}); err == nil {
			b.Append(datatype.MonthDayNanoInterval{Months: int32(v[0]), Days: int32(v[1]), Nanoseconds: v[2]})
		}
	default:
		return jsonError(n, path, "no JSON reading for %s", b.Type())
	}
	if err != nil {
		return jsonError(n, path, "%s: %v", t, err)
	}
	return nil
}

// numberText returns the text of a number, given as a number or a string.
func numberText(n *jsonNode) (string, error) {
	if n.kind != jsonNumber && n.kind != jsonString {
		return "", fmt.Errorf("want a number, got %s", n.describe())
	}
	return n.s, nil
}

func appendInt[T ~int8 | ~int16 | ~int32 | ~int64](b *array.PrimitiveBuilder[T], n *jsonNode) error {
	s, err := numberText(n)
	if err != nil {
		return err
	}
	var zero T
	v, err := strconv.ParseInt(s, 10, bitsOf(zero))
	if err != nil {
		return errors.Unwrap(err)
	}
	b.Append(T(v))
	return nil
}

func appendUint[T ~uint8 | ~uint16 | ~uint32 | ~uint64](b *array.PrimitiveBuilder[T], n *jsonNode) error {
	s, err := numberText(n)
	if err != nil {
		return err
	}
	var zero T
	v, err := strconv.ParseUint(s, 10, bitsOf(zero))
	if err != nil {
		return errors.Unwrap(err)
	}
	b.Append(T(v))
	return nil
}

func bitsOf[T array.FixedWidth](v T) int { return 8 * int(unsafe.Sizeof(v)) }

func jsonFloat(n *jsonNode, bits int) (float64, error) {
	s, err := numberText(n)
	if err != nil {
		return 0, err
	}
	switch s {
	case "NaN":
		return math.NaN(), nil
	case "Inf", "+Inf", "Infinity":
		return math.Inf(1), nil
	case "-Inf", "-Infinity":
		return math.Inf(-1), nil
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		return 0, errors.Unwrap(err)
	}
	return f, nil
}

// jsonDecimal reads a decimal number exactly and returns its unscaled
// value at the type's scale, checking the precision.
func jsonDecimal(n *jsonNode, t *datatype.DecimalType) (*big.Int, error) {
	s, err := numberText(n)
	if err != nil {
		return nil, err
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || strings.ContainsAny(s, "/") {
		return nil, fmt.Errorf("%q is not a decimal number", s)
	}
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(t.Scale))), nil))
	if t.Scale >= 0 {
		r.Mul(r, scale)
	} else {
		r.Quo(r, scale)
	}
	if !r.IsInt() {
		return nil, fmt.Errorf("%s has more digits after the point than scale %d", s, t.Scale)
	}
	v := r.Num()
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision)), nil)
	if new(big.Int).Abs(v).Cmp(limit) >= 0 {
		return nil, fmt.Errorf("%s does not fit precision %d", s, t.Precision)
	}
	return v, nil
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// jsonInts reads an array of len(names) integers or an object with those
// keys (missing ones zero).
func jsonInts(n *jsonNode, names []string, bits []int) ([]int64, error) {
	parts := make([]*jsonNode, len(names))
	switch n.kind {
	case jsonArray:
		if len(n.arr) != len(names) {
			return nil, fmt.Errorf("want [%s], got %d values", strings.Join(names, ", "), len(n.arr))
		}
		copy(parts, n.arr)
	case jsonObject:
		for k, key := range n.keys {
			i := indexOf(names, key)
			if i < 0 {
				return nil, fmt.Errorf("unknown key %q (want %s)", key, strings.Join(names, ", "))
			}
			parts[i] = n.arr[k]
		}
	default:
		return nil, fmt.Errorf("want [%s] or an object, got %s", strings.Join(names, ", "), n.describe())
	}
	out := make([]int64, len(names))
	for i, p := range parts {
		if p == nil {
			continue
		}
		s, err := numberText(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		if out[i], err = strconv.ParseInt(s, 10, bits[i]); err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], errors.Unwrap(err))
		}
	}
	return out, nil
}

func indexOf(names []string, s string) int {
	for i, n := range names {
		if n == s {
			return i
		}
	}
	return -1
}
