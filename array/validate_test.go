package array

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Helpers that build Data by hand, buffer by buffer, so that tests control
// every byte (and can corrupt any of them).

// vbits returns a validity bitmap from a string of '1' (valid) and '0'
// (null); "" means no bitmap.
func vbits(valid string) *memory.Buffer {
	if valid == "" {
		return nil
	}
	b := make([]byte, bitutil.BytesForBits(len(valid)))
	for i, c := range valid {
		if c == '1' {
			bitutil.SetBit(b, i)
		}
	}
	return memory.NewBuffer(b)
}

func sliceBuf[T any](vs ...T) *memory.Buffer {
	if len(vs) == 0 {
		return memory.NewBuffer([]byte{})
	}
	return memory.FromSlice(vs)
}

func primData[T any](t datatype.DataType, valid string, vs ...T) *Data {
	return NewData(t, len(vs), []*memory.Buffer{vbits(valid), sliceBuf(vs...)}, nil, UnknownNullCount, 0)
}

func binData[O Offset](t datatype.DataType, valid string, offs []O, data string) *Data {
	return NewData(t, len(offs)-1, []*memory.Buffer{vbits(valid), sliceBuf(offs...), memory.NewBuffer([]byte(data))}, nil, UnknownNullCount, 0)
}

func listData[O Offset](t datatype.DataType, valid string, offs []O, child *Data) *Data {
	return NewData(t, len(offs)-1, []*memory.Buffer{vbits(valid), sliceBuf(offs...)}, []*Data{child}, UnknownNullCount, 0)
}

func listViewData[O Offset](t datatype.DataType, valid string, offs, sizes []O, child *Data) *Data {
	return NewData(t, len(offs), []*memory.Buffer{vbits(valid), sliceBuf(offs...), sliceBuf(sizes...)}, []*Data{child}, UnknownNullCount, 0)
}

func structData(t datatype.DataType, valid string, n int, children ...*Data) *Data {
	return NewData(t, n, []*memory.Buffer{vbits(valid)}, children, UnknownNullCount, 0)
}

// mkView encodes one binary view: inline when short, else pointing at
// [off, off+len(s)) of data buffer buf.
func mkView(s string, buf, off int32) []byte {
	v := make([]byte, 16)
	binary.LittleEndian.PutUint32(v, uint32(len(s)))
	if len(s) <= ViewInlineMax {
		copy(v[4:], s)
		return v
	}
	copy(v[4:8], s)
	binary.LittleEndian.PutUint32(v[8:], uint32(buf))
	binary.LittleEndian.PutUint32(v[12:], uint32(off))
	return v
}

func viewData(t datatype.DataType, valid string, views [][]byte, data ...string) *Data {
	var vb []byte
	for _, v := range views {
		vb = append(vb, v...)
	}
	bufs := []*memory.Buffer{vbits(valid), memory.NewBuffer(vb)}
	for _, s := range data {
		bufs = append(bufs, memory.NewBuffer([]byte(s)))
	}
	return NewData(t, len(views), bufs, nil, UnknownNullCount, 0)
}

func unionData(t *datatype.UnionType, codes []int8, offs []int32, children ...*Data) *Data {
	bufs := []*memory.Buffer{sliceBuf(codes...)}
	if t.Mode() == datatype.Dense {
		bufs = append(bufs, sliceBuf(offs...))
	}
	return NewData(t, len(codes), bufs, children, 0, 0)
}

func dictData[T integer](t *datatype.DictionaryType, valid string, idx []T, dict *Data) *Data {
	d := NewData(t, len(idx), []*memory.Buffer{vbits(valid), sliceBuf(idx...)}, nil, UnknownNullCount, 0)
	d.Dictionary = dict
	return d
}

func reeData[T ~int16 | ~int32 | ~int64](t *datatype.RunEndEncodedType, length int, ends []T, values *Data) *Data {
	ed := primData(t.RunEnds().Type, "", ends...)
	return NewData(t, length, nil, []*Data{ed, values}, 0, 0)
}

func strs(valid string, vs ...string) *Data {
	offs := []int32{0}
	data := ""
	for _, s := range vs {
		data += s
		offs = append(offs, int32(len(data)))
	}
	return binData(datatype.String, valid, offs, data)
}

func i32s(valid string, vs ...int32) *Data { return primData(datatype.Int32, valid, vs...) }

func field(name string, t datatype.DataType) datatype.Field {
	return datatype.Field{Name: name, Type: t, Nullable: true}
}

func mustT[T any](t T, err error) T {
	if err != nil {
		panic(err)
	}
	return t
}

