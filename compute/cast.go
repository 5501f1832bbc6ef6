package compute

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/memory"
)

// ErrTruncation: a checked cast would lose part of a value (a fraction,
// digits of a decimal's scale, a finer time unit). It is also a
// [datatype.ErrInvalid].
var ErrTruncation = datatype.Refine(datatype.ErrInvalid, "truncation")

// Cast converts a to type to, slot by slot; nulls stay null. The pairs:
//
//   - every integer and float width to every other, and booleans to and
//     from numbers (nonzero is true);
//   - decimals of every width and scale to each other, to and from
//     integers and floats;
//   - strings (utf8, large utf8, utf8 view) to and from numbers,
//     booleans, decimals, dates, times, timestamps and durations, in the
//     one text grammar the csv and ndjson readers and writers use too:
//     numbers as [sign] digits [. digits] [e [sign] digits] (no radix
//     prefixes, separators or fractions like 1/4; NaN and Inf for
//     floats), booleans as true/True/TRUE and false/False/FALSE, dates,
//     times and timestamps as ISO 8601 (timestamps with a time zone print
//     in it, with its offset), durations as counts; spaces around a value
//     are refused unless [TrimSpace];
//     binary and string layouts to each other (binary to string checks
//     UTF-8), fixed-size binaries to them (their bytes), and binaries,
//     strings and fixed-size binaries to a fixed-size binary (every value
//     must have its width, else ErrInvalid);
//   - dates, times, timestamps and durations to other units, dates to
//     and from timestamps, and to and from integers of their width;
//   - dictionaries to their value type (or anything it casts to), any
//     type to a dictionary of it;
//   - lists, large lists, list views and fixed-size lists of T to the same
//     kind (or between list and large list) of U, element-wise; structs
//     field by field (by position; names come from to);
//   - extension types through their storage.
//
// By default a value that does not fit fails with ErrOverflow and one
// that would lose a fraction with ErrTruncation, naming the row and the
// value; [AllowOverflow] and [AllowTruncation] turn the checks off. Other
// pairs fail with ErrNotSupported.
func Cast(a array.Array, to datatype.DataType, opts ...Option) (array.Array, error) {
	c, err := configure("Cast", opts)
	if err != nil {
		return nil, err
	}
	out, err := c.cast(a, to)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (c *config) cast(a array.Array, to datatype.DataType) (array.Array, error) {
	from := a.DataType()
	if datatype.Equal(from, to) {
		return a, nil
	}
	if x, ok := a.(*array.Extension); ok {
		return c.cast(x.Storage(), to)
	}
	if et, ok := to.(datatype.ExtensionType); ok {
		st, err := c.cast(a, et.StorageType())
		if err != nil {
			return nil, err
		}
		out, err := array.NewExtension(et, st)
		if err != nil {
			return nil, errf(ErrInvalid, "cast to %s: %v", to, err)
		}
		return out, nil
	}
	if d, ok := a.(*array.Dictionary); ok {
		dense, err := Take(d.Dictionary(), d.Indices())
		if err != nil {
			return nil, err
		}
		return c.cast(dense, to)
	}
	if dt, ok := to.(*datatype.DictionaryType); ok {
		return c.toDictionary(a, dt)
	}
	fk, tk := from.Kind(), to.Kind()
	switch {
	case isNumeric(fk) && isNumeric(tk):
		return castNumbers(a, to, c)
	case fk == datatype.KindNull:
		return nullsOf(to, a.Len())
	case tk == datatype.KindFixedSizeBinary && (isText(fk) || fk == datatype.KindFixedSizeBinary):
		return toFixedSizeBinary(a, to)
	case isText(tk):
		return c.toText(a, to)
	case isText(fk):
		return c.fromText(a, to)
	case isDecimal(fk) || isDecimal(tk):
		return c.decimal(a, to)
	case isTemporal(fk) || isTemporal(tk):
		return c.temporal(a, to)
	case fk.IsListLike() && tk.IsListLike():
		lt, ok := to.(*datatype.ListType)
		if _, isList := from.(*datatype.ListType); !ok || !isList {
			return nil, c.unsupported(from, to)
		}
		return c.list(a, lt)
	case fk == datatype.KindStruct && tk == datatype.KindStruct:
		return c.structs(a.(*array.Struct), to.(*datatype.StructType))
	}
	return nil, c.unsupported(from, to)
}

func (c *config) unsupported(from, to datatype.DataType) error {
	return errf(ErrNotSupported, "cast %s to %s", from, to)
}

func isNumeric(k datatype.Kind) bool {
	return k == datatype.KindBool || k >= datatype.KindInt8 && k <= datatype.KindFloat64
}

func isText(k datatype.Kind) bool {
	switch k {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView,
		datatype.KindBinary, datatype.KindLargeBinary, datatype.KindBinaryView:
		return true
	}
	return false
}

func isDecimal(k datatype.Kind) bool {
	return k >= datatype.KindDecimal32 && k <= datatype.KindDecimal256
}

func isTemporal(k datatype.Kind) bool {
	return k >= datatype.KindDate32 && k <= datatype.KindTimestamp || k == datatype.KindDuration
}

// nullsOf returns n nulls of t.
func nullsOf(t datatype.DataType, n int) (array.Array, error) {
	b, err := array.TryNewBuilder(t)
	if err != nil {
		return nil, errf(ErrNotSupported, "cast null to %s: %v", t, err)
	}
	for range n {
		b.AppendNull()
	}
	return b.NewArray(), nil
}

// castFailure is the error of a value that does not convert.
func castFailure(sentinel error, from, to datatype.DataType, row int, value any) error {
	return errf(sentinel, "cast %s to %s: row %d: value %v", from, to, row, value)
}

// toDictionary encodes a (cast to the value type first) as a dictionary
// with t's index type.
func (c *config) toDictionary(a array.Array, t *datatype.DictionaryType) (array.Array, error) {
	vals, err := c.cast(a, t.Value)
	if err != nil {
		return nil, err
	}
	d, err := DictionaryEncode(vals)
	if err != nil {
		return nil, err
	}
	idx, err := castNumbers(d.Indices(), t.Index, &config{workers: c.workers})
	if err != nil {
		return nil, within(err, "cast to %s: %d distinct values", t, d.Dictionary().Len())
	}
	out, err := array.NewDictionaryArray(t, idx, d.Dictionary())
	if err != nil {
		return nil, errf(ErrInvalid, "cast to %s: %v", t, err)
	}
	return out, nil
}

// list casts the elements (and the offsets between list and large list).
func (c *config) list(a array.Array, to *datatype.ListType) (array.Array, error) {
	d := a.Data()
	fk, tk := d.Type.Kind(), to.Kind()
	sameShape := fk == tk && (fk != datatype.KindFixedSizeList || d.Type.(*datatype.ListType).Size() == to.Size())
	if !sameShape {
		switch {
		case fk == datatype.KindList && tk == datatype.KindLargeList,
			fk == datatype.KindLargeList && tk == datatype.KindList,
			fk == datatype.KindListView && tk == datatype.KindLargeListView,
			fk == datatype.KindLargeListView && tk == datatype.KindListView:
			// The offsets change width, below.
		default:
			return nil, c.unsupported(d.Type, to)
		}
	}
	child, err := c.cast(array.MustMake(d.Children[0]), to.Elem().Type)
	if err != nil {
		return nil, err
	}
	bufs := append([]*memory.Buffer(nil), d.Buffers...)
	if !sameShape {
		n := d.Offset + d.Length + 1 // offsets of a list
		for b := 1; b < len(bufs); b++ {
			if fk == datatype.KindListView || fk == datatype.KindLargeListView {
				n = d.Offset + d.Length // offsets and sizes of a list view
			}
			if bufs[b], err = resizeOffsets(bufs[b], n, fk == datatype.KindList || fk == datatype.KindListView); err != nil {
				return nil, within(err, "cast %s to %s", d.Type, to)
			}
		}
	}
	out, err := array.Make(array.NewData(to, d.Length, bufs, []*array.Data{child.Data()}, d.NullCount, d.Offset))
	if err != nil {
		return nil, errf(ErrInvalid, "cast %s to %s: %v", d.Type, to, err)
	}
	return out, nil
}

// resizeOffsets widens 32-bit offsets (or sizes) to 64 bits, or narrows
// 64-bit ones, checked.
func resizeOffsets(b *memory.Buffer, n int, widen bool) (*memory.Buffer, error) {
	if b == nil || n == 0 {
		return b, nil
	}
	if widen {
		src := memory.View[int32](b)[:n]
		buf, dst := newValues[int64](len(src))
		for i, v := range src {
			dst[i] = int64(v)
		}
		return buf, nil
	}
	src := memory.View[int64](b)[:n]
	buf, dst := newValues[int32](len(src))
	for i, v := range src {
		if int64(int32(v)) != v {
			return nil, errf(ErrOverflow, "offset %d does not fit 32 bits", v)
		}
		dst[i] = int32(v)
	}
	return buf, nil
}

// structs casts field by field; a child slot under a null struct slot is
// treated as null, so that what it holds cannot fail the cast.
func (c *config) structs(a *array.Struct, to *datatype.StructType) (array.Array, error) {
	if a.NumField() != to.NumFields() {
		return nil, errf(ErrNotSupported, "cast %s to %s: %d fields to %d", a.DataType(), to, a.NumField(), to.NumFields())
	}
	d := a.Data()
	n := d.Length
	children := make([]*array.Data, a.NumField())
	for i := range children {
		child := array.Slice(array.MustMake(d.Children[i]), d.Offset, d.Offset+n)
		if d.NullCount > 0 && hasBitmap(child.DataType()) {
			cd := *child.Data()
			vb, nulls := andValidity(n, d, &cd)
			placed := memory.Allocate(nil, bitutil.BytesForBits(cd.Offset+n))
			bitutil.CopyBits(placed.Bytes(), cd.Offset, vb.Bytes(), 0, n)
			cd.Buffers = append([]*memory.Buffer{placed}, cd.Buffers[1:]...)
			cd.NullCount = nulls
			child = array.MustMake(&cd)
		}
		f, err := c.cast(child, to.Field(i).Type)
		if err != nil {
			return nil, err
		}
		children[i] = f.Data()
	}
	out, err := array.Make(array.NewData(to, n, []*memory.Buffer{copyValidity(bitmapOf2(a))}, children, d.NullCount, 0))
	if err != nil {
		return nil, errf(ErrInvalid, "cast %s to %s: %v", d.Type, to, err)
	}
	return out, nil
}

// hasBitmap reports whether arrays of t carry a validity bitmap.
func hasBitmap(t datatype.DataType) bool {
	switch datatype.StorageOf(t).Kind() {
	case datatype.KindNull, datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
		return false
	}
	return true
}

// toFixedSizeBinary copies the bytes of a (a binary, string or
// fixed-size binary array) into fixed-size binary values of to's width;
// a value of another length is an error naming the row.
func toFixedSizeBinary(a array.Array, to datatype.DataType) (array.Array, error) {
	width := datatype.StorageOf(to).(*datatype.FixedSizeBinaryType).ByteWidth
	v := a.(byteValuer)
	b := array.NewFixedSizeBinaryBuilder(to)
	b.Reserve(a.Len())
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		x := v.Value(i)
		if len(x) != width {
			return nil, castFailure(ErrInvalid, a.DataType(), to, i, fmt.Sprintf("%s (%d bytes, not %d)", quote.Bytes(x), len(x), width))
		}
		b.Append(x)
	}
	return b.NewArray(), nil
}
