package datatype

import (
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func mustT[T any](t T, err error) T {
	if err != nil {
		panic(err)
	}
	return t
}

func TestString(t *testing.T) {
	dense := mustT(NewUnion(Dense, []Field{{Name: "a", Type: Int32, Nullable: true}, {Name: "b", Type: String, Nullable: true}}, []int8{5, 7}))
	tests := []struct {
		t    DataType
		want string
	}{
		{Null, "null"}, {Bool, "bool"}, {Int8, "int8"}, {Uint64, "uint64"}, {Float16Type, "float16"},
		{String, "utf8"}, {LargeBinary, "large_binary"}, {StringView, "utf8_view"},
		{Date32Type, "date32"}, {MonthDayNanoIntervalType, "month_day_nano_interval"},
		{mustT(NewTime(Millisecond)), "time32[ms]"},
		{mustT(NewTime(Nanosecond)), "time64[ns]"},
		{mustT(NewTimestamp(Microsecond, "UTC")), "timestamp[us, tz=UTC]"},
		{mustT(NewTimestamp(Second, "")), "timestamp[s]"},
		{mustT(NewDuration(Nanosecond)), "duration[ns]"},
		{mustT(NewDecimal(128, 38, 10)), "decimal128(38, 10)"},
		{mustT(NewFixedSizeBinary(16)), "fixed_size_binary[16]"},
		{ListOf(Int32), "list<item: int32>"},
		{LargeListViewOf(Int8), "large_list_view<item: int8>"},
		{mustT(FixedSizeListOfField(Field{Name: "x", Type: Uint8}, 4)), "fixed_size_list<x: uint8 not null>[4]"},
		{StructOf(Field{Name: "a", Type: Binary, Nullable: true}, Field{Name: "b", Type: Int32}), "struct<a: binary, b: int32 not null>"},
		{MapOf(String, Int64, true), "map<utf8, int64, keys_sorted>"},
		{dense, "dense_union<a: int32=5, b: utf8=7>"},
		{mustT(NewDictionary(Int16, String, true)), "dictionary<values=utf8, indices=int16, ordered>"},
		{mustT(NewRunEndEncoded(Int32, Float32)), "run_end_encoded<run_ends: int32, values: float32>"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.t.String())
	}
}

func TestInvalidParameters(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"dict float index", second(NewDictionary(Float64, String, false)), "dictionary index type float64 is not an integer type"},
		{"dict nil value", second(NewDictionary(Int8, nil, false)), "dictionary value type is missing"},
		{"ree int8", second(NewRunEndEncoded(Int8, String)), "run-end type int8 (want int16, int32 or int64)"},
		{"ree uint32", second(NewRunEndEncoded(Uint32, String)), "run-end type uint32"},
		{"decimal precision 0", second(NewDecimal(128, 0, 0)), "decimal128 precision 0 out of range [1, 38]"},
		{"decimal32 precision 10", second(NewDecimal(32, 10, 2)), "decimal32 precision 10 out of range [1, 9]"},
		{"decimal256 precision 77", second(NewDecimal(256, 77, 2)), "out of range [1, 76]"},
		{"decimal width", second(NewDecimal(100, 5, 2)), "decimal bit width 100"},
		{"fsb negative", second(NewFixedSizeBinary(-1)), "fixed_size_binary width -1 is negative"},
		{"fsl negative", second(FixedSizeListOf(Int8, -2)), "fixed_size_list size -2 is negative"},
		{"union dup code", second(NewUnion(Sparse, []Field{{Name: "a", Type: Int8}, {Name: "b", Type: Int8}}, []int8{1, 1})), "union type code 1 used twice"},
		{"union neg code", second(NewUnion(Sparse, []Field{{Name: "a", Type: Int8}}, []int8{-3})), "union type code -3 is negative"},
		{"union code count", second(NewUnion(Dense, []Field{{Name: "a", Type: Int8}}, []int8{1, 2})), "1 fields but 2 type codes"},
		{"time unit", second(NewTime(9)), "time unit 9"},
		{"int width", second(IntType(24, true)), "integer bit width 24"},
		{"map nullable key", second(MapOfFields(Field{Name: "k", Type: String, Nullable: true}, Field{Name: "v", Type: Int8}, false)), `map key field "k" must not be nullable`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			require.True(t, errors.Is(tc.err, ErrInvalid))
			require.Contains(t, tc.err.Error(), tc.want)
		})
	}
}

func second[T any](_ T, err error) error { return err }