// Types used across the tests.
var (
	tListI32   = datatype.ListOf(datatype.Int32)
	tLListI32  = datatype.LargeListOf(datatype.Int32)
	tLViewI32  = datatype.ListViewOf(datatype.Int32)
	tLLViewI32 = datatype.LargeListViewOf(datatype.Int32)
	tFSLI32    = mustT(datatype.FixedSizeListOf(datatype.Int32, 2))
	tMapSI     = datatype.MapOf(datatype.String, datatype.Int32, false)
	tSparse    = mustT(datatype.NewUnion(datatype.Sparse, []datatype.Field{field("i", datatype.Int32), field("s", datatype.String)}, []int8{5, 7}))
	tDense     = mustT(datatype.NewUnion(datatype.Dense, []datatype.Field{field("i", datatype.Int32), field("s", datatype.String)}, []int8{5, 7}))
	tDictStr   = mustT(datatype.NewDictionary(datatype.Int8, datatype.String, false))
	tREE       = mustT(datatype.NewRunEndEncoded(datatype.Int32, datatype.String))
	tDec       = mustT(datatype.NewDecimal(128, 4, 2))
	tDec64     = mustT(datatype.NewDecimal(64, 3, 1))
)

// inCol wraps d as field name of a one-field struct, to show paths.
func inCol(name string, d *Data) *Data {
	return structData(datatype.StructOf(field(name, d.Type)), "", d.Length, d)
}

// level is how much validation a fault needs to be seen.
type level int

const (
	structural level = iota // ValidateStructure
	safe                    // ValidateSafe
	full                    // ValidateFull
	none                    // valid data: no validator complains
)

var validators = []struct {
	name string
	fn   func(*Data) error
}{
	{"ValidateStructure", func(d *Data) error { return Validate(d, ValidateStructure) }},
	{"ValidateSafe", func(d *Data) error { return Validate(d, ValidateSafe) }},
	{"ValidateFull", func(d *Data) error { return Validate(d, ValidateFull) }},
}

