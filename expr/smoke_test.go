package expr

import (
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

func TestSmoke(t *testing.T) {
	fields := []datatype.Field{{Name: "a", Type: datatype.Int32, Nullable: true}, {Name: "s", Type: datatype.String, Nullable: true}}
	a := arrayjson.MustParse(datatype.Int32, `[1, 2, null, 4, 100]`)
	s := arrayjson.MustParse(datatype.String, `["x", "y", "z", null, "x"]`)
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), []array.Array{a, s}, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a + 1", "a > 2 AND s IN ('x', 'z')", "a BETWEEN 2 AND 4", "CASE WHEN a > 2 THEN s ELSE 'no' END", "coalesce(a, -1)", "a IS NULL OR s IS NULL", "CAST(a AS VARCHAR)", "a / 2", "NOT (a = 4)"} {
		e, err := Parse(text)
		if err != nil {
			t.Fatal(text, err)
		}
		b, err := Bind(e, rec.Schema())
		if err != nil {
			t.Fatal(text, err)
		}
		out, err := b.Eval(rec)
		if err != nil {
			t.Fatal(text, err)
		}
		t.Logf("%s => %s : %s = %s", text, e, b.Type(), out)
	}
}
