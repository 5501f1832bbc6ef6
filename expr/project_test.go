package expr

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

func TestParseSelect(t *testing.T) {
	cols, err := ParseSelect(`i32, st.x, i32 + 1 AS next, lower(s) AS "Lower S", upper(s)`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	want := []string{"i32", "x", "next", "Lower S", "upper(s)"}
	if len(names) != len(want) {
		t.Fatalf("names %q", names)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("name %d: %q, want %q", i, names[i], want[i])
		}
	}
	for _, c := range []struct {
		text string
		pos  int
	}{{"a AS", 4}, {"a AS AND", 5}, {"a b", 2}, {"a,", 2}} {
		_, err := ParseSelect(c.text)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Pos != c.pos {
			t.Errorf("%q: %v, want a syntax error at byte %d", c.text, err, c.pos)
		}
	}
}

func TestProjectAndFilterReaders(t *testing.T) {
	rec := fixture(t)
	src := alkaid.NewRecordReader(rec.Schema(), func(yield func(*alkaid.Record, error) bool) {
		for i := 0; i < rec.NumRows(); i += 2 {
			if !yield(rec.Slice(i, min(i+2, rec.NumRows())), nil) {
				return
			}
		}
	}, nil)
	f, err := Filter(src, mustParse(t, "i32 > 15"))
	if err != nil {
		t.Fatal(err)
	}
	cols, err := ParseSelect("i32 * 2 AS twice, upper(s) AS up")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Project(f, cols)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := alkaid.ReadAll(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.NumRows(); got != 3 {
		t.Fatalf("%d rows, want 3", got)
	}
	if got := p.Schema().String(); got == "" || p.Schema().Field(0).Name != "twice" || !datatype.Equal(p.Schema().Field(1).Type, datatype.String) {
		t.Errorf("schema %s", got)
	}
	if _, err := Filter(src, mustParse(t, "i32 + 1")); !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("non-boolean filter: %v", err)
	}
	if _, err := Project(src, []Named{{Name: "x", Expr: mustParse(t, "nope")}}); !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("unknown field: %v", err)
	}
}