func TestValidateFaults(t *testing.T) {
	d128 := func(v int64) datatype.Decimal128 { return datatype.Decimal128{Lo: uint64(v), Hi: v >> 63} }
	tests := []struct {
		name  string
		data  func() *Data
		level level
		want  string
	}{
		// binary and utf8
		{"decreasing offsets", func() *Data {
			return inCol("s", binData(datatype.String, "", []int32{0, 3, 1, 4}, "abcd"))
		}, safe, "array: s[1]: end offset 1 is before start offset 3"},
		{"negative first offset", func() *Data {
			return binData(datatype.Binary, "", []int32{-1, 3}, "abcd")
		}, safe, "array: [0]: offset -1 is negative"},
		{"offset past data end", func() *Data {
			return binData(datatype.String, "", []int32{0, 1, 3, 9}, "abcd")
		}, safe, "array: [2]: offset 9 beyond data length 4"},
		{"large offsets decreasing", func() *Data {
			return binData(datatype.LargeBinary, "", []int64{0, 2, 2, 1}, "ab")
		}, safe, "array: [2]: end offset 1 is before start offset 2"},
		{"bad utf8", func() *Data {
			return inCol("s", binData(datatype.String, "", []int32{0, 1, 3}, "a\xff\xfe"))
		}, full, `array: s[1]: invalid UTF-8 "\xff\xfe"`},
		{"utf8 split inside a character", func() *Data {
			return binData(datatype.String, "", []int32{0, 1, 2}, "é")
		}, full, `array: [0]: invalid UTF-8 "\xc3"`},
		{"bad large utf8", func() *Data {
			return binData(datatype.LargeString, "", []int64{0, 1, 2}, "a\x80")
		}, full, `array: [1]: invalid UTF-8 "\x80"`},
		{"data buffer missing", func() *Data {
			d := strs("", "ab")
			d.Buffers[2] = nil
			return d
		}, safe, "array: [0]: offset 2 beyond data length 0"},

		// lists
		{"list offset past child", func() *Data {
			return inCol("l", listData(tListI32, "", []int32{0, 2, 5}, i32s("", 1, 2, 3, 4)))
		}, safe, "array: l[1]: offset 5 beyond child length 4"},
		{"large list offsets decreasing", func() *Data {
			return listData(tLListI32, "", []int64{0, 3, 2}, i32s("", 1, 2, 3))
		}, safe, "array: [1]: end offset 2 is before start offset 3"},
		{"list-view offset+size past child", func() *Data {
			return listViewData(tLViewI32, "", []int32{0, 2}, []int32{2, 3}, i32s("", 1, 2, 3, 4))
		}, safe, "array: [1]: list-view offset 2 + size 3 beyond child length 4"},
		{"list-view negative size", func() *Data {
			return listViewData(tLViewI32, "01", []int32{0, 0}, []int32{1, -1}, i32s("", 1))
		}, safe, "array: [1]: list-view size -1 is negative"},
		{"list-view negative offset", func() *Data {
			return listViewData(tLLViewI32, "", []int64{-3}, []int64{1}, i32s("", 1))
		}, safe, "array: [0]: list-view offset -3 is negative"},
		{"large list-view offset+size overflow", func() *Data {
			return listViewData(tLLViewI32, "", []int64{1}, []int64{math.MaxInt64}, i32s("", 1))
		}, safe, "array: [0]: list-view offset 1 + size 9223372036854775807 beyond child length 1"},
		{"fixed-size list child too short", func() *Data {
			return structData(tFSLI32, "", 2, i32s("", 1, 2, 3))
		}, structural, "array: item: child length 3 shorter than 2 lists of 2"},

		// views
		{"view buffer index out of range", func() *Data {
			return inCol("v", viewData(datatype.StringView, "", [][]byte{mkView("short", 0, 0), mkView("a long value here", 1, 0)}, "a long value here"))
		}, safe, "array: v[1]: view buffer index 1 out of range [0, 1)"},
		{"view offset past buffer", func() *Data {
			return viewData(datatype.BinaryView, "", [][]byte{mkView("a long value here", 0, 2)}, "a long value here")
		}, safe, "array: [0]: view range [2, 19) beyond data buffer 0 of 17 bytes"},
		{"view negative length", func() *Data {
			v := mkView("", 0, 0)
			binary.LittleEndian.PutUint32(v, uint32(0xffffffff))
			return viewData(datatype.BinaryView, "", [][]byte{v})
		}, safe, "array: [0]: view length -1 is negative"},
		{"view negative offset", func() *Data {
			return viewData(datatype.BinaryView, "", [][]byte{mkView("a long value here", 0, -1)}, "a long value here")
		}, safe, "array: [0]: view range [-1, 16) beyond data buffer 0 of 17 bytes"},
		{"view bad prefix", func() *Data {
			v := mkView("a long value here", 0, 0)
			copy(v[4:8], "XXXX")
			return viewData(datatype.BinaryView, "", [][]byte{mkView("inline", 0, 0), v}, "a long value here")
		}, full, `array: [1]: view prefix "XXXX" differs from the value's "a lo"`},
		{"view bad utf8", func() *Data {
			return viewData(datatype.StringView, "", [][]byte{mkView("ok", 0, 0), mkView("bad \xff", 0, 0)})
		}, full, `array: [1]: invalid UTF-8 "bad \xff"`},
		{"view bad long utf8", func() *Data {
			return viewData(datatype.StringView, "", [][]byte{mkView("long enough \xff value", 0, 0)}, "long enough \xff value")
		}, full, `array: [0]: invalid UTF-8 "long enough \xff value"`},

		// unions
		{"undeclared union type code", func() *Data {
			return inCol("u", unionData(tSparse, []int8{5, 6}, nil, i32s("", 1, 2), strs("", "a", "b")))
		}, safe, "array: u[1]: type code 6 not declared by sparse_union<i: int32=5, s: utf8=7>"},
		{"negative union type code", func() *Data {
			return unionData(tDense, []int8{-1}, []int32{0}, i32s("", 1), strs(""))
		}, safe, "array: [0]: type code -1 not declared by dense_union<i: int32=5, s: utf8=7>"},
		{"dense offset out of range", func() *Data {
			return unionData(tDense, []int8{5, 7, 7}, []int32{0, 0, 1}, i32s("", 1), strs("", "a"))
		}, safe, `array: [2]: offset 1 out of range [0, 1) of child "s" (type code 7)`},
		{"dense negative offset", func() *Data {
			return unionData(tDense, []int8{5}, []int32{-1}, i32s("", 1), strs(""))
		}, safe, `array: [0]: offset -1 out of range [0, 1) of child "i" (type code 5)`},
		{"sparse union child too short", func() *Data {
			return unionData(tSparse, []int8{5, 5}, nil, i32s("", 1, 2), strs("", "a"))
		}, structural, "array: s: child length 1 shorter than parent's offset+length 2"},
		// A union's null count carries no meaning: any count in
		// [0, length] passes every level (see Union.NullN).
		{"union null count", func() *Data {
			d := unionData(tSparse, []int8{5}, nil, i32s("0", 1), strs("", "a"))
			d.NullCount = 1
			return d
		}, none, ""},
		{"dense union null count", func() *Data {
			d := unionData(tDense, []int8{5, 7}, []int32{0, 0}, i32s("0", 1), strs("0", "a"))
			d.NullCount = 2
			return d
		}, none, ""},
		{"union null count beyond length", func() *Data {
			d := unionData(tSparse, []int8{5}, nil, i32s("0", 1), strs("", "a"))
			d.NullCount = 2
			return d
		}, structural, "array: null count 2 out of range for length 1"},

		// dictionaries
		{"dictionary index out of range", func() *Data {
			return inCol("d", dictData(tDictStr, "", []int8{0, 1, 2}, strs("", "a", "b")))
		}, safe, "array: d[2]: dictionary index 2 out of range [0, 2)"},
		{"negative dictionary index", func() *Data {
			return dictData(tDictStr, "", []int8{0, -1}, strs("", "a"))
		}, safe, "array: [1]: dictionary index -1 out of range [0, 1)"},
		{"dictionary values invalid", func() *Data {
			return dictData(tDictStr, "", []int8{0}, binData(datatype.String, "", []int32{0, 5}, "ab"))
		}, safe, "array: <dictionary>[0]: offset 5 beyond data length 2"},
		{"dictionary of wrong type", func() *Data {
			return dictData(tDictStr, "", []int8{0}, i32s("", 1))
		}, structural, "array: dictionary of type int32, want utf8"},

		// run-end encoding
		{"run end 0", func() *Data {
			return inCol("r", reeData(tREE, 3, []int32{0, 3}, strs("", "a", "b")))
		}, safe, "array: r.run_ends[0]: run end 0 is not positive"},
		{"run ends not increasing", func() *Data {
			return reeData(tREE, 5, []int32{2, 4, 4, 5}, strs("", "a", "b", "c", "d"))
		}, safe, "array: run_ends[2]: run end 4 not greater than the previous 4"},
		{"run ends too short", func() *Data {
			return reeData(tREE, 5, []int32{2, 4}, strs("", "a", "b"))
		}, safe, "array: last run end 4 short of offset+length 5"},
		{"run ends too short for the offset", func() *Data {
			return reeData(tREE, 4, []int32{2, 4}, strs("", "a", "b")).Slice(1, 4)
		}, none, ""}, // valid: offset 1 + length 3 = 4
		{"run-end values too few", func() *Data {
			return reeData(tREE, 4, []int32{2, 4}, strs("", "a"))
		}, structural, "array: values: 1 values for 2 runs"},
		{"no run ends", func() *Data {
			return reeData(tREE, 4, []int32{}, strs(""))
		}, structural, "array: run_ends: no run ends for 4 slots"},
		{"null run end", func() *Data {
			d := reeData(tREE, 2, []int32{2}, strs("", "a"))
			d.Children[0].Buffers[0] = vbits("0")
			d.Children[0].NullCount = 1
			return d
		}, structural, "array: run_ends: run ends hold 1 nulls"},
		{"run-end parent null count", func() *Data {
			d := reeData(tREE, 2, []int32{2}, strs("0", "a"))
			d.NullCount = 2
			return d
		}, full, "array: null count 2, want 0 (run_end_encoded has no validity bitmap)"},

		// null counts
		{"null count mismatch", func() *Data {
			d := i32s("1011", 1, 2, 3, 4)
			d.NullCount = 2
			return inCol("x", d)
		}, full, "array: x: null count 2, but the validity bitmap has 1 nulls"},
		{"null count of a slice", func() *Data {
			d := i32s("10110", 1, 2, 3, 4, 5).Slice(1, 4)
			d.NullCount = 0
			return d
		}, full, "array: null count 0, but the validity bitmap has 1 nulls"},
		{"null array null count", func() *Data {
			return &Data{Type: datatype.Null, Length: 3, NullCount: 1}
		}, full, "array: null count 1, want 3 (every slot of a null array is null)"},
		{"nulls without bitmap", func() *Data {
			d := i32s("", 1, 2)
			d.NullCount = 1
			return d
		}, structural, "array: null count 1 but no validity bitmap"},

		// structs and maps
		{"struct child too short", func() *Data {
			st := datatype.StructOf(field("a", datatype.Int32), field("b", datatype.String))
			return inCol("col1", structData(st, "", 3, i32s("", 1, 2, 3), strs("", "x", "y")))
		}, structural, "array: col1.b: child length 2 shorter than parent's offset+length 3"},
		{"map null key", func() *Data {
			entries := structData(tMapSI.Entries().Type, "", 3, strs("101", "a", "", "c"), i32s("", 1, 2, 3))
			return inCol("m", listData(tMapSI, "", []int32{0, 1, 3}, entries))
		}, full, "array: m[1]: map key at entry 1 is null"},
		{"map null key in a null slot is fine", func() *Data {
			entries := structData(tMapSI.Entries().Type, "", 3, strs("101", "a", "", "c"), i32s("", 1, 2, 3))
			return listData(tMapSI, "101", []int32{0, 1, 2, 3}, entries)
		}, none, ""},
		{"map entries offsets past child", func() *Data {
			entries := structData(tMapSI.Entries().Type, "", 1, strs("", "a"), i32s("", 1))
			return listData(tMapSI, "", []int32{0, 2}, entries)
		}, safe, "array: [0]: offset 2 beyond child length 1"},
		{"nested path", func() *Data {
			inner := inCol("b", binData(datatype.String, "", []int32{0, 1, 2, 17}, "abcdefghijkl"))
			return inCol("col1", inner)
		}, safe, "array: col1.b[2]: offset 17 beyond data length 12"},

		// decimals
		{"decimal beyond precision", func() *Data {
			return primData(tDec, "", d128(9999), d128(-10000))
		}, full, "array: [1]: value -100.00 does not fit precision 4"},
		{"decimal beyond precision in a null slot is fine", func() *Data {
			return primData(tDec, "10", d128(9999), d128(-10000))
		}, none, ""},
		{"decimal64 beyond precision", func() *Data {
			return primData(tDec64, "", datatype.Decimal64(999), datatype.Decimal64(1000))
		}, full, "array: [1]: value 100.0 does not fit precision 3"},

		// structure
		{"negative length", func() *Data {
			return &Data{Type: datatype.Int32, Length: -1, Buffers: make([]*memory.Buffer, 2)}
		}, structural, "array: length -1 and offset 0 out of range"},
		{"huge length", func() *Data {
			return &Data{Type: datatype.Int64, Length: math.MaxInt64, Buffers: make([]*memory.Buffer, 2)}
		}, structural, "array: length 9223372036854775807 and offset 0 out of range"},
		{"huge offset", func() *Data {
			return &Data{Type: datatype.Int64, Length: 1, Offset: 1 << 61, Buffers: make([]*memory.Buffer, 2)}
		}, structural, "array: buffer 1 too large for length 1"},
		{"values too short", func() *Data {
			d := i32s("", 1, 2, 3)
			d.Length = 4
			return d
		}, structural, "array: buffer 1 (values) has 12 bytes, needs 16 for 4 slots at offset 0"},
		{"missing buffers", func() *Data {
			return &Data{Type: datatype.String, Length: 1}
		}, structural, "array: utf8 has 0 buffers, want 3"},
		{"missing child", func() *Data {
			return &Data{Type: tListI32, Buffers: make([]*memory.Buffer, 2), Children: []*Data{nil}}
		}, structural, "array: item: missing child data"},
		{"missing type", func() *Data { return &Data{} }, structural, "array: missing type"},
		{"nil data", func() *Data { return nil }, structural, "array: missing data"},
		{"self-referential dictionary type", func() *Data {
			dt := &datatype.DictionaryType{Index: datatype.Int8}
			dt.Value = dt
			return &Data{Type: dt, Buffers: make([]*memory.Buffer, 2)}
		}, structural, "array: type nested deeper than 64"},
		{"dictionary with float index", func() *Data {
			return &Data{Type: &datatype.DictionaryType{Index: datatype.Float32, Value: datatype.Int8}}
		}, structural, "array: dictionary index type float32 is not an integer type"},
		{"negative fixed_size_binary width", func() *Data {
			return &Data{Type: &datatype.FixedSizeBinaryType{ByteWidth: -2}, Length: 1, Buffers: make([]*memory.Buffer, 2)}
		}, structural, "array: fixed_size_binary width -2 is negative"},
		{"foreign type claiming a parameterised kind", func() *Data {
			return &Data{Type: fakeType{datatype.KindStruct}}
		}, structural, "array: type array.fakeType cannot be of kind struct"},
		{"unknown kind", func() *Data {
			return &Data{Type: fakeType{datatype.KindExtension + 1}}
		}, structural, "array: unknown type kind kind(45)"},
		{"extension without storage", func() *Data {
			return &Data{Type: vExt{}}
		}, structural, "array: extension storage: missing type"},
		{"decimal precision out of range", func() *Data {
			return &Data{Type: &datatype.DecimalType{BitWidth: 32, Precision: 10}}
		}, structural, "array: decimal of bit width 32 and precision 10"},
		{"child type differs", func() *Data {
			return listData(tListI32, "", []int32{0}, primData[int64](datatype.Int64, ""))
		}, structural, "array: item: child of type int64, want int32"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for lv, v := range validators {
				err := v.fn(tc.data())
				if level(lv) < tc.level {
					require.NoError(t, err, v.name)
					continue
				}
				require.Error(t, err, v.name)
				require.Equal(t, tc.want, err.Error(), v.name)
				var ve *ValidationError
				require.True(t, errors.As(err, &ve), v.name)
				require.ErrorIs(t, err, ErrInvalid, v.name)
			}
		})
	}
}

