package datatype_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// must is for test tables built of constructors that cannot fail.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// requireRoundTrip checks that ParseType reads back what String wrote.
func requireRoundTrip(t *testing.T, typ datatype.DataType) {
	t.Helper()
	got, err := datatype.ParseType(typ.String())
	require.NoError(t, err, typ.String())
	require.True(t, datatype.Equal(got, typ), "%s read back as %s", typ, got)
	require.Equal(t, typ.String(), got.String())
}

func TestParseTypeEveryRanddataType(t *testing.T) {
	s := randdata.AllTypes()
	require.Greater(t, s.NumFields(), 40)
	for _, f := range s.Fields() {
		t.Run(f.Name, func(t *testing.T) {
			requireRoundTrip(t, f.Type)
			got, err := datatype.ParseField(f.String())
			require.NoError(t, err)
			require.True(t, datatype.FieldEqual(got, f), "%s read back as %s", f, got)
		})
	}
}

func TestParseTypeTable(t *testing.T) {
	tsUTC := must(datatype.NewTimestamp(datatype.Nanosecond, "America/New_York"))
	tsOff := must(datatype.NewTimestamp(datatype.Millisecond, "+05:30"))
	dict := must(datatype.NewDictionary(datatype.Int8, datatype.ListOf(datatype.String), true))
	union := must(datatype.NewUnion(datatype.Dense, []datatype.Field{
		{Name: "a b", Type: datatype.Int32, Nullable: true},
		{Name: "m", Type: datatype.MapOf(datatype.String, tsUTC, true)},
	}, []int8{5, 100}))
	ree := must(datatype.NewRunEndEncoded(datatype.Int16, dict))
	fsl := must(datatype.FixedSizeListOfField(datatype.Field{Name: "v", Type: union}, 4))
	for _, typ := range []datatype.DataType{
		tsUTC, tsOff, dict, union, ree, fsl,
		datatype.StructOf(),
		datatype.StructOf(datatype.Field{Name: "with space", Type: datatype.StructOf(datatype.Field{Name: "x", Type: ree, Nullable: true})}),
		datatype.LargeListViewOfField(datatype.Field{Name: "element", Type: datatype.BinaryView}),
		datatype.MapOf(datatype.StructOf(datatype.Field{Name: "k", Type: datatype.Int8}), datatype.ListOf(datatype.Null), false),
		must(datatype.NewDecimal(32, 1, 0)),
		must(datatype.NewDecimal(256, 76, -3)),
		must(datatype.NewDuration(datatype.Second)),
		must(datatype.NewFixedSizeBinary(0)),
	} {
		t.Run(typ.String(), func(t *testing.T) { requireRoundTrip(t, typ) })
	}
}

func TestParseTypeSpellings(t *testing.T) {
	for in, want := range map[string]datatype.DataType{
		"string":               datatype.String,
		" boolean ":            datatype.Bool,
		"large_string":         datatype.LargeString,
		"decimal(10, 2)":       must(datatype.NewDecimal(128, 10, 2)),
		"list<int32>":          datatype.ListOf(datatype.Int32),
		"list<int32 not null>": datatype.ListOfField(datatype.Field{Name: "item", Type: datatype.Int32}),
		"timestamp[us,tz=UTC]": must(datatype.NewTimestamp(datatype.Microsecond, "UTC")),
	} {
		got, err := datatype.ParseType(in)
		require.NoError(t, err, in)
		require.True(t, datatype.Equal(got, want), "%q read as %s, want %s", in, got, want)
	}
}

func TestParseTypeErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                               "want a type",
		"int33":                          `unknown type "int33"`,
		"int32 x":                        "unexpected text after the type",
		"timestamp[xs]":                  `unknown time unit "xs"`,
		"time32[ns]":                     "time32 cannot have unit ns",
		"decimal128(40, 2)":              "column",
		"list<int32":                     `want ">"`,
		"fixed_size_list<item: int8>":    `want "["`,
		"fixed_size_binary[99999999999]": "want a number",
		"dictionary<values=utf8, indices=float32>": "column",
		"sparse_union<a: int8=300>":                "type code 300 out of range",
		"extension<no.such.type>":                  `extension type "no.such.type" is not registered`,
		"map<int32>":                               `want ","`,
	} {
		_, err := datatype.ParseType(in)
		require.ErrorIs(t, err, datatype.ErrInvalid, in)
		require.ErrorContains(t, err, want, in)
	}
}

func TestParseTypeDepthLimit(t *testing.T) {
	s := "int8"
	for range 200 {
		s = "list<" + s + ">"
	}
	_, err := datatype.ParseType(s)
	require.ErrorContains(t, err, "nested deeper than")
}

