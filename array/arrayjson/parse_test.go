package arrayjson

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

func mustOK[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestParseRunEndsMerged(t *testing.T) {
	ree := mustOK(datatype.NewRunEndEncoded(datatype.Int32, datatype.ListOf(datatype.Int32)))
	a := MustParse(ree, `[[1, 2], [1, 2], [1], null, null, [1], [1, 2]]`).(*array.RunEndEncoded)
	require.Equal(t, 7, a.Len())
	require.Equal(t, "[2 3 5 6 7]", array.Format(a.RunEnds()))
	require.Equal(t, "[[1 2] [1] (null) [1] [1 2]]", array.Format(a.Values()))
	require.Equal(t, "[1 2 1 1 1 2]", array.Format(a.Values().(*array.ListArray).ListValues()), "merged values dropped from the grandchild")
}

func TestParseDictionary(t *testing.T) {
	dt := mustOK(datatype.NewDictionary(datatype.Int32, datatype.String, false))
	a := MustParse(dt, `["foo", "bar", "foo", "bar", null, "baz"]`).(*array.Dictionary)
	require.Equal(t, "[0 1 0 1 (null) 2]", array.Format(a.Indices()))
	require.Equal(t, `["foo" "bar" "baz"]`, array.Format(a.Dictionary()))
}

func TestParseErrors(t *testing.T) {
	fsb := mustOK(datatype.NewFixedSizeBinary(2))
	st := datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int8, Nullable: true})
	un := mustOK(datatype.NewUnion(datatype.Dense, []datatype.Field{{Name: "i", Type: datatype.Int32, Nullable: true}}, []int8{3}))
	tests := []struct {
		t       datatype.DataType
		literal string
		want    string
	}{
		{datatype.Int8, `[1, 300]`, "at [1] (offset 4): int8: value out of range"},
		{datatype.Int32, `[1, "x"]`, `at [1] (offset 4): int32: invalid syntax`},
		{datatype.Int32, `[1, true]`, "at [1] (offset 4): int32: want a number, got boolean true"},
		{datatype.Uint8, `[-1]`, "at [0] (offset 1): uint8: invalid syntax"},
		{datatype.Int32, `{"a": 1}`, "want a JSON array, got object"},
		{datatype.Int32, `[1, 2`, "unexpected EOF"},
		{datatype.Int32, `[1] [2]`, "data after the top-level value"},
		{datatype.String, `["a", 1]`, "at [1] (offset 6): want a string, got number 1"},
		{fsb, `["abc"]`, "at [0] (offset 1): want 2 bytes, got 3"},
		{datatype.ListOf(datatype.Int8), `[[1, [2]]]`, "at [0][1] (offset 5): int8: want a number, got array"},
		{st, `[{"a": 1, "b": 2}]`, `at [0] (offset 15): struct has no field "b"`},
		{st, `[{"a": "z"}]`, `at [0].a (offset 7)`},
		{st, `[[1, 2]]`, "want 1 field values, got 2"},
		{datatype.MapOf(datatype.String, datatype.Int8, false), `[[["k"]]]`, "at [0][0] (offset 2): want a [key, value] pair"},
		{datatype.MapOf(datatype.String, datatype.Int8, false), `[[[null, 1]]]`, "map key is null"},
		{un, `[[0, 1]]`, "has no type code 0"},
		{un, `[[3, "x"]]`, "at [0]<3> (offset 5): int32: invalid syntax"},
		{mustOK(datatype.NewDecimal(32, 5, 2)), `["1.234"]`, "more digits after the point than scale 2"},
		{mustOK(datatype.NewDecimal(32, 5, 2)), `["1234.5"]`, "does not fit precision 5"},
		{datatype.Null, `[1]`, "want null, got number 1"},
		{datatype.Date32Type, `["2024-13-01"]`, "month out of range"},
		{mustOK(datatype.NewDictionary(datatype.Int8, datatype.Int32, false)), `[1, "q"]`, "at [1] (offset 4): int32: invalid syntax"},
	}
	for _, tt := range tests {
		t.Run(tt.t.String()+" "+tt.literal, func(t *testing.T) {
			_, err := Parse(tt.t, tt.literal)
			require.Error(t, err)
			require.ErrorContains(t, err, tt.want)
			require.True(t, errors.Is(err, array.ErrInvalid), "%v wraps array.ErrInvalid", err)
			require.True(t, strings.HasPrefix(err.Error(), "arrayjson: Parse "), "%v", err)
			// Append reads the same way, with its own prefix.
			b, berr := array.TryNewBuilder(tt.t)
			require.NoError(t, berr)
			err = Append(b, tt.literal)
			if err == nil { // refused by the validation after building
				return
			}
			require.ErrorContains(t, err, tt.want)
			require.ErrorIs(t, err, array.ErrInvalid)
			require.True(t, strings.HasPrefix(err.Error(), "arrayjson: Append "), "%v", err)
		})
	}
	_, err := Parse(mustOK(datatype.NewDictionary(datatype.Int8, datatype.ListOf(datatype.Int8), false)), `[]`)
	require.ErrorIs(t, err, array.ErrNotSupported)
	require.Panics(t, func() { MustParse(datatype.Int8, `[1000]`) })
}

// jsonFuzzTypes are the types of every randdata field: each type of the
// spec's table, nested ones among them.
var jsonFuzzTypes = func() []datatype.DataType {
	var out []datatype.DataType
	for _, f := range randdata.AllTypes().Fields() {
		out = append(out, f.Type)
	}
	return out
}()

// FuzzParse parses arbitrary literals for each type: FromJSON must
// return an error wrapping array.ErrInvalid or a valid array.
func FuzzParse(f *testing.F) {
	for k := range jsonFuzzTypes {
		for _, lit := range []string{`[]`, `[null]`, `[1, 2, null]`, `["a", "bc"]`, `[[1, 2], null, []]`,
			`[{"a": 1, "b": "x"}, null, [2, "y"]]`, `[[["k", 1]], {"k2": 2}]`, `[[0, 5], [1, [1, 2]]]`,
			`["2024-02-29", "2024-02-29T12:00:00Z", 86400]`, `["123.45", -1e3, "NaN", "-Inf"]`,
			`[[1, 2], {"days": 1, "milliseconds": 2}, [1, 2, 3]]`, `[true, false, "abc"]`} {
			f.Add(uint8(k), lit)
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, lit string) {
		typ := jsonFuzzTypes[int(kind)%len(jsonFuzzTypes)]
		a, err := Parse(typ, lit)
		if err != nil {
			if !errors.Is(err, array.ErrInvalid) && !errors.Is(err, datatype.ErrInvalid) {
				t.Fatalf("%s: error %v wraps neither array.ErrInvalid", typ, err)
			}
			return
		}
		if err := array.Validate(a.Data(), array.ValidateFull); err != nil {
			t.Fatalf("%s from %q is invalid: %v", typ, lit, err)
		}
		_ = a.String()
	})
}