// fakeType is a type from outside package datatype.
type fakeType struct{ k datatype.Kind }

func (f fakeType) Kind() datatype.Kind { return f.k }
func (f fakeType) String() string      { return "fake" }

// vExt is an extension type over the given storage.
type vExt struct{ storage datatype.DataType }

func (e vExt) Kind() datatype.Kind                        { return datatype.KindExtension }
func (e vExt) String() string                             { return "ext<" + e.ExtensionName() + ">" }
func (e vExt) ExtensionName() string                      { return "test.ext" }
func (e vExt) StorageType() datatype.DataType             { return e.storage }
func (e vExt) Serialize() string                          { return "" }
func (e vExt) ExtensionEqual(datatype.ExtensionType) bool { return true }
func (e vExt) Deserialize(s datatype.DataType, _ string) (datatype.ExtensionType, error) {
	return vExt{s}, nil
}

// validFixtures returns one valid array of every layout, some sliced.
func validFixtures() map[string]*Data {
	sparse := unionData(tSparse, []int8{5, 7, 7, 5}, nil, i32s("1001", 1, 0, 0, 4), strs("0110", "", "b", "c", ""))
	dense := unionData(tDense, []int8{5, 7, 7, 5}, []int32{0, 0, 1, 1}, i32s("10", 1, 0), strs("", "b", "c"))
	entries := structData(tMapSI.Entries().Type, "", 3, strs("", "a", "b", "c"), i32s("101", 1, 0, 3))
	st := datatype.StructOf(field("a", datatype.Int32), field("b", datatype.String))
	return map[string]*Data{
		"null":        {Type: datatype.Null, Length: 3, NullCount: 3},
		"bool":        NewData(datatype.Bool, 4, []*memory.Buffer{vbits("1101"), memory.NewBuffer([]byte{0b1011})}, nil, UnknownNullCount, 0),
		"int32":       i32s("1101", 1, 2, 3, 4),
		"int64 slice": primData(datatype.Int64, "", int64(1), 2, 3, 4, 5).Slice(1, 4),
		"float64":     primData(datatype.Float64, "", 1.5, math.NaN(), math.Inf(-1)),
		"decimal":     primData(tDec, "01", datatype.Decimal128{Lo: 1}, datatype.Decimal128{Lo: math.MaxUint64, Hi: -1}),
		"fsb":         primData(mustT(datatype.NewFixedSizeBinary(2)), "", [2]byte{'a', 'b'}, [2]byte{'c', 'd'}),
		"utf8":        strs("1101", "a", "é", "", "xyz"),
		"utf8 slice":  strs("", "a", "é", "", "xyz").Slice(1, 3),
		"large_utf8":  binData(datatype.LargeString, "", []int64{2, 3, 5}, "..aé"),
		"utf8_view": viewData(datatype.StringView, "101", [][]byte{
			mkView("short", 0, 0), mkView("", 0, 0), mkView("a long value here", 1, 3)}, "unused", "...a long value here"),
		"empty binary without offsets": NewData(datatype.Binary, 0, []*memory.Buffer{nil, nil, nil}, nil, 0, 0),
		"list":                         listData(tListI32, "101", []int32{0, 2, 2, 5}, i32s("", 1, 2, 3, 4, 5)),
		"large_list":                   listData(tLListI32, "", []int64{1, 2, 5}, i32s("11011", 1, 2, 3, 4, 5)).Slice(1, 2),
		"list_view":                    listViewData(tLViewI32, "110", []int32{3, 0, 99}, []int32{2, 3, -5}, i32s("", 1, 2, 3, 4, 5)).Slice(0, 2),
		"large_list_view":              listViewData(tLLViewI32, "", []int64{3, 0}, []int64{2, 3}, i32s("", 1, 2, 3, 4, 5)),
		"fixed_size_list":              structData(tFSLI32, "101", 3, i32s("", 1, 2, 3, 4, 5, 6)),
		"struct":                       structData(st, "110", 3, i32s("", 1, 2, 3), strs("", "x", "y", "z")),
		"map":                          listData(tMapSI, "", []int32{0, 2, 3}, entries),
		"sparse_union":                 sparse,
		"dense_union":                  dense,
		"dense slice":                  dense.Slice(1, 3),
		"dictionary":                   dictData(tDictStr, "1101", []int8{1, 0, 99, 1}, strs("", "a", "b")),
		"run_end_encoded":              reeData(tREE, 6, []int32{2, 3, 6}, strs("010", "a", "", "c")),
		"ree slice":                    reeData(tREE, 6, []int32{2, 3, 6}, strs("010", "a", "", "c")).Slice(1, 5),
		"extension":                    func() *Data { d := i32s("01", 1, 2); d.Type = vExt{datatype.Int32}; return d }(),
	}
}