// randomType builds a type of every kind, nested up to depth.
func randomType(r *rand.Rand, depth int) datatype.DataType {
	leaves := []func() datatype.DataType{
		func() datatype.DataType { return datatype.Int64 },
		func() datatype.DataType { return datatype.LargeString },
		func() datatype.DataType { return datatype.Float16Type },
		func() datatype.DataType { return datatype.MonthDayNanoIntervalType },
		func() datatype.DataType {
			u := datatype.TimeUnit(r.IntN(4))
			tz := []string{"", "UTC", "Europe/Paris", "-03:00"}[r.IntN(4)]
			t, _ := datatype.NewTimestamp(u, tz)
			return t
		},
		func() datatype.DataType {
			t, _ := datatype.NewTime(datatype.TimeUnit(r.IntN(4)))
			return t
		},
		func() datatype.DataType {
			bits := []int{32, 64, 128, 256}[r.IntN(4)]
			p := 1 + r.IntN(int(datatype.MaxDecimalPrecision(bits)))
			t, _ := datatype.NewDecimal(bits, int32(p), int32(r.IntN(p+1)))
			return t
		},
		func() datatype.DataType { t, _ := datatype.NewFixedSizeBinary(r.IntN(40)); return t },
	}
	if depth == 0 || r.IntN(3) == 0 {
		return leaves[r.IntN(len(leaves))]()
	}
	field := func(i int) datatype.Field {
		return datatype.Field{Name: fmt.Sprintf("f%d", i), Type: randomType(r, depth-1), Nullable: r.IntN(2) == 0}
	}
	switch r.IntN(8) {
	case 0:
		return datatype.ListOfField(field(0))
	case 1:
		return datatype.LargeListViewOfField(field(1))
	case 2:
		t, _ := datatype.FixedSizeListOfField(field(2), int32(1+r.IntN(5)))
		return t
	case 3:
		fs := make([]datatype.Field, r.IntN(4))
		for i := range fs {
			fs[i] = field(i)
		}
		return datatype.StructOf(fs...)
	case 4:
		return datatype.MapOf(datatype.String, randomType(r, depth-1), r.IntN(2) == 0)
	case 5:
		mode := []datatype.UnionMode{datatype.Sparse, datatype.Dense}[r.IntN(2)]
		t, _ := datatype.NewUnion(mode, []datatype.Field{field(0), field(1)}, []int8{int8(r.IntN(50)), int8(50 + r.IntN(50))})
		return t
	case 6:
		idx := []datatype.DataType{datatype.Int8, datatype.Uint16, datatype.Int32, datatype.Uint64}[r.IntN(4)]
		t, _ := datatype.NewDictionary(idx, randomType(r, depth-1), r.IntN(2) == 0)
		return t
	}
	runEnds := []datatype.DataType{datatype.Int16, datatype.Int32, datatype.Int64}[r.IntN(3)]
	t, _ := datatype.NewRunEndEncoded(runEnds, randomType(r, depth-1))
	return t
}

func TestParseTypeProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	for range 2000 {
		requireRoundTrip(t, randomType(r, 4))
	}
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"int8", "list<item: utf8 not null>", "timestamp[ms, tz=UTC]",
		"dense_union<a: int8=1, b: utf8=2>", "dictionary<values=utf8, indices=int32, ordered>",
		"extension<x, int32>", "extension<arrow.json[storage=utf8_view]>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := datatype.ParseType(s)
		if err != nil {
			return
		}
		again, err := datatype.ParseType(typ.String())
		if err != nil {
			t.Fatalf("%q read as %s, which does not read back: %v", s, typ, err)
		}
		if !datatype.Equal(typ, again) {
			t.Fatalf("%q read as %s, which reads back as %s", s, typ, again)
		}
	})
}

func ExampleParseType() {
	t, err := datatype.ParseType("struct<id: int64 not null, at: timestamp[ms, tz=UTC], tags: list<item: utf8>>")
	fmt.Println(t, err)
	_, err = datatype.ParseType("list<int33>")
	fmt.Println(err)
	// Output:
	// struct<id: int64 not null, at: timestamp[ms, tz=UTC], tags: list<item: utf8>> <nil>
	// datatype: invalid: type "list<int33>" at column 6: unknown type "int33"
}

func TestParseFieldNames(t *testing.T) {
	for _, f := range []datatype.Field{
		{Name: "a:b", Type: datatype.Int8},
		{Name: "", Type: datatype.ListOfField(datatype.Field{Name: "", Type: datatype.Int8, Nullable: true}), Nullable: true},
		{Name: "with space, comma", Type: datatype.StructOf(datatype.Field{Name: "x:y", Type: datatype.Null, Nullable: true})},
	} {
		got, err := datatype.ParseField(f.String())
		require.NoError(t, err, f.String())
		require.True(t, datatype.FieldEqual(got, f), "%s read back as %s", f, got)
	}
}

// A 600 KB type echoed whole in its error: messages quote at most about
// 100 bytes of the input, with the part at the failing column when the
// start shown does not reach it.
func TestParseTypeErrorBounded(t *testing.T) {
	long := strings.Repeat("x", 600_000)
	for _, s := range []string{
		long,                               // an unknown type name
		"list<" + long + ">",               // deep in the text
		"struct<a: int8, b: " + long + ">", // a field of an unknown type
		"timestamp[" + long + "]",          // an unknown unit
		"fixed_size_binary[" + long + "]",  // not a number
		"extension<" + long + ">",          // an unregistered extension name
	} {
		_, err := datatype.ParseType(s)
		require.ErrorIs(t, err, datatype.ErrInvalid)
		require.Less(t, len(err.Error()), 600, "%.200s", err.Error())
		require.Contains(t, err.Error(), "… (")
	}
	_, err := datatype.ParseField("a: int8" + strings.Repeat(" ", 300) + "junk")
	require.ErrorIs(t, err, datatype.ErrInvalid)
	require.Less(t, len(err.Error()), 600)
	require.Contains(t, err.Error(), `(at "junk")`)
}
