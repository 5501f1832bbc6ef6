package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// rowFilterRecord is n rows of a required int64 id, an int64 x (null
// every 7th), a float64 f of 13 values and a string s of 9 (both null
// now and then, so dictionary-encoded), a string u of distinct values
// and a list<int32> l.
func rowFilterRecord(t *testing.T, n int) *alkaid.Record {
	t.Helper()
	lt := datatype.ListOf(datatype.Int32)
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64}, {Name: "x", Type: datatype.Int64, Nullable: true},
		{Name: "f", Type: datatype.Float64, Nullable: true}, {Name: "s", Type: datatype.String, Nullable: true},
		{Name: "u", Type: datatype.String, Nullable: true}, {Name: "l", Type: lt, Nullable: true},
	}, datatype.Metadata{})
	id := array.NewPrimitiveBuilder[int64](datatype.Int64)
	x := array.NewPrimitiveBuilder[int64](datatype.Int64)
	f := array.NewPrimitiveBuilder[float64](datatype.Float64)
	sb := array.NewBinaryBuilder[int32](datatype.String)
	ub := array.NewBinaryBuilder[int32](datatype.String)
	lb := array.NewListBuilder[int32](lt)
	vb := lb.ValueBuilder().(*array.PrimitiveBuilder[int32])
	for i := range n {
		id.Append(int64(i))
		if i%7 == 3 {
			x.AppendNull()
		} else {
			x.Append(int64(i * 37 % 1000))
		}
		if i%5 == 1 {
			f.AppendNull()
		} else {
			f.Append(float64(i%13) / 4)
		}
		if i%11 == 2 {
			sb.AppendNull()
		} else {
			sb.Append([]byte(fmt.Sprintf("s%d", i%9)))
		}
		ub.Append([]byte(fmt.Sprintf("u%05d", i)))
		lb.Append(true)
		for k := range i % 3 {
			vb.Append(int32(i + k))
		}
	}
	r, err := alkaid.NewRecord(s, []array.Array{id.Finish(), x.Finish(), f.Finish(), sb.Finish(), ub.Finish(), lb.NewArray()}, n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// keepSmallX keeps the rows whose x (the record's column 0) is below
// 300: null where x is null.
func keepSmallX(r *alkaid.Record) (*array.Boolean, error) {
	x := r.Column(0).(*array.Int64)
	b := array.NewBooleanBuilder(datatype.Bool)
	for i := range x.Len() {
		if x.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(x.Value(i) < 300)
		}
	}
	return b.Finish(), nil
}

// TestWithRowFilter: a filtered read holds exactly the rows of the whole
// read that the filter keeps, of every field (dictionary-encoded ones
// read as indices first, plain, fallen back to PLAIN mid-chunk, nested),
// across row groups and batches, on poisoned memory.
func TestWithRowFilter(t *testing.T) {
	const n = 5000
	rec := rowFilterRecord(t, n)
	tests := []struct {
		name  string
		limit int // the writer's dictionary limit
		v2    bool
	}{
		{"dictionary", 0, false},
		{"fallback", 2048, false},
		{"v2", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := []Option{WithDictionary(true, tc.limit), WithPageSize(1024), WithRowGroupRows(1500)}
			if tc.v2 {
				opts = append(opts, WithDataPageV2())
			}
			data := writeFile(t, []*alkaid.Record{rec}, opts...)
			f, all := readFile(t, data)
			cols := make([]array.Array, rec.NumCols())
			for c := range cols {
				cols[c] = concatColumn(t, all, c)
			}
			whole, err := alkaid.NewRecord(rec.Schema(), cols, n)
			if err != nil {
				t.Fatal(err)
			}
			xs, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{rec.Schema().Field(1)}, datatype.Metadata{}), cols[1:2], n)
			if err != nil {
				t.Fatal(err)
			}
			mask, err := keepSmallX(xs)
			if err != nil {
				t.Fatal(err)
			}
			want, err := compute.FilterRecord(whole, mask)
			if err != nil {
				t.Fatal(err)
			}
			if tc.limit == 0 {
				// f and s are read as dictionary indices, then filtered.
				g, err := f.Select(WithRowFilter([]string{"x"}, keepSmallX))
				if err != nil {
					t.Fatal(err)
				}
				p, err := g.planned()
				if err != nil {
					t.Fatal(err)
				}
				r, err := g.openRowGroup(p.groups[0], p, 1, newBudget(g.cfg.limits, g.size), nil)
				if err != nil {
					t.Fatal(err)
				}
				for c := range rec.NumCols() {
					asDict := c == 2 || c == 3
					if got := r.plans[c] == p.filter.asDict[c] && asDict; got != asDict {
						t.Errorf("column %d read as dictionary indices: %v, want %v", c, got, asDict)
					}
				}
			}
			for _, batch := range []int{700, 1 << 16} {
				got, err := readAll(f, WithRowFilter([]string{"x"}, keepSmallX), WithBatchSize(batch))
				if err != nil {
					t.Fatal(err)
				}
				rows := 0
				for _, r := range got {
					if r.NumRows() == 0 {
						t.Fatal("a record of no rows")
					}
					rows += r.NumRows()
				}
				if rows != want.NumRows() {
					t.Fatalf("batch %d: %d rows, want %d", batch, rows, want.NumRows())
				}
				sameRows(t, []*alkaid.Record{want}, got)
			}
			// x read for the filter alone: the records hold f and u.
			got, err := readAll(f, WithColumns("f", "u"), WithRowFilter([]string{"x"}, keepSmallX), WithBatchSize(700))
			if err != nil {
				t.Fatal(err)
			}
			fu, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{want.Schema().Field(2), want.Schema().Field(4)}, datatype.Metadata{}),
				[]array.Array{want.Column(2), want.Column(4)}, want.NumRows())
			if err != nil {
				t.Fatal(err)
			}
			if got[0].NumCols() != 2 {
				t.Fatalf("%d columns, want 2", got[0].NumCols())
			}
			sameRows(t, []*alkaid.Record{fu}, got)
		})
	}
}

