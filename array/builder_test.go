package array

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// TestNewBuilderEveryType builds, for every type of the type table, an
// array through the Builder interface alone (nulls and empty values), then
// reuses the builder for the JSON values and checks both arrays.
func TestNewBuilderEveryType(t *testing.T) {
	for _, tt := range builderTypeTable {
		t.Run(tt.t.String(), func(t *testing.T) {
			b := NewBuilder(tt.t)
			require.True(t, datatype.Equal(tt.t, b.Type()))
			b.Reserve(10)
			b.AppendNull()
			b.AppendEmptyValue()
			b.AppendNulls(2)
			b.AppendEmptyValues(2)
			require.Equal(t, 6, b.Len())
			a := b.NewArray()
			require.Zero(t, b.Len(), "NewArray resets the builder")
			require.NoError(t, Validate(a.Data(), ValidateStructure))
			require.Equal(t, 6, a.Len())
			require.True(t, datatype.Equal(tt.t, a.DataType()))
			switch tt.t.Kind() {
			case datatype.KindNull:
				require.Equal(t, 6, a.NullN())
			case datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
				require.Zero(t, a.NullN())
				require.True(t, a.IsNull(0))
				require.False(t, a.IsNull(1))
			default:
				require.Equal(t, 3, a.NullN())
				for i, null := range []bool{true, false, true, true, false, false} {
					require.Equal(t, null, a.IsNull(i), "slot %d", i)
				}
			}

			// The same builder, reused for the JSON values.
			require.NoError(t, appendLiteral(b, tt.json))
			again := b.NewArray()
			require.NoError(t, Validate(again.Data(), ValidateStructure))
			require.Equal(t, tt.format, Format(again))
			require.Equal(t, 6, a.Len(), "the first array is unchanged")
		})
	}
}

func TestPrimitiveBuilderAppendValues(t *testing.T) {
	tests := []struct {
		name   string
		vals   []int64
		valid  []bool
		nulls  int
		bitmap []byte // nil: absent
		want   []int64
	}{
		{"nil validity", []int64{1, 2, 3}, nil, 0, nil, []int64{1, 2, 3}},
		{"all valid", []int64{1, 2, 3}, []bool{true, true, true}, 0, nil, []int64{1, 2, 3}},
		{"null slots zeroed", []int64{1, 2, 3}, []bool{true, false, true}, 1, []byte{0b101}, []int64{1, 0, 3}},
		{"all null", []int64{7, 8}, []bool{false, false}, 2, []byte{0}, []int64{0, 0}},
		{"empty", nil, nil, 0, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewPrimitiveBuilder[int64](datatype.Int64)
			b.AppendValues(tt.vals, tt.valid)
			require.Equal(t, tt.nulls, b.NullN())
			a := b.Finish()
			require.Equal(t, tt.nulls, a.NullN())
			if len(tt.want) == 0 {
				require.Empty(t, a.Values())
			} else {
				require.Equal(t, tt.want, a.Values())
			}
			if tt.bitmap == nil {
				require.Nil(t, a.Data().Buffers[0])
			} else {
				require.Equal(t, tt.bitmap, a.Data().Buffers[0].Bytes())
			}
			require.NoError(t, Validate(a.Data(), ValidateStructure))
		})
	}
}

func TestAppendValuesAfterNulls(t *testing.T) {
	// A bitmap allocated mid-way marks the earlier slots valid.
	b := NewPrimitiveBuilder[int32](datatype.Int32)
	b.AppendValues([]int32{1, 2, 3}, nil)
	b.AppendValues([]int32{4, 5}, []bool{false, true})
	b.Append(6)
	require.Equal(t, "[1 2 3 (null) 5 6]", b.Finish().String())

	bb := NewBooleanBuilder(datatype.Bool)
	bb.AppendValues([]bool{true, false, true}, nil)
	bb.AppendValues([]bool{true, true}, []bool{false, true})
	a := bb.Finish()
	require.Equal(t, "[true false true (null) true]", a.String())
	bits, _ := a.Bitmap()
	require.Equal(t, byte(0b10101), bits[0], "the null slot's value bit is clear")

	sb := NewBinaryBuilder[int64](datatype.LargeString)
	sb.AppendStrings([]string{"a", "bb", "ccc"}, []bool{true, false, true})
	sb.AppendValues([][]byte{[]byte("d")}, nil)
	s := sb.Finish()
	require.Equal(t, `["a" (null) "ccc" "d"]`, s.String())
	require.Equal(t, []int64{0, 1, 1, 4, 5}, s.Offsets())

	vb := NewBinaryViewBuilder(datatype.BinaryView)
	vb.AppendStrings([]string{"x", strings.Repeat("y", 20)}, []bool{false, true})
	require.Equal(t, `[(null) "yyyyyyyyyyyyyyyyyyyy"]`, vb.Finish().String())

	fb := NewFixedSizeBinaryBuilder(mustOK(datatype.NewFixedSizeBinary(1)))
	fb.AppendValues([][]byte{{1}, {2}}, []bool{true, false})
	require.Equal(t, `["\x01" (null)]`, fb.Finish().String())
}

