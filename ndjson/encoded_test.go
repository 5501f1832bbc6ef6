package ndjson

import (
	"bytes"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// TestEveryRanddataType: every type randdata generates has a JSON form
// (before, dictionaries, maps, unions, run-end encoded arrays, list views
// and intervals had none).
func TestEveryRanddataType(t *testing.T) {
	if _, not := splitTypes(t); len(not) > 0 {
		t.Fatalf("no JSON form: %v", not)
	}
}

// TestEncodedForms: the JSON written for each type without a scalar text
// of its own, and read back.
func TestEncodedForms(t *testing.T) {
	must := func(dt datatype.DataType, err error) datatype.DataType {
		if err != nil {
			t.Fatal(err)
		}
		return dt
	}
	for _, c := range []struct {
		t    datatype.DataType
		in   string // arrayjson of the column
		want string // the lines written
	}{
		{must(datatype.NewDictionary(datatype.Int8, datatype.String, false)), `["a", null, "a"]`, `{"c":"a"}` + "\n" + `{"c":null}` + "\n" + `{"c":"a"}` + "\n"},
		{must(datatype.NewRunEndEncoded(datatype.Int16, datatype.Float64)), `[1.5, 1.5, null]`, `{"c":1.5}` + "\n" + `{"c":1.5}` + "\n" + `{"c":null}` + "\n"},
		{datatype.ListViewOf(datatype.Int8), `[[1, 2], null, []]`, `{"c":[1,2]}` + "\n" + `{"c":null}` + "\n" + `{"c":[]}` + "\n"},
		{datatype.MapOf(datatype.String, datatype.Int32, true), `[{"a": 1, "b": null}]`, `{"c":{"a":1,"b":null}}` + "\n"},
		{datatype.MapOf(datatype.Int32, datatype.String, true), `[{"1": "x"}]`, `{"c":[{"key":1,"value":"x"}]}` + "\n"},
		{datatype.MonthIntervalType, `[3]`, `{"c":{"months":3}}` + "\n"},
		{datatype.DayTimeIntervalType, `[{"days": 1, "milliseconds": -2}]`, `{"c":{"days":1,"milliseconds":-2}}` + "\n"},
		{datatype.MonthDayNanoIntervalType, `[{"months": 1, "days": 2, "nanoseconds": 3}]`, `{"c":{"months":1,"days":2,"nanoseconds":3}}` + "\n"},
		{must(datatype.NewUnion(datatype.Dense, []datatype.Field{{Name: "i", Type: datatype.Int32, Nullable: true}, {Name: "s", Type: datatype.String, Nullable: true}}, nil)),
			`[[0, 5], [1, "x"]]`, `{"c":5}` + "\n" + `{"c":"x"}` + "\n"},
	} {
		a, err := arrayjson.Parse(c.t, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.t, err)
		}
		schema := alkaid.NewSchema([]datatype.Field{{Name: "c", Type: c.t, Nullable: true}}, datatype.Metadata{})
		rec, err := alkaid.NewRecord(schema, []array.Array{a}, a.Len())
		if err != nil {
			t.Fatal(err)
		}
		got := string(write(t, rec))
		if got != c.want {
			t.Errorf("%s: wrote %q, want %q", c.t, got, c.want)
			continue
		}
		_, recs, err := readAll(t, []byte(got), WithSchema(schema))
		if err != nil {
			t.Fatalf("%s: %v", c.t, err)
		}
		sameRows(t, rec, recs)
	}
}