func TestValidateAcceptsValidData(t *testing.T) {
	for name, d := range validFixtures() {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, Validate(d, ValidateFull))
			a := MustMake(d)
			require.NotPanics(t, func() { _ = Format(a) })
		})
	}
}

// TestValidateNeverPanics feeds Validate degenerate Data: nil buffers and
// children everywhere, negative and huge numbers.
func TestValidateNeverPanics(t *testing.T) {
	types := []datatype.DataType{datatype.Null, datatype.Bool, datatype.Int32, datatype.String, datatype.LargeBinary,
		datatype.StringView, tListI32, tLListI32, tLViewI32, tFSLI32, tMapSI, tSparse, tDense, tDictStr, tREE, tDec,
		datatype.StructOf(field("a", datatype.Int8)), vExt{datatype.String}, vExt{}}
	nums := []int{0, 1, 3, -1, math.MaxInt64, math.MinInt64, 1 << 40}
	for _, typ := range types {
		for _, length := range nums {
			for _, off := range nums {
				for _, nb := range []int{0, 1, 2, 3, 4} {
					d := &Data{Type: typ, Length: length, Offset: off, NullCount: length, Buffers: make([]*memory.Buffer, nb),
						Children: make([]*Data, len(datatype.Children(typ))), Dictionary: &Data{}}
					for _, v := range validators {
						require.NotPanics(t, func() { _ = v.fn(d) }, "%s %s len %d off %d", v.name, typ, length, off)
					}
				}
			}
		}
	}
}

