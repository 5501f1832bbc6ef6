package window

import (
	"errors"
	"math"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// record has k (string partition, with a null), o (int64 order key with
// ties and a null), x (int64 with nulls) and f (float64 with NaN).
func record(t *testing.T) *alkaid.Record {
	t.Helper()
	k := array.NewBinaryBuilder[int32](datatype.String)
	o := array.NewPrimitiveBuilder[int64](datatype.Int64)
	x := array.NewPrimitiveBuilder[int64](datatype.Int64)
	f := array.NewPrimitiveBuilder[float64](datatype.Float64)
	rows := []struct {
		k    *string
		o, x *int64
		f    float64
	}{
		{k: str("a"), o: num(3), x: num(1), f: 1},
		{k: str("b"), o: num(1), x: nil, f: 2},
		{k: str("a"), o: num(1), x: num(5), f: math.NaN()},
		{k: nil, o: num(2), x: num(7), f: -1},
		{k: str("a"), o: num(3), x: nil, f: 0},
		{k: str("b"), o: nil, x: num(-2), f: 4},
		{k: str("a"), o: num(2), x: num(-3), f: 3},
		{k: nil, o: num(1), x: nil, f: 5},
	}
	for _, r := range rows {
		if r.k == nil {
			k.AppendNull()
		} else {
			k.AppendString(*r.k)
		}
		for _, p := range []struct {
			b *array.PrimitiveBuilder[int64]
			v *int64
		}{{o, r.o}, {x, r.x}} {
			if p.v == nil {
				p.b.AppendNull()
			} else {
				p.b.Append(*p.v)
			}
		}
		f.Append(r.f)
	}
	fields := []datatype.Field{{Name: "k", Type: datatype.String, Nullable: true}, {Name: "o", Type: datatype.Int64, Nullable: true},
		{Name: "x", Type: datatype.Int64, Nullable: true}, {Name: "f", Type: datatype.Float64}}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}),
		[]array.Array{k.NewArray(), o.NewArray(), x.NewArray(), f.NewArray()}, len(rows))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func str(s string) *string { return &s }
func num(v int64) *int64   { return &v }