// TestIntervalsPrintAsWritten: the array printer prints durations and
// intervals in the form the writer writes (before, it printed 1d2ms and
// 1M2d3ns while the writer wrote objects).
func TestIntervalsPrintAsWritten(t *testing.T) {
	dur, err := datatype.NewDuration(datatype.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t  datatype.DataType
		in string
	}{
		{datatype.MonthIntervalType, `[-14]`},
		{datatype.DayTimeIntervalType, `[{"days": 1, "milliseconds": -2}]`},
		{datatype.MonthDayNanoIntervalType, `[{"months": 1, "days": 2, "nanoseconds": 3}]`},
		{dur, `[5400]`},
	} {
		a, err := arrayjson.Parse(c.t, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.t, err)
		}
		schema := alkaid.NewSchema([]datatype.Field{{Name: "c", Type: c.t, Nullable: true}}, datatype.Metadata{})
		rec, err := alkaid.NewRecord(schema, []array.Array{a}, a.Len())
		if err != nil {
			t.Fatal(err)
		}
		want := `{"c":` + array.FormatValue(a, 0) + "}\n"
		if got := string(write(t, rec)); got != want {
			t.Errorf("%s: wrote %q, printer %q", c.t, got, want)
		}
	}
}

// TestUnionTypeCodes: with WithUnionTypeCodes a union slot is
// {"type_code": c, "value": v} and reads back exactly, nulls in their
// own child included.
func TestUnionTypeCodes(t *testing.T) {
	all := randdata.AllTypes()
	var fields []datatype.Field
	for _, f := range all.Fields() {
		if _, ok := f.Type.(*datatype.UnionType); ok {
			fields = append(fields, f)
		}
	}
	schema := alkaid.NewSchema(fields, datatype.Metadata{})
	rec := randdata.New(5).Record(schema, 300)
	var buf bytes.Buffer
	w := newWriter(t, &buf, schema, WithUnionTypeCodes())
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`{"type_code":7,"value":`)) {
		t.Fatalf("no type codes in %.200s", buf.Bytes())
	}
	_, recs, err := readAll(t, buf.Bytes(), WithSchema(schema), WithBatchSize(1000))
	if err != nil {
		t.Fatal(err)
	}
	for c := range rec.NumCols() {
		if i, desc, eq := array.FirstDifference(rec.Column(c), recs[0].Column(c)); !eq {
			t.Fatalf("column %s differs at row %d: %s", schema.Field(c).Name, i, desc)
		}
	}
}

// FuzzEncodedValues: any line read with a schema of dictionaries, run-end
// encoded arrays, unions, maps, list views and intervals gives records or
// an error, never a panic.
func FuzzEncodedValues(f *testing.F) {
	for _, s := range []string{
		`{"d":"a","r":1.5,"u":5,"m":{"k":1},"n":[{"key":1,"value":"x"}],"v":[1,2],"i":{"months":1,"days":2,"nanoseconds":3}}`,
		`{"u":{"type_code":1,"value":"x"},"n":[],"m":{}}`,
		`{"u":{"type_code":9,"value":1}}`,
		`{"u":[1],"i":{"days":1e3}}`,
	} {
		f.Add([]byte(s))
	}
	mk := func(t datatype.DataType, err error) datatype.DataType {
		if err != nil {
			f.Fatal(err)
		}
		return t
	}
	nf := func(name string, t datatype.DataType) datatype.Field {
		return datatype.Field{Name: name, Type: t, Nullable: true}
	}
	schema := alkaid.NewSchema([]datatype.Field{
		nf("d", mk(datatype.NewDictionary(datatype.Int8, datatype.String, false))),
		nf("r", mk(datatype.NewRunEndEncoded(datatype.Int16, datatype.Float64))),
		nf("u", mk(datatype.NewUnion(datatype.Dense, []datatype.Field{nf("i", datatype.Int32), nf("s", datatype.String)}, nil))),
		nf("m", datatype.MapOf(datatype.String, datatype.Int64, true)),
		nf("n", datatype.MapOf(datatype.Int32, datatype.String, true)),
		nf("v", datatype.ListViewOf(datatype.Int8)),
		nf("i", datatype.MonthDayNanoIntervalType),
	}, datatype.Metadata{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), WithSchema(schema), WithBatchSize(2))
		if err != nil {
			return
		}
		for _, err := range r.Records() {
			if err != nil {
				return
			}
		}
	})
}