func TestEqual(t *testing.T) {
	a := StructOf(Field{Name: "x", Type: ListOf(Int32), Nullable: true, Metadata: MetadataFrom("k", "v")})
	b := StructOf(Field{Name: "y", Type: ListOf(Int32), Nullable: true})
	require.True(t, Equal(a, a))
	require.False(t, Equal(a, b))
	require.False(t, Equal(a, b, IgnoreFieldNames()))
	require.True(t, Equal(a, b, IgnoreFieldNames(), IgnoreMetadata()))
	require.False(t, Equal(Int32, Int64))
	require.False(t, Equal(mustT(NewTimestamp(Second, "UTC")), mustT(NewTimestamp(Second, ""))))
	require.True(t, Equal(mustT(NewDecimal(64, 10, 2)), mustT(NewDecimal(64, 10, 2))))
	require.False(t, Equal(ListOf(Int8), LargeListOf(Int8)))
	require.False(t, Equal(mustT(FixedSizeListOf(Int8, 2)), mustT(FixedSizeListOf(Int8, 3))))
	require.False(t, Equal(MapOf(String, Int8, true), MapOf(String, Int8, false)))
	require.True(t, Equal(nil, nil))
	require.False(t, Equal(Int8, nil))
}

func TestLayout(t *testing.T) {
	require.Equal(t, Layout{Buffers: []BufferSpec{{Kind: BufferValidity}, {Kind: BufferFixedWidth, ByteWidth: 4}}}, LayoutOf(Int32))
	require.Equal(t, 3, len(LayoutOf(String).Buffers))
	require.True(t, LayoutOf(StringView).Variadic)
	require.Empty(t, LayoutOf(Null).Buffers)
	require.Empty(t, LayoutOf(mustT(NewRunEndEncoded(Int16, Int8))).Buffers)
	require.Equal(t, []BufferSpec{{Kind: BufferFixedWidth, ByteWidth: 1}}, LayoutOf(mustT(NewUnion(Sparse, nil, nil))).Buffers)
	require.Equal(t, 2, len(LayoutOf(mustT(NewUnion(Dense, nil, nil))).Buffers))
	require.Equal(t, 3, len(LayoutOf(ListViewOf(Int8)).Buffers))
	require.Equal(t, 16, ByteWidth(mustT(NewDecimal(128, 5, 0))))
	require.Equal(t, 32, ByteWidth(mustT(NewDecimal(256, 5, 0))))
	require.Equal(t, 16, ByteWidth(MonthDayNanoIntervalType))
	require.Equal(t, 2, ByteWidth(mustT(NewDictionary(Int16, String, false))))
	require.True(t, IsFixedWidth(Bool))
	require.False(t, IsFixedWidth(String))
}

func TestMetadata(t *testing.T) {
	m := MetadataFrom("a", "1", "b", "2")
	require.Equal(t, 2, m.Len())
	v, ok := m.Get("b")
	require.True(t, ok)
	require.Equal(t, "2", v)
	m2 := m.With("a", "x").With("c", "3")
	require.Equal(t, []string{"a", "b", "c"}, m2.Keys())
	require.Equal(t, []string{"x", "2", "3"}, m2.Values())
	require.Equal(t, "1", m.Value(0), "With copies")
	require.Equal(t, []string{"b"}, m2.Without("a", "c").Keys())
	require.Equal(t, `{"a": "1", "b": "2"}`, m.String())
	require.True(t, m.Equal(NewMetadata([]string{"a", "b"}, []string{"1", "2"})))
	require.False(t, m.Equal(Metadata{}))
	n := 0
	for range m.All() {
		n++
	}
	require.Equal(t, 2, n)
}

func TestFloat16(t *testing.T) {
	for _, f := range []float32{0, 1, -2, 0.5, 65504, 6.1035156e-05, 5.9604645e-08, float32(math.Inf(1)), float32(math.Inf(-1))} {
		require.Equal(t, f, Float16From(f).Float32(), "%v", f)
	}
	require.True(t, math.IsNaN(float64(Float16From(float32(math.NaN())).Float32())))
	require.Equal(t, float32(math.Inf(1)), Float16From(1e6).Float32())
	// every half round-trips through float32
	for b := range 1 << 16 {
		h := Float16(b)
		if h>>10&0x1f == 0x1f && h&0x3ff != 0 {
			continue // NaN payloads are normalised
		}
		require.Equal(t, h, Float16From(h.Float32()), "bits %#x", b)
	}
	require.Equal(t, "1.5", Float16From(1.5).String())
}

func TestDecimalValues(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "170141183460469231731687303715884105727", "-170141183460469231731687303715884105728", "-12345678901234567890"} {
		v, _ := new(big.Int).SetString(s, 10)
		require.Equal(t, s, Decimal128FromBig(v).BigInt().String())
		require.Equal(t, s, Decimal256FromBig(v).BigInt().String())
	}
	require.Equal(t, "123.45", FormatDecimal(big.NewInt(12345), 2))
	require.Equal(t, "-0.05", FormatDecimal(big.NewInt(-5), 2))
	require.Equal(t, "1200", FormatDecimal(big.NewInt(12), -2))
}