func TestEval(t *testing.T) {
	rec := record(t)
	byK := Spec{PartitionBy: []string{"k"}, OrderBy: []compute.SortKey{{Column: "o"}}}
	// Sorted by k (nulls last), then o (nulls last): a: rows 2(o1) 6(o2) 0(o3) 4(o3);
	// b: 1(o1) 5(null); null: 7(o1) 3(o2).
	for _, c := range []struct {
		name   string
		spec   Spec
		f      Func
		column string
		want   string
	}{
		{"row_number", byK, RowNumber, "", "[3 1 1 2 4 2 2 1]"},
		{"rank", byK, Rank, "", "[3 1 1 2 3 2 2 1]"},
		{"dense_rank", byK, DenseRank, "", "[3 1 1 2 3 2 2 1]"},
		{"rank whole", Spec{OrderBy: []compute.SortKey{{Column: "o", Order: compute.Order{Descending: true}}}}, Rank, "", "[1 5 5 3 1 8 3 5]"},
		{"dense_rank whole", Spec{OrderBy: []compute.SortKey{{Column: "o", Order: compute.Order{Descending: true}}}}, DenseRank, "", "[1 3 3 2 1 4 2 3]"},
		{"row_number no order", Spec{}, RowNumber, "", "[1 2 3 4 5 6 7 8]"},
		{"row_number partition only", Spec{PartitionBy: []string{"k"}}, RowNumber, "", "[1 1 2 1 3 2 4 2]"},
		{"rank partition only", Spec{PartitionBy: []string{"k"}}, Rank, "", "[1 1 1 1 1 1 1 1]"},
		{"dense_rank no order", Spec{}, DenseRank, "", "[1 1 1 1 1 1 1 1]"},
		{"cumsum", byK, CumSum, "x", "[3 (null) 5 7 3 -2 2 (null)]"},
		{"cumsum in record order", Spec{}, CumSum, "x", "[1 1 6 13 13 11 8 8]"},
		{"cummin", byK, CumMin, "x", "[-3 (null) 5 7 -3 -2 -3 (null)]"},
		{"cummax", byK, CumMax, "x", "[5 (null) 5 7 5 -2 5 (null)]"},
		{"cummax NaN", Spec{}, CumMax, "f", "[1 2 NaN NaN NaN NaN NaN NaN]"},
		{"cummin NaN", Spec{}, CumMin, "f", "[1 1 1 -1 -1 -1 -1 -1]"},
		{"cumsum float", Spec{}, CumSum, "f", "[1 3 NaN NaN NaN NaN NaN NaN]"},
		{"fill forward", byK, FillForward, "x", "[1 (null) 5 7 1 -2 -3 (null)]"},
		{"fill backward", byK, FillBackward, "x", "[1 -2 5 7 (null) -2 -3 7]"},
		{"fill forward record order", Spec{}, FillForward, "x", "[1 1 5 7 7 -2 -3 -3]"},
		{"fill backward record order", Spec{}, FillBackward, "x", "[1 5 5 7 -2 -2 -3 (null)]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := evalOne(rec, c.spec, c.f, c.column)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Fatalf("got %s, want %s", s, c.want)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	rec := record(t)
	i64 := array.NewPrimitiveBuilder[int64](datatype.Int64)
	i64.AppendValues([]int64{math.MaxInt64, 1}, nil)
	big, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "v", Type: datatype.Int64}}, datatype.Metadata{}),
		[]array.Array{i64.NewArray()}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		rec    *alkaid.Record
		spec   Spec
		f      Func
		column string
		kind   error
	}{
		{"unknown column", rec, Spec{}, CumSum, "nope", datatype.ErrInvalid},
		{"unknown partition", rec, Spec{PartitionBy: []string{"nope"}}, RowNumber, "", datatype.ErrInvalid},
		{"unknown order", rec, Spec{OrderBy: []compute.SortKey{{Column: "nope"}}}, Rank, "", datatype.ErrInvalid},
		{"string sum", rec, Spec{}, CumSum, "k", datatype.ErrInvalid},
		{"rank with a column", rec, Spec{}, Rank, "x", datatype.ErrInvalid},
		{"unknown function", rec, Spec{}, Func(99), "x", datatype.ErrInvalid},
		{"overflow", big, Spec{}, CumSum, "v", compute.ErrOverflow},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := evalOne(c.rec, c.spec, c.f, c.column)
			if !errors.Is(err, c.kind) {
				t.Fatalf("error %v, want %v", err, c.kind)
			}
		})
	}
}

// evalOne computes f over the record rec alone (one batch) and returns
// its result column.
func evalOne(rec *alkaid.Record, s Spec, f Func, column string) (array.Array, error) {
	return evalBatches(rec.Schema(), []*alkaid.Record{rec}, s, Call{Func: f, Column: column})
}

// evalBatches computes calls over the batches recs and returns the
// result column of the last call, its batches concatenated.
func evalBatches(schema *alkaid.Schema, recs []*alkaid.Record, s Spec, calls ...Call) (array.Array, error) {
	seq := func(yield func(*alkaid.Record, error) bool) {
		for _, r := range recs {
			if !yield(r, nil) {
				return
			}
		}
	}
	r, err := Eval(alkaid.NewRecordReader(schema, seq, nil), s, calls...)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	t, err := alkaid.ReadAll(r)
	if err != nil {
		return nil, err
	}
	last := t.Column(t.NumCols() - 1)
	chunks := last.Chunks()
	if len(chunks) == 0 {
		return array.NewBuilder(last.DataType()).NewArray(), nil
	}
	return array.Concatenate(chunks...)
}