// fuzzTypes are the types FuzzValidate builds data of.
var fuzzTypes = []datatype.DataType{
	datatype.Int32, datatype.String, tListI32, datatype.StringView, tDense, tSparse, tDictStr,
	mustT(datatype.NewRunEndEncoded(datatype.Int16, datatype.Int32)), tLViewI32,
	datatype.StructOf(field("a", datatype.Int32), field("b", datatype.String)), tMapSI, datatype.Bool, tDec,
	datatype.LargeString, tFSLI32, datatype.Null, tLListI32, vExt{datatype.String},
}

// fuzzSource hands out the fuzzer's bytes; past the end it gives zeros.
type fuzzSource struct{ b []byte }

func (s *fuzzSource) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *fuzzSource) bytes(n int) []byte {
	n = min(n, len(s.b))
	out := memory.Allocate(nil, n).Bytes()
	copy(out, s.b[:n])
	s.b = s.b[n:]
	return out
}

// num reads a small number, now and then a nasty one.
func (s *fuzzSource) num(mod int) int {
	switch c := s.byte(); c {
	case 255:
		return -1
	case 254:
		return 1 << 40
	case 253:
		return math.MaxInt
	default:
		return int(c) % mod
	}
}

// data builds Data of type t: length, offset, null count, each buffer's
// bytes and the children all come from the fuzzer.
func (s *fuzzSource) data(t datatype.DataType, depth int) *Data {
	d := &Data{Type: t, Length: s.num(12), Offset: s.num(4), NullCount: s.num(5)}
	st := datatype.StorageOf(t)
	lay := datatype.LayoutOf(st)
	nb := len(lay.Buffers)
	if lay.Variadic {
		nb += int(s.byte() % 3)
	}
	if s.byte() == 7 {
		nb++ // a wrong number of buffers
	}
	for range nb {
		if n := s.num(200); n >= 0 && n < 200 {
			d.Buffers = append(d.Buffers, memory.NewBuffer(s.bytes(n)))
		} else {
			d.Buffers = append(d.Buffers, nil)
		}
	}
	if depth < 3 {
		for _, f := range datatype.Children(st) {
			d.Children = append(d.Children, s.data(f.Type, depth+1))
		}
		if dt, ok := st.(*datatype.DictionaryType); ok {
			d.Dictionary = s.data(dt.Value, depth+1)
		}
	}
	if d.NullCount == 4 && d.Length >= 0 && d.Length < 100 && d.Offset >= 0 && d.Offset < 100 {
		d.NullCount = countNulls(d)
	}
	return d
}

