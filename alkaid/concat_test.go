package alkaid_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

func TestConcatRecords(t *testing.T) {
	s, rec := people(t)
	for _, tc := range []struct {
		name string
		recs []*alkaid.Record
		want string // the names, as Format prints them
	}{
		{"two slices", []*alkaid.Record{rec.Slice(2, 4), rec.Slice(0, 1)}, `["cy" "dee" "ann"]`},
		{"with an empty one", []*alkaid.Record{rec.Slice(1, 1), rec.Slice(1, 3), rec.Slice(4, 4)}, `[(null) "cy"]`},
		{"one", []*alkaid.Record{rec}, `["ann" (null) "cy" "dee"]`},
		{"the same twice", []*alkaid.Record{rec.Slice(0, 2), rec.Slice(0, 2)}, `["ann" (null) "ann" (null)]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := alkaid.ConcatRecords(tc.recs...)
			require.NoError(t, err)
			require.Same(t, s, got.Schema())
			rows := 0
			for _, r := range tc.recs {
				rows += r.NumRows()
			}
			require.Equal(t, rows, got.NumRows())
			require.Equal(t, tc.want, array.Format(got.Column(1)))
			require.NoError(t, array.Validate(got.Column(0).Data(), array.ValidateFull))
		})
	}
}

func TestConcatRecordsUnifiesDictionaries(t *testing.T) {
	dt, err := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	require.NoError(t, err)
	s := alkaid.NewSchema([]datatype.Field{{Name: "star", Type: dt, Nullable: true}}, datatype.Metadata{})
	mk := func(idx string, dict string) *alkaid.Record {
		d, err := array.NewDictionaryArray(dt, arrayjson.MustParse(datatype.Int8, idx), arrayjson.MustParse(datatype.String, dict))
		require.NoError(t, err)
		r, err := alkaid.NewRecord(s, []array.Array{d}, -1)
		require.NoError(t, err)
		return r
	}
	got, err := alkaid.ConcatRecords(mk("[0, 1]", `["Mizar", "矢"]`), mk("[1, null, 0]", `["Alkaïd", "Mizar"]`))
	require.NoError(t, err)
	require.Equal(t, `["Mizar" "矢" "Mizar" (null) "Alkaïd"]`, array.Format(got.Column(0)))
	require.Equal(t, `["Mizar" "矢" "Alkaïd"]`, array.Format(got.Column(0).(*array.Dictionary).Dictionary()))
}

func TestConcatRecordsErrors(t *testing.T) {
	_, rec := people(t)
	other := alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Int64}}, datatype.Metadata{})
	one, err := alkaid.NewRecord(other, []array.Array{arrayjson.MustParse(datatype.Int64, `[9]`)}, -1)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		recs []*alkaid.Record
		want string
	}{
		{"none", nil, "no records"},
		{"nil", []*alkaid.Record{rec, nil}, "record 1 is nil"},
		{"another schema", []*alkaid.Record{rec, rec, one}, "record 2's schema differs from record 0's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := alkaid.ConcatRecords(tc.recs...)
			require.ErrorIs(t, err, datatype.ErrInvalid)
			require.ErrorContains(t, err, "alkaid: concat records: ")
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// Small batches joined into one.
func ExampleConcatRecords() {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "star", Type: datatype.String}}, datatype.Metadata{})
	a, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(datatype.String, `["Alkaid", "Mizar"]`)}, -1)
	b, _ := alkaid.NewRecord(schema, []array.Array{arrayjson.MustParse(datatype.String, `["Alcor"]`)}, -1)
	rec, err := alkaid.ConcatRecords(a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(rec)
	// Output:
	// record: 3 rows
	//   star: ["Alkaid" "Mizar" "Alcor"]
}