func TestBuilderReuse(t *testing.T) {
	b := NewPrimitiveBuilder[int64](datatype.Int64)
	b.Append(1)
	b.AppendNull()
	first := b.Finish()
	b.Append(5)
	second := b.Finish()
	require.Equal(t, "[1 (null)]", first.String())
	require.Equal(t, "[5]", second.String())
	require.Nil(t, second.Data().Buffers[0], "the new array has no nulls and no bitmap")

	lb := NewListBuilder[int32](datatype.ListOf(datatype.String))
	vb := lb.ValueBuilder().(*BinaryBuilder[int32])
	lb.Append(true)
	vb.AppendString("a")
	l1 := lb.Finish()
	lb.Append(true)
	vb.AppendString("b")
	vb.AppendString("c")
	l2 := lb.Finish()
	require.Equal(t, `[["a"]]`, l1.String())
	require.Equal(t, `[["b" "c"]]`, l2.String())
	require.Equal(t, []int32{0, 2}, l2.Offsets())

	dt := mustOK(datatype.NewDictionary(datatype.Int8, datatype.String, false))
	db := NewBuilder(dt).(*DictionaryBuilder[string])
	require.NoError(t, db.Append("x"))
	require.NoError(t, db.Append("y"))
	d1 := db.Finish()
	require.NoError(t, db.Append("y"))
	d2 := db.Finish()
	require.Equal(t, `["x" "y"]`, Format(d1.Dictionary()))
	require.Equal(t, `["y"]`, Format(d2.Dictionary()), "the dictionary starts afresh")
	require.Equal(t, "[0]", Format(d2.Indices()))
}

func TestReserve(t *testing.T) {
	b := NewPrimitiveBuilder[int64](datatype.Int64)
	b.Reserve(1000)
	require.GreaterOrEqual(t, b.capacity, 1000)
	p := unsafe.SliceData(b.vals)
	for i := range 1000 {
		b.Append(int64(i))
	}
	require.Same(t, p, unsafe.SliceData(b.vals), "no reallocation within the reserved capacity")

	// A large reservation mostly unused is trimmed when finished.
	b.Reserve(1 << 16)
	a := b.Finish()
	require.Equal(t, 1000, a.Len())
	require.Equal(t, memory.RoundUp(8000), cap(a.Data().Buffers[1].Bytes()))

	sb := NewBinaryBuilder[int32](datatype.String)
	sb.Reserve(10)
	sb.ReserveData(100)
	data := unsafe.SliceData(sb.data)
	for range 10 {
		sb.AppendString("0123456789")
	}
	require.Same(t, data, unsafe.SliceData(sb.data))
	require.Equal(t, 100, sb.DataLen())
}

func TestBuilderAllocator(t *testing.T) {
	acc := memory.NewAccountingAllocator()
	b := NewBuilder(datatype.StructOf(datatype.Field{Name: "s", Type: datatype.String}), WithAllocator(acc)).(*StructBuilder)
	b.Append(true)
	b.FieldBuilder(0).(*BinaryBuilder[int32]).AppendString("x")
	a := b.NewArray()
	require.NoError(t, Validate(a.Data(), ValidateStructure))
	require.Positive(t, acc.Stats().Allocations, "children allocate from the builder's allocator")
	for _, buf := range a.Data().Children[0].Buffers[1:] {
		require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(buf.Bytes())))%memory.Alignment)
	}
}

