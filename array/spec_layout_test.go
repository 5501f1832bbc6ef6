package array

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

// The tests of this file build the layout examples of the columnar format
// spec with the builders and compare the buffers byte by byte with the
// spec's tables. Slots the spec leaves "unspecified" are checked to be
// zero, which is what the builders write for null slots.

// le encodes little-endian integers of the width of T.
func specLE[T int8 | uint8 | int16 | int32 | int64](vs ...T) []byte {
	var out []byte
	for _, v := range vs {
		switch x := any(v).(type) {
		case int8:
			out = append(out, byte(x))
		case uint8:
			out = append(out, x)
		case int16:
			out = binary.LittleEndian.AppendUint16(out, uint16(x))
		case int32:
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		case int64:
			out = binary.LittleEndian.AppendUint64(out, uint64(x))
		}
	}
	return out
}

func specF32(vs ...float32) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	return out
}

// buf returns the logical bytes of buffer i of d: its first n bytes.
func specBuf(t *testing.T, d *Data, i, n int) []byte {
	t.Helper()
	require.NotNil(t, d.Buffers[i], "buffer %d is absent", i)
	require.GreaterOrEqual(t, d.Buffers[i].Len(), n, "buffer %d", i)
	return d.Buffers[i].Bytes()[:n]
}

// shape checks length, null count and that the validity bitmap is as
// given (nil: absent).
func specShape(t *testing.T, d *Data, length, nulls int, validity []byte) {
	t.Helper()
	require.Equal(t, length, d.Length, "length")
	require.Equal(t, nulls, d.NullCount, "null count")
	require.Zero(t, d.Offset, "offset")
	if validity == nil {
		if len(d.Buffers) > 0 {
			require.Nil(t, d.Buffers[0], "validity bitmap should be absent")
		}
		return
	}
	require.Equal(t, validity, specBuf(t, d, 0, len(validity)), "validity bitmap")
	for _, b := range d.Buffers[0].Bytes()[len(validity):cap(d.Buffers[0].Bytes())] {
		require.Zero(t, b, "bitmap padding must be zero")
	}
}

