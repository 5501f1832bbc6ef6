package expr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// randomPredicates are conditions over randomRecord's columns a and s.
func randomPredicates(r *rand.Rand, n int) []string {
	ops := []string{"=", "<>", "<", "<=", ">", ">="}
	strs := []string{"'x'", "'Y'", "''", "'ü'", "'m'"}
	leaf := func() string {
		switch r.IntN(6) {
		case 0:
			return fmt.Sprintf("a %s %d", ops[r.IntN(6)], r.IntN(1200)-100)
		case 1:
			return fmt.Sprintf("%d %s a", r.IntN(1200)-100, ops[r.IntN(6)])
		case 2:
			lo := r.IntN(1100) - 50
			return fmt.Sprintf("a BETWEEN %d AND %d", lo, lo+r.IntN(50))
		case 3:
			return fmt.Sprintf("a IN (%d, %d, NULL)", r.IntN(1000), r.IntN(1000))
		case 4:
			return fmt.Sprintf("s %s %s", ops[r.IntN(6)], strs[r.IntN(len(strs))])
		}
		return []string{"a IS NULL", "a IS NOT NULL", "s IS NULL"}[r.IntN(3)]
	}
	out := make([]string, n)
	for i := range out {
		e := leaf()
		for range r.IntN(3) {
			switch r.IntN(3) {
			case 0:
				e = "(" + e + ") AND (" + leaf() + ")"
			case 1:
				e = "(" + e + ") OR (" + leaf() + ")"
			default:
				e = "NOT (" + e + ")"
			}
		}
		out[i] = e
	}
	return out
}

// statsOf are the min/max statistics of a batch's columns a and s.
func statsOf(t *testing.T, rec *alkaid.Record) StatsFunc {
	m := map[string]Stats{}
	for _, name := range []string{"a", "s"} {
		col, _ := rec.ColumnByName(name)
		lo, hi, err := compute.MinMax(col)
		if err != nil {
			t.Fatal(err)
		}
		if lo.Valid {
			lo.Value, hi.Value = normalize(lo.Value), normalize(hi.Value)
		}
		m[name] = Stats{Min: lo, Max: hi, NullCount: int64(col.NullN()), Rows: int64(col.Len())}
	}
	return func(p []string) (Stats, bool) {
		s, ok := m[p[0]]
		return s, ok
	}
}

func normalize(v any) any {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

// TestMayMatchSound checks that no batch MayMatch rules out holds a row
// the predicate is true for.
func TestMayMatchSound(t *testing.T) {
	rec := randomRecord(t, 4000)
	r := rand.New(rand.NewPCG(3, 4))
	preds := randomPredicates(r, 300)
	pruned := 0
	for start := 0; start < rec.NumRows(); start += 40 {
		batch := rec.Slice(start, start+40)
		stats := statsOf(t, batch)
		for _, text := range preds {
			e := mustParse(t, text)
			if MayMatch(e, stats) {
				continue
			}
			pruned++
			got, err := evalText(t, batch, text)
			if err != nil {
				t.Fatal(err)
			}
			if n := countTrue(got.(*array.Boolean)); n > 0 {
				t.Fatalf("%s: rows %d-%d pruned, but %d rows match", text, start, start+40, n)
			}
		}
	}
	if pruned == 0 {
		t.Fatal("nothing pruned: the test proves nothing")
	}
	t.Logf("%d batch-predicate pairs pruned", pruned)
}

// TestSimplifySound checks that a simplified expression gives what the
// original gives over rows where the facts hold.
func TestSimplifySound(t *testing.T) {
	base := randomRecord(t, 500)
	r := rand.New(rand.NewPCG(5, 6))
	for _, year := range []int64{2023, 2024} {
		yb := array.NewPrimitiveBuilder[int64](datatype.Int64)
		for range base.NumRows() {
			yb.Append(year)
		}
		fields := append(base.Schema().Fields(), datatype.Field{Name: "year", Type: datatype.Int64, Nullable: true})
		rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}),
			append(base.Columns(), yb.NewArray()), base.NumRows())
		if err != nil {
			t.Fatal(err)
		}
		facts := mustParse(t, fmt.Sprintf("year = %d", year))
		for _, p := range randomPredicates(r, 100) {
			text := fmt.Sprintf("(year = 2024 AND %s) OR (year < 2024 AND NOT (%s))", p, p)
			want, err := evalText(t, rec, text)
			if err != nil {
				t.Fatal(err)
			}
			s := Simplify(mustParse(t, text), facts)
			b, err := Bind(s, rec.Schema())
			if err != nil {
				t.Fatalf("%s simplified to %s: %v", text, s, err)
			}
			got, err := b.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			if i, desc, eq := array.FirstDifference(got, want); !eq {
				t.Fatalf("%s simplified to %s: row %d: %s", text, s, i, desc)
			}
		}
	}
}