func TestBinaryViewBlocks(t *testing.T) {
	b := NewBinaryViewBuilder(datatype.StringView, WithBlockSize(64))
	var want []string
	for i := range 10 {
		s := fmt.Sprintf("value number %02d, long enough to be out of line", i)
		want = append(want, fmt.Sprintf("%q", s))
		b.AppendString(s)
	}
	a := b.Finish()
	require.Greater(t, a.NumDataBuffers(), 1)
	require.Equal(t, "["+strings.Join(want, " ")+"]", a.String())
	require.NoError(t, Validate(a.Data(), ValidateStructure))
}

func TestRunEndEncodedBuilder(t *testing.T) {
	ree := mustOK(datatype.NewRunEndEncoded(datatype.Int16, datatype.StructOf(
		datatype.Field{Name: "a", Type: datatype.Int8, Nullable: true},
		datatype.Field{Name: "b", Type: datatype.String, Nullable: true})))
	b := NewRunEndEncodedBuilder(ree)
	vb := b.ValueBuilder().(*StructBuilder)
	add := func(a int8, s string, n int) {
		vb.Append(true)
		vb.FieldBuilder(0).(*Int8Builder).Append(a)
		vb.FieldBuilder(1).(*BinaryBuilder[int32]).AppendString(s)
		b.AppendRun(n)
	}
	add(1, "x", 2)
	add(1, "x", 1)
	add(1, "y", 1)
	b.AppendNulls(2)
	b.AppendNull()
	add(1, "y", 3)
	require.Equal(t, 10, b.Len())
	require.Equal(t, 4, b.NumRuns())
	require.Panics(t, func() { b.Append() }, "no value appended")

	a := b.Finish()
	require.NoError(t, Validate(a.Data(), ValidateStructure))
	require.Equal(t, "[3 4 7 10]", Format(a.RunEnds()))
	require.Equal(t, `[{a: 1, b: "x"} {a: 1, b: "y"} (null) {a: 1, b: "y"}]`, Format(a.Values()))
	require.Equal(t, []bool{true, true, false, true}, []bool{a.Values().IsValid(0), a.Values().IsValid(1), a.Values().IsValid(2), a.Values().IsValid(3)})

	small := NewRunEndEncodedBuilder(mustOK(datatype.NewRunEndEncoded(datatype.Int16, datatype.Int8)))
	small.AppendNulls(32767)
	require.Panics(t, func() { small.AppendNull() }, "int16 run ends overflow")
}

func TestTruncateEveryType(t *testing.T) {
	// truncate, used when a run absorbs a value, restores the builder to
	// the state before the dropped slots.
	for _, tt := range builderTypeTable {
		t.Run(tt.t.String(), func(t *testing.T) {
			var elems []json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(tt.json), &elems))
			rest := jsonSlice(t, tt.json, 1, len(elems))
			b := NewBuilder(tt.t).(builder)
			require.NoError(t, appendLiteral(b, jsonSlice(t, tt.json, 0, 1)))
			require.NoError(t, appendLiteral(b, rest))
			b.truncate(1)
			require.Equal(t, 1, b.Len())
			require.NoError(t, appendLiteral(b, rest))
			a := b.NewArray()
			require.NoError(t, Validate(a.Data(), ValidateStructure))
			require.Equal(t, tt.format, Format(a))
		})
	}
}

