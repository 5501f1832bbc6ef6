package window

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// randomRecord has n rows of k (string partition, few values, nulls), o
// (int64 order key with ties and nulls), x (int64 with nulls; huge when
// big, so that sums overflow), f (float64 with NaN, -0 and nulls) and u
// (uint8).
func randomRecord(t *testing.T, rng *rand.Rand, n int, big bool) *alkaid.Record {
	t.Helper()
	k := array.NewBinaryBuilder[int32](datatype.String)
	o := array.NewPrimitiveBuilder[int64](datatype.Int64)
	x := array.NewPrimitiveBuilder[int64](datatype.Int64)
	f := array.NewPrimitiveBuilder[float64](datatype.Float64)
	u := array.NewPrimitiveBuilder[uint8](datatype.Uint8)
	for range n {
		if rng.IntN(6) == 0 {
			k.AppendNull()
		} else {
			k.AppendString([]string{"a", "b", "ü", ""}[rng.IntN(4)])
		}
		if rng.IntN(8) == 0 {
			o.AppendNull()
		} else {
			o.Append(int64(rng.IntN(5)))
		}
		switch {
		case rng.IntN(4) == 0:
			x.AppendNull()
		case big:
			x.Append(math.MaxInt64/4 + int64(rng.IntN(1000)))
		default:
			x.Append(int64(rng.IntN(21) - 10))
		}
		switch rng.IntN(8) {
		case 0:
			f.AppendNull()
		case 1:
			f.Append(math.NaN())
		case 2:
			f.Append(math.Copysign(0, -1))
		default:
			f.Append(float64(rng.IntN(100)) / 4)
		}
		u.Append(uint8(rng.IntN(256)))
	}
	fields := []datatype.Field{{Name: "k", Type: datatype.String, Nullable: true}, {Name: "o", Type: datatype.Int64, Nullable: true},
		{Name: "x", Type: datatype.Int64, Nullable: true}, {Name: "f", Type: datatype.Float64, Nullable: true},
		{Name: "u", Type: datatype.Uint8}}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}),
		[]array.Array{k.NewArray(), o.NewArray(), x.NewArray(), f.NewArray(), u.NewArray()}, n)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// split cuts rec into batches at random points, some of them empty.
func split(rng *rand.Rand, rec *alkaid.Record) []*alkaid.Record {
	var out []*alkaid.Record
	for i := 0; i < rec.NumRows() || len(out) == 0; {
		j := min(rec.NumRows(), i+rng.IntN(7))
		out = append(out, rec.Slice(i, j))
		i = j
	}
	return out
}

// TestEvalBatchesProperty checks that every window function gives the
// same values, or the same error, over a random split of a record into
// batches as over the record as one batch: the streamed forms (no
// partition, no order) carry their state across batches, the others
// see partitions and ties across batches.
func TestEvalBatchesProperty(t *testing.T) {
	byK := Spec{PartitionBy: []string{"k"}, OrderBy: []compute.SortKey{{Column: "o"}}}
	specs := []Spec{
		{},
		{PartitionBy: []string{"k"}},
		{OrderBy: []compute.SortKey{{Column: "o", Order: compute.Order{Descending: true}}}},
		byK,
		{PartitionBy: []string{"k", "o"}, OrderBy: []compute.SortKey{{Column: "f"}}},
	}
	var calls []Call
	for f := RowNumber; f <= DenseRank; f++ {
		calls = append(calls, Call{Func: f})
	}
	for f := CumSum; f <= FillBackward; f++ {
		for _, col := range []string{"x", "f", "u"} {
			calls = append(calls, Call{Func: f, Column: col})
		}
	}
	calls = append(calls, Call{Func: FillForward, Column: "k"}, Call{Func: FillBackward, Column: "k"})
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 60 {
		rec := randomRecord(t, rng, rng.IntN(40), iter%10 == 9)
		batches := split(rng, rec)
		for si, s := range specs {
			for _, c := range calls {
				want, wantErr := evalBatches(rec.Schema(), []*alkaid.Record{rec}, s, c)
				got, err := evalBatches(rec.Schema(), batches, s, c)
				name := fmt.Sprintf("iter %d spec %d %s(%s) over %d batches", iter, si, c.Func, c.Column, len(batches))
				if wantErr != nil || err != nil {
					// The same error, once ReadAll's count of the batches
					// before it (more when streamed) is cut off.
					if wantErr == nil || err == nil || windowErr(wantErr) != windowErr(err) {
						t.Fatalf("%s: error %v, want %v", name, err, wantErr)
					}
					continue
				}
				if !datatype.Equal(got.DataType(), want.DataType()) || array.Format(got) != array.Format(want) {
					t.Fatalf("%s:\ngot  %s\nwant %s", name, array.Format(got), array.Format(want))
				}
			}
		}
	}
}