// exercise calls every accessor of a on every slot, recursively.
func exercise(a Array, depth int) {
	if a.Len() > 100 {
		a = Slice(a, 0, 100)
	}
	_ = Format(a)
	if depth > 4 {
		return
	}
	for i := range min(a.Len(), 100) { // a null array may be huge
		_, _ = a.IsNull(i), a.IsValid(i)
		_ = FormatValue(a, i)
		switch a := a.(type) {
		case *Binary[int32]:
			_, _, _ = a.Value(i), a.ValueString(i), a.ValueLen(i)
		case *Binary[int64]:
			_, _, _ = a.Value(i), a.ValueString(i), a.ValueLen(i)
		case *BinaryView:
			_, _, _ = a.Value(i), a.ValueString(i), a.ValueLen(i)
		case ListLike:
			exercise(Slice(a.ListValues(), 0, 0), depth+1)
			type valuer interface{ Value(int) Array }
			if v, ok := a.(valuer); ok {
				exercise(v.Value(i), depth+1)
			}
		case *Union:
			_, _, _ = a.TypeCode(i), a.ChildIndex(i), a.ValueOffset(i)
		case *Dictionary:
			if a.IsValid(i) {
				_ = a.Dictionary().IsNull(a.ValueIndex(i))
			}
		case *RunEndEncoded:
			_ = a.Values().IsNull(a.PhysicalIndex(i))
		}
	}
	switch a := a.(type) {
	case ListLike:
		exercise(a.ListValues(), depth+1)
	case *Struct:
		for j := range a.NumField() {
			exercise(a.Field(j), depth+1)
		}
	case *Union:
		for j := range a.NumChildren() {
			exercise(a.Child(j), depth+1)
		}
	case *Dictionary:
		exercise(a.Indices(), depth+1)
		exercise(a.Dictionary(), depth+1)
	case *RunEndEncoded:
		exercise(a.RunEnds(), depth+1)
		exercise(a.Values(), depth+1)
	case *Extension:
		exercise(a.Storage(), depth+1)
	}
}