func TestTemporalValues(t *testing.T) {
	tm := time.Date(2024, 2, 29, 12, 30, 0, 123456789, time.UTC)
	for _, u := range []TimeUnit{Second, Millisecond, Microsecond, Nanosecond} {
		got := TimestampOf(tm, u).Time(u)
		require.Equal(t, tm.Truncate(time.Second/time.Duration(u.PerSecond())), got)
	}
	require.Equal(t, time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC), Date32(1).Time())
	require.Equal(t, time.UnixMilli(86400000).UTC(), Date64(86400000).Time())

	// The last second time.Time holds, and the first it does not.
	last := Timestamp(math.MaxInt64 - 62135596800)
	require.True(t, last.InTimeRange(Second))
	require.Equal(t, int64(last), last.Time(Second).Unix())
	require.False(t, (last + 1).InTimeRange(Second))
	for _, u := range []TimeUnit{Millisecond, Microsecond, Nanosecond} {
		require.True(t, Timestamp(math.MaxInt64).InTimeRange(u), u)
		require.True(t, Timestamp(math.MinInt64).InTimeRange(u), u)
	}
	require.True(t, Timestamp(math.MinInt64).InTimeRange(Second))
	require.Equal(t, int64(math.MinInt64), Timestamp(math.MinInt64).Time(Second).Unix())
}

type testExt struct{ param string }

func (*testExt) Kind() Kind                            { return KindExtension }
func (e *testExt) String() string                      { return ExtensionString(e) }
func (*testExt) ExtensionName() string                 { return "test.ext" }
func (*testExt) StorageType() DataType                 { return Int32 }
func (e *testExt) Serialize() string                   { return e.param }
func (e *testExt) ExtensionEqual(o ExtensionType) bool { return e.param == o.(*testExt).param }
func (*testExt) Deserialize(s DataType, p string) (ExtensionType, error) {
	if !Equal(s, Int32) {
		return nil, invalidf("test.ext storage %v", s)
	}
	return &testExt{p}, nil
}

func TestExtensionRegistry(t *testing.T) {
	require.NoError(t, RegisterExtension(&testExt{}))
	defer UnregisterExtension("test.ext")
	require.Error(t, RegisterExtension(&testExt{}))
	got, ok := LookupExtension("test.ext")
	require.True(t, ok)
	e, err := got.Deserialize(Int32, "p")
	require.NoError(t, err)
	require.Equal(t, "extension<test.ext, int32>", e.String())
	require.True(t, Equal(e, &testExt{"p"}))
	require.False(t, Equal(e, &testExt{"q"}))
	require.Equal(t, Int32, StorageOf(e))
	require.Equal(t, LayoutOf(Int32), LayoutOf(e))
	require.Contains(t, RegisteredExtensions(), "test.ext")
	require.True(t, UnregisterExtension("test.ext"))
	_, ok = LookupExtension("test.ext")
	require.False(t, ok)
}

// TestListElementNameKept: the *OfField constructors keep the element's
// name exactly, an empty one included; only the *Of constructors (no
// name given) name it "item".
func TestListElementNameKept(t *testing.T) {
	for _, name := range []string{"", "item", "element"} {
		f := Field{Name: name, Type: Int32, Nullable: true}
		fsl, err := FixedSizeListOfField(f, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, lt := range []*ListType{ListOfField(f), LargeListOfField(f), ListViewOfField(f), LargeListViewOfField(f), fsl} {
			if got := lt.Elem().Name; got != name {
				t.Errorf("%s: element name %q, want %q", lt.Kind(), got, name)
			}
		}
	}
	fsl, _ := FixedSizeListOf(Int32, 3)
	for _, lt := range []*ListType{ListOf(Int32), LargeListOf(Int32), ListViewOf(Int32), LargeListViewOf(Int32), fsl} {
		if got := lt.Elem().Name; got != "item" {
			t.Errorf("%s: element name %q, want item", lt.Kind(), got)
		}
	}
	if got := ListOfField(Field{Type: Int32}).String(); got != "list<: int32 not null>" {
		t.Errorf("String() = %q", got)
	}
}

// A new user looked for a Date32 from a time.Time: Date32Of and Date64Of
// give the calendar day of t in its location, before the epoch too, and
// round-trip through Time.
func TestDateOf(t *testing.T) {
	for _, c := range []struct {
		t    time.Time
		days int32
	}{
		{time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{time.Date(1970, 1, 1, 23, 59, 59, 999, time.UTC), 0},
		{time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), -1},
		{time.Date(1969, 12, 31, 0, 0, 0, 1, time.UTC), -1},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), -719162},
		{time.Date(2024, 2, 29, 1, 0, 0, 0, time.FixedZone("+14", 14*3600)), 19782},
	} {
		d := Date32Of(c.t)
		require.Equal(t, c.days, int32(d), c.t)
		require.Equal(t, int64(c.days)*86_400_000, int64(Date64Of(c.t)), c.t)
		y, m, day := c.t.Date()
		require.Equal(t, time.Date(y, m, day, 0, 0, 0, 0, time.UTC), d.Time(), c.t)
		require.Equal(t, d.Time(), Date64Of(c.t).Time(), c.t)
	}
}