// windowErr is the text of err from package window's part on.
func windowErr(err error) string {
	s := err.Error()
	return s[strings.Index(s, "window:"):]
}

// TestEvalStreamsBatchByBatch checks that a window over the input's
// order yields a batch's result before the next batch is read, and that
// one over a sort order reads all of its input first.
func TestEvalStreamsBatchByBatch(t *testing.T) {
	rec := record(t)
	for _, c := range []struct {
		spec    Spec
		f       Func
		column  string
		streams bool
	}{
		{Spec{}, CumSum, "x", true},
		{Spec{}, FillForward, "x", true},
		{Spec{}, RowNumber, "", true},
		{Spec{}, FillBackward, "x", false},
		{Spec{PartitionBy: []string{"k"}}, CumSum, "x", false},
		{Spec{OrderBy: []compute.SortKey{{Column: "o"}}}, RowNumber, "", false},
	} {
		read := 0
		seq := func(yield func(*alkaid.Record, error) bool) {
			for i := 0; i < rec.NumRows(); i += 2 {
				read++
				if !yield(rec.Slice(i, i+2), nil) {
					return
				}
			}
		}
		r, err := Eval(alkaid.NewRecordReader(rec.Schema(), seq, nil), c.spec, Call{Func: c.f, Column: c.column})
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range r.Records() {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		if want := map[bool]int{true: 1, false: 4}[c.streams]; read != want {
			t.Errorf("%s(%s) over %+v: %d batches read before the first result, want %d", c.f, c.column, c.spec, read, want)
		}
	}
}

// TestEvalKeepsBatches checks that the records Eval yields are the
// input's, in order, with the results appended.
func TestEvalKeepsBatches(t *testing.T) {
	rec := record(t)
	tbl, err := alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec.Slice(0, 3), rec.Slice(3, 8)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Eval(tbl, Spec{PartitionBy: []string{"k"}}, Call{Func: RowNumber, Name: "n"}, Call{Func: CumMax, Column: "f"})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Schema().String(); got != alkaid.NewSchema(append(rec.Schema().Fields(),
		datatype.Field{Name: "n", Type: datatype.Int64},
		datatype.Field{Name: "cumulative_max(f)", Type: datatype.Float64, Nullable: true}), datatype.Metadata{}).String() {
		t.Fatalf("schema %s", got)
	}
	var sizes []int
	for out, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, out.NumRows())
		if out.NumCols() != rec.NumCols()+2 {
			t.Fatalf("%d columns", out.NumCols())
		}
	}
	if fmt.Sprint(sizes) != "[3 5]" {
		t.Fatalf("batches of %v rows, want [3 5]", sizes)
	}
}

func TestEvalBindErrors(t *testing.T) {
	rec := record(t)
	tbl, err := alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		r     alkaid.RecordReader
		calls []Call
	}{
		{"nil reader", nil, []Call{{Func: RowNumber}}},
		{"no call", tbl, nil},
		{"name of an input column", tbl, []Call{{Func: RowNumber, Name: "x"}}},
		{"two results of one name", tbl, []Call{{Func: RowNumber}, {Func: RowNumber}}},
		{"min of strings", tbl, []Call{{Func: CumMin, Column: "k"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Eval(c.r, Spec{}, c.calls...); !errors.Is(err, datatype.ErrInvalid) {
				t.Fatalf("error %v, want ErrInvalid", err)
			}
		})
	}
}