// TestWithRowFilterErrors: a filter column not read and a keep function
// returning the wrong length are ErrInvalid; keep's own error ends the
// read as it is; a filter keeping nothing yields no record.
func TestWithRowFilterErrors(t *testing.T) {
	data := writeFile(t, []*alkaid.Record{rowFilterRecord(t, 100)})
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	errMine := errors.New("mine")
	none := func(r *alkaid.Record) (*array.Boolean, error) {
		b := array.NewBooleanBuilder(datatype.Bool)
		for range r.NumRows() {
			b.Append(false)
		}
		return b.Finish(), nil
	}
	tests := []struct {
		name string
		opts []Option
		want error
	}{
		{"unknown column", []Option{WithRowFilter([]string{"nope"}, keepSmallX)}, ErrInvalid},
		{"nil keep", []Option{WithRowFilter([]string{"x"}, nil)}, ErrInvalid},
		{"short mask", []Option{WithRowFilter([]string{"x"}, func(*alkaid.Record) (*array.Boolean, error) {
			return array.NewBooleanBuilder(datatype.Bool).Finish(), nil
		})}, ErrInvalid},
		{"keep fails", []Option{WithRowFilter([]string{"x"}, func(*alkaid.Record) (*array.Boolean, error) { return nil, errMine })}, errMine},
		{"keeps none", []Option{WithRowFilter([]string{"x"}, none)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(f, tc.opts...)
			if !errors.Is(err, tc.want) || (tc.want != nil) != (err != nil) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if err == nil && len(got) != 0 {
				t.Fatalf("%d records, want none", len(got))
			}
		})
	}
}

// TestTakeDictionary: kept indices become the dictionary's values, null
// where the index is (whatever its value); an index out of range that is
// not null is ErrInvalid.
func TestTakeDictionary(t *testing.T) {
	dv := array.NewPrimitiveBuilder[float64](datatype.Float64)
	dv.AppendValues([]float64{1.5, 2.5}, nil)
	dict := dv.Finish()
	idx := func(vals []int32, valid []bool) array.Array {
		b := array.NewPrimitiveBuilder[int32](datatype.Int32)
		b.AppendValues(vals, valid)
		return b.Finish()
	}
	got, err := takeDictionary(dict, idx([]int32{1, 0, 7, 1}, []bool{true, true, false, true}))
	if err != nil {
		t.Fatal(err)
	}
	if s := array.Format(got); s != "[2.5 1.5 (null) 2.5]" {
		t.Errorf("got %s", s)
	}
	if _, err := takeDictionary(dict, idx([]int32{0, 2}, nil)); !errors.Is(err, ErrInvalid) {
		t.Errorf("index 2 of 2 values: %v, want ErrInvalid", err)
	}
}
