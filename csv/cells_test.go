package csv

import (
	"bytes"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestCellForms: what a cell holds for the types without a scalar text of
// their own, and that it reads back.
func TestCellForms(t *testing.T) {
	must := func(dt datatype.DataType, err error) datatype.DataType {
		if err != nil {
			t.Fatal(err)
		}
		return dt
	}
	for _, c := range []struct {
		t    datatype.DataType
		in   string // arrayjson of the column
		want string // the file written
	}{
		{must(datatype.NewDictionary(datatype.Int8, datatype.String, false)), `["a,b", null, "a,b"]`, "c\n\"a,b\"\n\n\"a,b\"\n"},
		{must(datatype.NewRunEndEncoded(datatype.Int16, datatype.Float64)), `[1.5, 1.5, null]`, "c\n1.5\n1.5\n\n"},
		{datatype.MonthDayNanoIntervalType, `[{"months": 1, "days": 2, "nanoseconds": 3}]`, "c\n\"{\"\"months\"\":1,\"\"days\"\":2,\"\"nanoseconds\"\":3}\"\n"},
		{datatype.ListOf(datatype.Int32), `[[1, 2], [], null]`, "c\n\"[1,2]\"\n[]\n\n"},
		{datatype.StructOf(datatype.Field{Name: "a", Type: datatype.String, Nullable: true}), `[{"a": "x"}]`, "c\n\"{\"\"a\"\":\"\"x\"\"}\"\n"},
		{datatype.MapOf(datatype.Int32, datatype.String, true), `[{"1": "x"}]`, "c\n\"[{\"\"key\"\":1,\"\"value\"\":\"\"x\"\"}]\"\n"},
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
		var buf bytes.Buffer
		w := newWriter(t, &buf, rec.Schema())
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != c.want {
			t.Errorf("%s: wrote %q, want %q", c.t, got, c.want)
			continue
		}
		_, recs, err := readAll(t, buf.Bytes(), WithSchema(schema))
		if err != nil {
			t.Fatalf("%s: %v", c.t, err)
		}
		sameRows(t, rec, recs)
	}
}

// FuzzNestedCells: any cells read as dictionaries, run-end encoded
// arrays, intervals, lists, maps and unions give records or an error,
// never a panic.
func FuzzNestedCells(f *testing.F) {
	for _, s := range []string{
		"a,1.5,\"{\"\"months\"\":1}\",\"[1,2]\",\"{\"\"k\"\":1}\",5\n",
		",,,,,\n",
		"x,y,{},[,{\"\"k\"\":,\"{\"\"type_code\"\":1,\"\"value\"\":\"\"s\"\"}\"\n",
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
		nf("i", datatype.MonthIntervalType),
		nf("l", datatype.ListOf(datatype.Int8)),
		nf("m", datatype.MapOf(datatype.String, datatype.Int64, true)),
		nf("u", mk(datatype.NewUnion(datatype.Sparse, []datatype.Field{nf("i", datatype.Int32), nf("s", datatype.String)}, nil))),
	}, datatype.Metadata{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), WithSchema(schema), WithPositional(), WithHeader(false), WithBatchSize(2))
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