// FuzzValidate builds Data of a few types from fuzzed lengths, offsets,
// null counts and buffer bytes, and checks that no validation level
// panics; that data passing ValidateSafe makes an array whose accessors
// and printing do not panic; and that data passing ValidateFull stays
// valid when sliced and concatenated back, equal to itself.
func FuzzValidate(f *testing.F) {
	for k := range fuzzTypes {
		f.Add(uint8(k), []byte{3, 0, 0, 0, 1, 0x07, 16, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 'a', 'b', 'c', 'd', 3, 0, 0, 0, 1, 0xff})
		f.Add(uint8(k), []byte{2, 1, 4, 0, 1, 0x05, 12, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 6, 5, 'a', 'b', 'c', 'd', 'e'})
		f.Add(uint8(k), []byte{})
	}
	f.Fuzz(func(t *testing.T, kind uint8, raw []byte) {
		src := &fuzzSource{b: raw}
		d := src.data(fuzzTypes[int(kind)%len(fuzzTypes)], 0)
		var errs [3]error
		for i, v := range validators {
			require.NotPanics(t, func() { errs[i] = v.fn(d) }, v.name)
		}
		if errs[1] != nil {
			require.Error(t, errs[2], "ValidateFull passes what ValidateSafe rejects")
			return
		}
		require.NoError(t, errs[0])
		a := MustMake(d)
		require.NotPanics(t, func() { exercise(a, 0) })
		if errs[2] != nil {
			return
		}
		n := a.Len()
		require.True(t, Equal(a, a))
		for _, cut := range [][2]int{{0, n / 2}, {n / 2, n}, {n / 3, n}} {
			require.NoError(t, Validate(Slice(a, cut[0], cut[1]).Data(), ValidateFull), "slice %v", cut)
		}
		c, err := Concatenate(Slice(a, 0, n/3), Slice(a, n/3, n))
		require.NoError(t, err)
		require.NoError(t, Validate(c.Data(), ValidateFull))
		if i, desc, eq := FirstDifference(a, c); !eq {
			t.Fatalf("concatenated halves differ at %d: %s", i, desc)
		}
	})
}

// TestValidateWithDictionariesValidated: the option leaves out the
// dictionary's values, never the indices into it.
func TestValidateWithDictionariesValidated(t *testing.T) {
	badUTF8 := dictData(tDictStr, "", []int8{0, 1}, strs("", "a", "\xff"))
	badOffsets := dictData(tDictStr, "", []int8{0}, binData(datatype.String, "", []int32{0, 5}, "ab"))
	badIndex := dictData(tDictStr, "", []int8{0, 2}, strs("", "a", "b"))
	for _, c := range []struct {
		name          string
		d             *Data
		opts          ValidationOptions
		wantErr       bool
		wantErrAsSafe bool // what ValidateSafe / ValidateFull say
	}{
		{"bad UTF-8, full", badUTF8, ValidationOptions{Level: ValidateFull}, true, true},
		{"bad UTF-8, full, dictionaries validated", badUTF8, ValidationOptions{Level: ValidateFull, DictionariesValidated: true}, false, true},
		{"bad UTF-8, safe", badUTF8, ValidationOptions{Level: ValidateSafe}, false, false},
		{"bad offsets, safe", badOffsets, ValidationOptions{Level: ValidateSafe}, true, true},
		{"bad offsets, dictionaries validated", badOffsets, ValidationOptions{Level: ValidateSafe, DictionariesValidated: true}, false, true},
		{"index out of range, dictionaries validated", badIndex, ValidationOptions{Level: ValidateSafe, DictionariesValidated: true}, true, true},
		{"index out of range, full, dictionaries validated", badIndex, ValidationOptions{Level: ValidateFull, DictionariesValidated: true}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateWith(c.d, c.opts)
			require.Equal(t, c.wantErr, err != nil, "ValidateWith: %v", err)
			a, merr := MakeWith(c.d, c.opts)
			require.Equal(t, err, merr, "MakeWith")
			require.Equal(t, c.wantErr, a == nil)
			require.Equal(t, c.wantErrAsSafe, Validate(c.d, c.opts.Level) != nil)
		})
	}
}