func TestSpecLayouts(t *testing.T) {
	listInt8 := datatype.ListOf(datatype.Int8)
	fsl, err := datatype.FixedSizeListOf(datatype.Uint8, 4)
	require.NoError(t, err)
	person := datatype.StructOf(
		datatype.Field{Name: "name", Type: datatype.Binary, Nullable: true},
		datatype.Field{Name: "age", Type: datatype.Int32, Nullable: true})
	dense, err := datatype.NewUnion(datatype.Dense, []datatype.Field{
		{Name: "f", Type: datatype.Float32, Nullable: true}, {Name: "i", Type: datatype.Int32, Nullable: true}}, nil)
	require.NoError(t, err)
	sparse, err := datatype.NewUnion(datatype.Sparse, []datatype.Field{
		{Name: "i", Type: datatype.Int32, Nullable: true}, {Name: "f", Type: datatype.Float32, Nullable: true},
		{Name: "s", Type: datatype.Binary, Nullable: true}}, nil)
	require.NoError(t, err)
	dict, err := datatype.NewDictionary(datatype.Int32, datatype.Binary, false)
	require.NoError(t, err)
	ree, err := datatype.NewRunEndEncoded(datatype.Int32, datatype.Float32)
	require.NoError(t, err)

	tests := []struct {
		name   string
		build  func(t *testing.T) Array
		check  func(t *testing.T, d *Data)
		format string
	}{
		{
			name: "Int32 [1, null, 2, 4, 8]",
			build: func(*testing.T) Array {
				b := NewPrimitiveBuilder[int32](datatype.Int32)
				b.Append(1)
				b.AppendNull()
				b.AppendValues([]int32{2, 4, 8}, nil)
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 5, 1, []byte{0b00011101})
				require.Equal(t, specLE[int32](1, 0, 2, 4, 8), specBuf(t, d, 1, 20))
			},
			format: "[1 (null) 2 4 8]",
		},
		{
			name: "non-null Int32 [1, 2, 3, 4, 8] omits the bitmap",
			build: func(*testing.T) Array {
				b := NewPrimitiveBuilder[int32](datatype.Int32)
				b.AppendValues([]int32{1, 2, 3, 4, 8}, []bool{true, true, true, true, true})
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 5, 0, nil)
				require.Equal(t, specLE[int32](1, 2, 3, 4, 8), specBuf(t, d, 1, 20))
			},
			format: "[1 2 3 4 8]",
		},
		{
			name: "VarBinary ['joe', null, null, 'mark']",
			build: func(*testing.T) Array {
				b := NewBinaryBuilder[int32](datatype.Binary)
				b.AppendStrings([]string{"joe", "", "", "mark"}, []bool{true, false, false, true})
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 4, 2, []byte{0b00001001})
				require.Equal(t, specLE[int32](0, 3, 3, 3, 7), specBuf(t, d, 1, 20))
				require.Equal(t, "joemark", string(specBuf(t, d, 2, 7)))
				require.Equal(t, 7, d.Buffers[2].Len())
			},
			format: `["joe" (null) (null) "mark"]`,
		},
		{
			name: "List<Int8> [[12, -7, 25], null, [0, -127, 127, 50], []]",
			build: func(*testing.T) Array {
				b := NewListBuilder[int32](listInt8)
				vb := b.ValueBuilder().(*Int8Builder)
				b.Append(true)
				vb.AppendValues([]int8{12, -7, 25}, nil)
				b.AppendNull()
				b.Append(true)
				vb.AppendValues([]int8{0, -127, 127, 50}, nil)
				b.Append(true)
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 4, 1, []byte{0b00001101})
				require.Equal(t, specLE[int32](0, 3, 3, 7, 7), specBuf(t, d, 1, 20))
				c := d.Children[0]
				specShape(t, c, 7, 0, nil)
				require.Equal(t, specLE[int8](12, -7, 25, 0, -127, 127, 50), specBuf(t, c, 1, 7))
			},
			format: "[[12 -7 25] (null) [0 -127 127 50] []]",
		},
		{
			name: "List<List<Int8>> [[[1, 2], [3, 4]], [[5, 6, 7], null, [8]], [[9, 10]]]",
			build: func(*testing.T) Array {
				b := NewListBuilder[int32](datatype.ListOf(listInt8))
				inner := b.ValueBuilder().(*ListBuilder[int32])
				vb := inner.ValueBuilder().(*Int8Builder)
				for _, outer := range [][][]int8{{{1, 2}, {3, 4}}, {{5, 6, 7}, nil, {8}}, {{9, 10}}} {
					b.Append(true)
					for _, l := range outer {
						inner.Append(l != nil)
						vb.AppendValues(l, nil)
					}
				}
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 3, 0, nil)
				require.Equal(t, specLE[int32](0, 2, 5, 6), specBuf(t, d, 1, 16))
				c := d.Children[0]
				specShape(t, c, 6, 1, []byte{0b00110111})
				require.Equal(t, specLE[int32](0, 2, 4, 7, 7, 8, 10), specBuf(t, c, 1, 28))
				g := c.Children[0]
				specShape(t, g, 10, 0, nil)
				require.Equal(t, specLE[int8](1, 2, 3, 4, 5, 6, 7, 8, 9, 10), specBuf(t, g, 1, 10))
			},
			format: "[[[1 2] [3 4]] [[5 6 7] (null) [8]] [[9 10]]]",
		},
		{
			name: "ListView<Int8> [[12, -7, 25], null, [0, -127, 127, 50], []] with explicit views",
			build: func(*testing.T) Array {
				b := NewListViewBuilder[int32](datatype.ListViewOf(datatype.Int8))
				b.ValueBuilder().(*Int8Builder).AppendValues([]int8{12, -7, 25, 0, -127, 127, 50}, nil)
				b.AppendView(true, 0, 3)
				b.AppendView(false, 7, 0)
				b.AppendView(true, 3, 4)
				b.AppendView(true, 0, 0)
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 4, 1, []byte{0b00001101})
				require.Equal(t, specLE[int32](0, 7, 3, 0), specBuf(t, d, 1, 16))
				require.Equal(t, specLE[int32](3, 0, 4, 0), specBuf(t, d, 2, 16))
				c := d.Children[0]
				specShape(t, c, 7, 0, nil)
				require.Equal(t, specLE[int8](12, -7, 25, 0, -127, 127, 50), specBuf(t, c, 1, 7))
			},
			format: "[[12 -7 25] (null) [0 -127 127 50] []]",
		},
		{
			name: "ListView<Int8> [[12, -7, 25], null, [0, -127, 127, 50], []] appended in order",
			build: func(*testing.T) Array {
				b := NewListViewBuilder[int32](datatype.ListViewOf(datatype.Int8))
				vb := b.ValueBuilder().(*Int8Builder)
				b.Append(true)
				vb.AppendValues([]int8{12, -7, 25}, nil)
				b.AppendNull()
				b.Append(true)
				vb.AppendValues([]int8{0, -127, 127, 50}, nil)
				b.AppendEmptyValue()
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				// Same validity, sizes and child; offsets in append order.
				specShape(t, d, 4, 1, []byte{0b00001101})
				require.Equal(t, specLE[int32](0, 3, 3, 7), specBuf(t, d, 1, 16))
				require.Equal(t, specLE[int32](3, 0, 4, 0), specBuf(t, d, 2, 16))
				require.Equal(t, specLE[int8](12, -7, 25, 0, -127, 127, 50), specBuf(t, d.Children[0], 1, 7))
			},
			format: "[[12 -7 25] (null) [0 -127 127 50] []]",
		},
		{
			name: "ListView<Int8> [[12, -7, 25], null, [0, -127, 127, 50], [], [50, 12]] out of order, shared",
			build: func(*testing.T) Array {
				b := NewListViewBuilder[int32](datatype.ListViewOf(datatype.Int8))
				b.ValueBuilder().(*Int8Builder).AppendValues([]int8{0, -127, 127, 50, 12, -7, 25}, nil)
				b.AppendView(true, 4, 3)
				b.AppendView(false, 7, 0)
				b.AppendView(true, 0, 4)
				b.AppendView(true, 0, 0)
				b.AppendView(true, 3, 2)
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 5, 1, []byte{0b00011101})
				require.Equal(t, specLE[int32](4, 7, 0, 0, 3), specBuf(t, d, 1, 20))
				require.Equal(t, specLE[int32](3, 0, 4, 0, 2), specBuf(t, d, 2, 20))
				c := d.Children[0]
				specShape(t, c, 7, 0, nil)
				require.Equal(t, specLE[int8](0, -127, 127, 50, 12, -7, 25), specBuf(t, c, 1, 7))
			},
			format: "[[12 -7 25] (null) [0 -127 127 50] [] [50 12]]",
		},
		{
			name: "FixedSizeList<byte>[4] [[192, 168, 0, 12], null, [192, 168, 0, 25], [192, 168, 0, 1]]",
			build: func(*testing.T) Array {
				b := NewFixedSizeListBuilder(fsl)
				vb := b.ValueBuilder().(*Uint8Builder)
				for _, l := range [][]uint8{{192, 168, 0, 12}, nil, {192, 168, 0, 25}, {192, 168, 0, 1}} {
					if l == nil {
						b.AppendNull()
						continue
					}
					b.Append(true)
					vb.AppendValues(l, nil)
				}
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 4, 1, []byte{0b00001101})
				c := d.Children[0]
				specShape(t, c, 16, 0, nil)
				require.Equal(t, []byte{192, 168, 0, 12, 0, 0, 0, 0, 192, 168, 0, 25, 192, 168, 0, 1}, specBuf(t, c, 1, 16))
			},
			format: "[[192 168 0 12] (null) [192 168 0 25] [192 168 0 1]]",
		},
		{
			name: "Struct<VarBinary, Int32> [{'joe', 1}, {null, 2}, null, {'mark', 4}]",
			build: func(*testing.T) Array {
				b := NewStructBuilder(person)
				name := b.FieldBuilder(0).(*BinaryBuilder[int32])
				age := b.FieldBuilder(1).(*Int32Builder)
				b.Append(true)
				name.AppendString("joe")
				age.Append(1)
				b.Append(true)
				name.AppendNull()
				age.Append(2)
				b.Append(false) // hidden child values, as in the spec
				name.AppendString("alice")
				age.AppendNull()
				b.Append(true)
				name.AppendString("mark")
				age.Append(4)
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 4, 1, []byte{0b00001011})
				n := d.Children[0]
				specShape(t, n, 4, 1, []byte{0b00001101})
				require.Equal(t, specLE[int32](0, 3, 3, 8, 12), specBuf(t, n, 1, 20))
				require.Equal(t, "joealicemark", string(specBuf(t, n, 2, 12)))
				a := d.Children[1]
				specShape(t, a, 4, 1, []byte{0b00001011})
				require.Equal(t, specLE[int32](1, 2, 0, 4), specBuf(t, a, 1, 16))
			},
			format: `[{name: "joe", age: 1} {name: (null), age: 2} (null) {name: "mark", age: 4}]`,
		},
		{
			name: "DenseUnion<f: Float32, i: Int32> [{f=1.2}, null, {f=3.4}, {i=5}]",
			build: func(*testing.T) Array {
				b := NewUnionBuilder(dense)
				b.Append(0).(*Float32Builder).Append(1.2)
				b.AppendNull()
				b.Append(0).(*Float32Builder).Append(3.4)
				b.Append(1).(*Int32Builder).Append(5)
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				require.Equal(t, 4, d.Length)
				require.Zero(t, d.NullCount)
				require.Len(t, d.Buffers, 2)
				require.Equal(t, specLE[int8](0, 0, 0, 1), specBuf(t, d, 0, 4))
				require.Equal(t, specLE[int32](0, 1, 2, 0), specBuf(t, d, 1, 16))
				f := d.Children[0]
				specShape(t, f, 3, 1, []byte{0b00000101})
				require.Equal(t, specF32(1.2, 0, 3.4), specBuf(t, f, 1, 12))
				i := d.Children[1]
				specShape(t, i, 1, 0, nil)
				require.Equal(t, specLE[int32](5), specBuf(t, i, 1, 4))
			},
			format: "[1.2 (null) 3.4 5]",
		},
		{
			name: "SparseUnion<i: Int32, f: Float32, s: VarBinary> [{i=5}, {f=1.2}, {s='joe'}, {f=3.4}, {i=4}, {s='mark'}]",
			build: func(*testing.T) Array {
				b := NewUnionBuilder(sparse)
				b.Append(0).(*Int32Builder).Append(5)
				b.Append(1).(*Float32Builder).Append(1.2)
				b.Append(2).(*BinaryBuilder[int32]).AppendString("joe")
				b.Append(1).(*Float32Builder).Append(3.4)
				b.Append(0).(*Int32Builder).Append(4)
				b.Append(2).(*BinaryBuilder[int32]).AppendString("mark")
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				require.Equal(t, 6, d.Length)
				require.Zero(t, d.NullCount)
				require.Len(t, d.Buffers, 1)
				require.Equal(t, specLE[int8](0, 1, 2, 1, 0, 2), specBuf(t, d, 0, 6))
				i := d.Children[0]
				specShape(t, i, 6, 4, []byte{0b00010001})
				require.Equal(t, specLE[int32](5, 0, 0, 0, 4, 0), specBuf(t, i, 1, 24))
				f := d.Children[1]
				specShape(t, f, 6, 4, []byte{0b00001010})
				require.Equal(t, specF32(0, 1.2, 0, 3.4, 0, 0), specBuf(t, f, 1, 24))
				s := d.Children[2]
				specShape(t, s, 6, 4, []byte{0b00100100})
				require.Equal(t, specLE[int32](0, 0, 0, 3, 3, 3, 7), specBuf(t, s, 1, 28))
				require.Equal(t, "joemark", string(specBuf(t, s, 2, 7)))
			},
			format: `[5 1.2 "joe" 3.4 4 "mark"]`,
		},
		{
			name: "Dictionary VarBinary ['foo', 'bar', 'foo', 'bar', null, 'baz']",
			build: func(t *testing.T) Array {
				b := NewBuilder(dict).(*DictionaryBuilder[string])
				for _, s := range []string{"foo", "bar", "foo", "bar"} {
					require.NoError(t, b.Append(s))
				}
				b.AppendNull()
				require.NoError(t, b.AppendBytes([]byte("baz")))
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 6, 1, []byte{0b00101111})
				require.Equal(t, specLE[int32](0, 1, 0, 1, 0, 2), specBuf(t, d, 1, 24))
				v := d.Dictionary
				specShape(t, v, 3, 0, nil)
				require.Equal(t, specLE[int32](0, 3, 6, 9), specBuf(t, v, 1, 16))
				require.Equal(t, "foobarbaz", string(specBuf(t, v, 2, 9)))
			},
			format: `["foo" "bar" "foo" "bar" (null) "baz"]`,
		},
		{
			name: "Dictionary with duplicate and null values [0, 1, 3, 1, 4, 2]",
			build: func(t *testing.T) Array {
				idx := MustFromJSON(datatype.Int32, `[0, 1, 3, 1, 4, 2]`)
				values := MustFromJSON(datatype.Binary, `["foo", "bar", "baz", "foo", null]`)
				a, err := NewDictionaryArray(dict, idx, values)
				require.NoError(t, err)
				return a
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 6, 0, nil) // nulls of the dictionary do not count
				require.Equal(t, specLE[int32](0, 1, 3, 1, 4, 2), specBuf(t, d, 1, 24))
				require.Equal(t, 1, d.Dictionary.NullCount)
			},
			format: `["foo" "bar" "foo" "bar" (null) "baz"]`,
		},
		{
			name: "Run-end encoded Float32 [1.0, 1.0, 1.0, 1.0, null, null, 2.0]",
			build: func(*testing.T) Array {
				b := NewRunEndEncodedBuilder(ree)
				vb := b.ValueBuilder().(*Float32Builder)
				for range 4 {
					vb.Append(1)
					b.Append()
				}
				b.AppendNull()
				b.AppendNull()
				vb.Append(2)
				b.Append()
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				require.Equal(t, 7, d.Length)
				require.Zero(t, d.NullCount)
				require.Empty(t, d.Buffers)
				e := d.Children[0]
				specShape(t, e, 3, 0, nil)
				require.Equal(t, specLE[int32](4, 6, 7), specBuf(t, e, 1, 12))
				v := d.Children[1]
				specShape(t, v, 3, 1, []byte{0b00000101})
				require.Equal(t, specF32(1, 0, 2), specBuf(t, v, 1, 12))
			},
			format: "[1 1 1 1 (null) (null) 2]",
		},
		{
			name: "Utf8View short and long strings",
			build: func(*testing.T) Array {
				b := NewBinaryViewBuilder(datatype.StringView)
				b.AppendString("joe")
				b.AppendNull()
				b.AppendString("hello, world") // exactly 12: inline
				b.AppendString("a string longer than twelve")
				b.AppendString("another long string")
				return b.NewArray()
			},
			check: func(t *testing.T, d *Data) {
				specShape(t, d, 5, 1, []byte{0b00011101})
				require.Len(t, d.Buffers, 3, "validity, views, one data buffer")
				views := specBuf(t, d, 1, 80)
				inline := func(s string) []byte {
					v := make([]byte, 16)
					binary.LittleEndian.PutUint32(v, uint32(len(s)))
					copy(v[4:], s)
					return v
				}
				long := func(s string, bufIndex, offset int32) []byte {
					v := binary.LittleEndian.AppendUint32(nil, uint32(len(s)))
					v = append(v, s[:4]...)
					v = binary.LittleEndian.AppendUint32(v, uint32(bufIndex))
					return binary.LittleEndian.AppendUint32(v, uint32(offset))
				}
				require.Equal(t, inline("joe"), views[0:16])
				require.Equal(t, make([]byte, 16), views[16:32], "null view")
				require.Equal(t, inline("hello, world"), views[32:48])
				require.Equal(t, long("a string longer than twelve", 0, 0), views[48:64])
				require.Equal(t, long("another long string", 0, 27), views[64:80])
				require.Equal(t, "a string longer than twelveanother long string", string(specBuf(t, d, 2, d.Buffers[2].Len())))
			},
			format: `["joe" (null) "hello, world" "a string longer than twelve" "another long string"]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.build(t)
			d := a.Data()
			require.NoError(t, Validate(d, ValidateStructure))
			tt.check(t, d)
			require.Equal(t, tt.format, Format(a))
			for i, b := range d.Buffers {
				if b != nil {
					require.Zero(t, cap(b.Bytes())%64, "buffer %d padded to 64 bytes", i)
				}
			}
		})
	}
}