func TestDictionaryBuilder(t *testing.T) {
	dt := mustOK(datatype.NewDictionary(datatype.Int8, datatype.Int64, false))
	b := NewBuilder(dt).(*DictionaryBuilder[int64])
	for i := range 128 {
		require.NoError(t, b.Append(int64(i)))
	}
	require.NoError(t, b.Append(5), "known values still fit")
	err := b.Append(1000)
	require.ErrorIs(t, err, ErrDictionaryFull)
	require.Equal(t, 129, b.Len(), "nothing appended on error")
	require.Equal(t, 128, b.DictLen())
	a := b.Finish()
	require.NoError(t, Validate(a.Data(), ValidateStructure))
	require.Equal(t, 5, a.ValueIndex(128))

	sb := NewBuilder(mustOK(datatype.NewDictionary(datatype.Uint32, datatype.BinaryView, false))).(*DictionaryBuilder[string])
	require.NoError(t, sb.AppendArray(MustFromJSON(datatype.BinaryView, `["a", null, "a", "a string longer than twelve", "a"]`)))
	require.Error(t, sb.AppendArray(MustFromJSON(datatype.String, `["a"]`)), "wrong value type")
	d := sb.Finish()
	require.Equal(t, `["a" (null) "a" "a string longer than twelve" "a"]`, d.String())
	require.Equal(t, 2, d.Dictionary().Len())
	require.Panics(t, func() { _ = NewBuilder(dt).(*DictionaryBuilder[int64]).AppendBytes(nil) })

	_, err = TryNewBuilder(mustOK(datatype.NewDictionary(datatype.Int8, datatype.ListOf(datatype.Int8), false)))
	require.ErrorIs(t, err, ErrNotSupported)
	require.Panics(t, func() { NewBuilder(mustOK(datatype.NewDictionary(datatype.Int8, datatype.Null, false))) })

	idx := MustFromJSON(datatype.Int8, `[0, 2]`)
	_, err = NewDictionaryArray(dt, idx, MustFromJSON(datatype.Int64, `[1, 2]`))
	require.ErrorIs(t, err, ErrInvalid, "index 2 out of range")
	_, err = NewDictionaryArray(dt, MustFromJSON(datatype.Int16, `[0]`), MustFromJSON(datatype.Int64, `[1]`))
	require.ErrorIs(t, err, ErrInvalid, "wrong index type")
}

func TestBuilderMisusePanics(t *testing.T) {
	require.Panics(t, func() { NewPrimitiveBuilder[int32](datatype.Int64) })
	require.Panics(t, func() { NewPrimitiveBuilder[int64](datatype.Int64).AppendValues([]int64{1}, []bool{}) })
	require.Panics(t, func() { NewFixedSizeBinaryBuilder(mustOK(datatype.NewFixedSizeBinary(2))).Append([]byte{1}) })
	require.Panics(t, func() {
		b := NewStructBuilder(datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int8}))
		b.Append(true)
		b.Finish()
	})
	require.Panics(t, func() {
		b := NewFixedSizeListBuilder(mustOK(datatype.FixedSizeListOf(datatype.Int8, 2)))
		b.Append(true)
		b.ValueBuilder().AppendEmptyValue()
		b.Finish()
	})
	require.Panics(t, func() {
		b := NewListViewBuilder[int32](datatype.ListViewOf(datatype.Int8))
		b.AppendView(true, 0, 1)
		b.Finish()
	})
	require.Panics(t, func() {
		NewUnionBuilder(mustOK(datatype.NewUnion(datatype.Sparse, []datatype.Field{{Name: "a", Type: datatype.Int8}}, []int8{2}))).Append(1)
	})
	require.Panics(t, func() {
		b := NewMapBuilder(datatype.MapOf(datatype.String, datatype.Int8, false))
		b.Append(true)
		b.KeyBuilder().AppendEmptyValue()
		b.Finish()
	})
}

func TestMapBuilder(t *testing.T) {
	b := NewMapBuilder(datatype.MapOf(datatype.String, datatype.Int32, false))
	kb, ib := b.KeyBuilder().(*BinaryBuilder[int32]), b.ItemBuilder().(*Int32Builder)
	b.Append(true)
	kb.AppendString("a")
	ib.Append(1)
	kb.AppendString("b")
	ib.AppendNull()
	b.AppendNull()
	b.AppendEmptyValue()
	a := b.Finish()
	require.NoError(t, Validate(a.Data(), ValidateStructure))
	require.Equal(t, `[{"a": 1, "b": (null)} (null) {}]`, a.String())
	require.Equal(t, []int32{0, 2, 2, 2}, a.Offsets())
	require.Zero(t, a.Data().Children[0].NullCount, "entries are never null")
}

func TestExtensionBuilder(t *testing.T) {
	b := NewExtensionBuilder(builderTestExt{})
	b.StorageBuilder().(*Int32Builder).Append(7)
	b.AppendNull()
	a := b.Finish()
	require.Equal(t, "[7 (null)]", a.String())
	require.Equal(t, datatype.KindExtension, a.DataType().Kind())
	require.Equal(t, "[7 (null)]", a.Storage().String())
}
