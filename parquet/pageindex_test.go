package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// pagedData is the rows of a file of small pages: id = row number, a
// rising with noise, b a float64 with nulls, s a string.
type pagedData struct {
	a     []int64
	b     []float64
	bNull []bool
	s     []string
}

func newPagedData(r *rand.Rand, n int) *pagedData {
	d := &pagedData{}
	for i := range n {
		d.a = append(d.a, int64(i/4)+r.Int64N(20))
		d.b = append(d.b, float64(r.IntN(1000))/10)
		d.bNull = append(d.bNull, r.IntN(5) == 0 || (i >= 300 && i < 500))
		d.s = append(d.s, fmt.Sprintf("v%04d", r.IntN(n)))
	}
	return d
}

func (d *pagedData) record(t testing.TB) *alkaid.Record {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "a", Type: datatype.Int64},
		{Name: "b", Type: datatype.Float64, Nullable: true},
		{Name: "s", Type: datatype.String},
	}, datatype.Metadata{})
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	ab := array.NewPrimitiveBuilder[int64](datatype.Int64)
	bb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for i := range d.a {
		ib.Append(int64(i))
		ab.Append(d.a[i])
		if d.bNull[i] {
			bb.AppendNull()
		} else {
			bb.Append(d.b[i])
		}
	}
	sb := array.NewBuilder(datatype.String).(*array.BinaryBuilder[int32])
	sb.AppendStrings(d.s, nil)
	rec, err := alkaid.NewRecord(s, []array.Array{ib.Finish(), ab.Finish(), bb.Finish(), sb.NewArray()}, len(d.a))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// matches is the brute-force value of predicate p on row i.
func (d *pagedData) matches(i int, p Predicate) bool {
	switch p.Column {
	case "a":
		x, v, v2 := d.a[i], p.Value.(int64), int64(0)
		if p.Value2 != nil {
			v2 = p.Value2.(int64)
		}
		return compareOp(p.Op, x < v, x > v, x > v2)
	case "b":
		if p.Op == IsNull || d.bNull[i] {
			return p.Op == IsNull && d.bNull[i]
		}
		x, v, v2 := d.b[i], p.Value.(float64), 0.0
		if p.Value2 != nil {
			v2 = p.Value2.(float64)
		}
		return compareOp(p.Op, x < v, x > v, x > v2)
	default:
		x, v, v2 := d.s[i], p.Value.(string), ""
		if p.Value2 != nil {
			v2 = p.Value2.(string)
		}
		return compareOp(p.Op, x < v, x > v, x > v2)
	}
}

func compareOp(op Op, lt, gt, gt2 bool) bool {
	switch op {
	case Eq:
		return !lt && !gt
	case Lt:
		return lt
	case Gt:
		return gt
	case Between:
		return !lt && !gt2
	}
	return false
}

func TestPageIndexRoundTrip(t *testing.T) {
	d := newPagedData(rand.New(rand.NewPCG(1, 2)), 2000)
	data := writeFile(t, []*alkaid.Record{d.record(t)}, WithRowGroupRows(700), WithPageSize(100), WithDictionary(false, 0))
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	for g := range f.NumRowGroups() {
		base := int64(g * 700)
		rows := f.meta.RowGroups[g].NumRows
		for c, l := range f.leaves {
			pi, err := f.pageIndex(g, c)
			if err != nil {
				t.Fatal(err)
			}
			if pi == nil || pi.col == nil {
				t.Fatalf("group %d column %s: no page index", g, pathString(l.path))
			}
			if len(pi.rows) < 2 || pi.rows[len(pi.rows)-1].hi != rows {
				t.Fatalf("group %d column %s: pages %v of %d rows", g, pathString(l.path), pi.rows, rows)
			}
			for p, r := range pi.rows {
				loc := pi.off.PageLocations[p]
				if loc.Offset < 4 || loc.CompressedPageSize <= 0 {
					t.Errorf("page %d location %+v", p, loc)
				}
				var nulls int64
				var lo, hi []byte
				for i := base + r.lo; i < base+r.hi; i++ {
					var v []byte
					switch pathString(l.path) {
					case "id":
						v = binary.LittleEndian.AppendUint64(nil, uint64(i))
					case "a":
						v = binary.LittleEndian.AppendUint64(nil, uint64(d.a[i]))
					case "b":
						if d.bNull[i] {
							nulls++
							continue
						}
						v = binary.LittleEndian.AppendUint64(nil, math.Float64bits(d.b[i]))
					case "s":
						v = []byte(d.s[i])
					}
					less := func(x, y []byte) bool {
						switch pathString(l.path) {
						case "s":
							return bytes.Compare(x, y) < 0
						case "b":
							return math.Float64frombits(binary.LittleEndian.Uint64(x)) < math.Float64frombits(binary.LittleEndian.Uint64(y))
						}
						return int64(binary.LittleEndian.Uint64(x)) < int64(binary.LittleEndian.Uint64(y))
					}
					if pathString(l.path) == "b" && math.Float64frombits(binary.LittleEndian.Uint64(v)) == 0 {
						v = binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.Copysign(0, -1)))
					}
					if lo == nil || less(v, lo) {
						lo = v
					}
					if hi == nil || less(hi, v) {
						hi = v
					}
				}
				ci := pi.col
				if ci.NullCounts[p] != nulls || ci.NullPages[p] != (lo == nil) {
					t.Errorf("group %d column %s page %d: nulls %d null page %v, want %d", g, pathString(l.path), p, ci.NullCounts[p], ci.NullPages[p], nulls)
				}
				if lo != nil && (!bytes.Equal(ci.MinValues[p], lo) || !bytes.Equal(ci.MaxValues[p], hi)) {
					t.Errorf("group %d column %s page %d: min %x max %x, want %x %x", g, pathString(l.path), p, ci.MinValues[p], ci.MaxValues[p], lo, hi)
				}
			}
		}
	}
	// Without the page index, the chunks carry none.
	f, err = NewFileBytes(writeFile(t, []*alkaid.Record{d.record(t)}, WithoutPageIndex()))
	if err != nil {
		t.Fatal(err)
	}
	if pi, err := f.pageIndex(0, 0); pi != nil || err != nil {
		t.Errorf("WithoutPageIndex: page index %v, %v", pi, err)
	}
}

// readFiltered reads the file with the predicates and returns the ids
// read, checking every other column against d, and the pages decoded.
func readFiltered(t *testing.T, data []byte, d *pagedData, ps []Predicate, opts ...Option) ([]int64, int64) {
	t.Helper()
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	before := pagesDecoded.Load()
	var ids []int64
	for rec, err := range records(f, append(opts, WithPredicates(ps...), WithConcurrency(1))...) {
		if err != nil {
			t.Fatal(err)
		}
		id := rec.Column(0).(*array.Int64)
		a := rec.Column(1).(*array.Int64)
		b := rec.Column(2).(*array.Float64)
		s := rec.Column(3).(*array.Binary[int32])
		for r := range rec.NumRows() {
			i := id.Value(r)
			if a.Value(r) != d.a[i] || b.IsNull(r) != d.bNull[i] || (!d.bNull[i] && b.Value(r) != d.b[i]) || s.ValueString(r) != d.s[i] {
				t.Fatalf("%v: row %d (id %d) holds other values", ps, r, i)
			}
			ids = append(ids, i)
		}
	}
	return ids, pagesDecoded.Load() - before
}

func TestPredicatesSkipPages(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	d := newPagedData(r, 3000)
	data := writeFile(t, []*alkaid.Record{d.record(t)}, WithRowGroupRows(1000), WithPageSize(100))
	_, all := readFiltered(t, data, d, nil)
	// a rises with the row number: a narrow range reads few pages.
	ids, some := readFiltered(t, data, d, []Predicate{{Column: "a", Op: Between, Value: int64(300), Value2: int64(310)}})
	if some*4 > all || some == 0 {
		t.Errorf("between: %d pages decoded of %d", some, all)
	}
	if len(ids) == 0 || len(ids) > 400 {
		t.Errorf("between: %d rows read", len(ids))
	}
	_, none := readFiltered(t, data, d, []Predicate{{Column: "a", Op: Gt, Value: int64(5000)}})
	if none != 0 {
		t.Errorf("no match: %d pages decoded", none)
	}

	// Property: over random predicates, every matching row is read, ids
	// rise, and rows hold their own values (checked by readFiltered).
	for k := range 60 {
		var ps []Predicate
		for range 1 + r.IntN(2) {
			ps = append(ps, randomPredicate(r, len(d.a)))
		}
		ids, _ := readFiltered(t, data, d, ps)
		if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
			t.Fatalf("case %d %v: ids out of order", k, ps)
		}
		for i := range d.a {
			want := true
			for _, p := range ps {
				want = want && d.matches(i, p)
			}
			if want {
				if _, found := slices.BinarySearch(ids, int64(i)); !found {
					t.Fatalf("case %d %v: matching row %d not read", k, ps, i)
				}
			}
		}
		// A projection of some columns reads the same rows.
		if k%10 == 0 {
			f, err := NewFileBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for rec, err := range records(f, WithPredicates(ps...), WithColumns("id", "s"), WithBatchSize(77)) {
				if err != nil {
					t.Fatal(err)
				}
				id := rec.Column(0).(*array.Int64)
				for r := range rec.NumRows() {
					got = append(got, id.Value(r))
				}
			}
			if !slices.Equal(got, ids) {
				t.Fatalf("case %d %v: projection read %d rows, the whole %d", k, ps, len(got), len(ids))
			}
		}
	}
}

func randomPredicate(r *rand.Rand, n int) Predicate {
	op := Op(r.IntN(5))
	switch r.IntN(3) {
	case 0:
		if op == IsNull {
			op = Eq
		}
		v := int64(r.IntN(n/4 + 30))
		return Predicate{Column: "a", Op: op, Value: v, Value2: v + int64(r.IntN(40))}
	case 1:
		v := float64(r.IntN(1000)) / 10
		return Predicate{Column: "b", Op: op, Value: v, Value2: v + float64(r.IntN(100))}
	}
	if op == IsNull {
		op = Lt
	}
	v := fmt.Sprintf("v%04d", r.IntN(n))
	return Predicate{Column: "s", Op: op, Value: v, Value2: fmt.Sprintf("v%04d", r.IntN(n))}
}

func TestConformancePageIndex(t *testing.T) {
	names := []string{"alltypes_tiny_pages_plain.parquet",
		"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet",
		"int32_with_null_pages.parquet", "column_chunk_key_value_metadata.parquet"}
	testingFile(t, ".")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			f, err := OpenFile(filepath.Join(testingDir, name))
			if err != nil {
				t.Fatal(err)
			}
			indexes := 0
			for g := range f.NumRowGroups() {
				for c := range f.leaves {
					pi, err := f.pageIndex(g, c)
					if err != nil {
						t.Fatal(err)
					}
					if pi != nil {
						indexes++
					}
				}
			}
			if indexes == 0 && name != "column_chunk_key_value_metadata.parquet" {
				t.Errorf("no page index read")
			}
			// Reading with a predicate on the first leaf must not fail.
			l := f.leaves[0]
			p := Predicate{Column: pathString(l.path), Op: IsNull}
			if _, err := readAll(f, WithPredicates(p)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestInt32WithNullPages(t *testing.T) {
	path := testingFile(t, "int32_with_null_pages.parquet")
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := readAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var want []int32
	nulls := 0
	for _, rec := range whole {
		a := rec.Column(0).(*array.Int32)
		for i := range rec.NumRows() {
			if a.IsNull(i) {
				nulls++
			} else if a.Value(i) > 1000 {
				want = append(want, a.Value(i))
			}
		}
	}
	before := pagesDecoded.Load()
	all := before
	_, _ = readAll(f)
	all = pagesDecoded.Load() - before
	before = pagesDecoded.Load()
	recs, err := readAll(f, WithPredicates(Predicate{Column: pathString(f.leaves[0].path), Op: Gt, Value: int64(1000)}))
	if err != nil {
		t.Fatal(err)
	}
	read := pagesDecoded.Load() - before
	var got []int32
	for _, rec := range recs {
		a := rec.Column(0).(*array.Int32)
		for i := range rec.NumRows() {
			if !a.IsNull(i) && a.Value(i) > 1000 {
				got = append(got, a.Value(i))
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("read %d values > 1000, want %d", len(got), len(want))
	}
	pi, err := f.pageIndex(0, 0)
	if err != nil || pi == nil || pi.col == nil {
		t.Fatalf("page index %v, %v", pi, err)
	}
	if slices.Contains(pi.col.NullPages, true) && read >= all {
		t.Errorf("%d of %d pages decoded: null pages not skipped", read, all)
	}
	t.Logf("%d of %d pages decoded, %d nulls", read, all, nulls)
}

func TestConformanceSkipPages(t *testing.T) {
	path := testingFile(t, "alltypes_tiny_pages_plain.parquet")
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before := pagesDecoded.Load()
	whole, err := readAll(f, WithColumns("id", "string_col"))
	if err != nil {
		t.Fatal(err)
	}
	all := pagesDecoded.Load() - before
	before = pagesDecoded.Load()
	recs, err := readAll(f, WithColumns("id", "string_col"), WithPredicates(Predicate{Column: "id", Op: Between, Value: int64(3000), Value2: int64(3100)}))
	if err != nil {
		t.Fatal(err)
	}
	read := pagesDecoded.Load() - before
	// Every row with 3000 <= id <= 3100 comes out, with its string.
	want := map[int32]string{}
	for _, rec := range whole {
		id, s := rec.Column(0).(*array.Int32), rec.Column(1).(*array.Binary[int32])
		for i := range rec.NumRows() {
			if v := id.Value(i); v >= 3000 && v <= 3100 {
				want[v] = s.ValueString(i)
			}
		}
	}
	got := map[int32]string{}
	rows := 0
	for _, rec := range recs {
		id, s := rec.Column(0).(*array.Int32), rec.Column(1).(*array.Binary[int32])
		rows += rec.NumRows()
		for i := range rec.NumRows() {
			if v := id.Value(i); v >= 3000 && v <= 3100 {
				got[v] = s.ValueString(i)
			}
		}
	}
	if len(want) != 101 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("read %d matching rows, want %d", len(got), len(want))
	}
	if read*4 > all {
		t.Errorf("%d of %d pages decoded for %d rows", read, all, rows)
	}
}

// Chunk statistics folded from the pages equal those of a scan of the
// chunk (the writer without the page index).
func TestPageIndexChunkStatistics(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "u", Type: datatype.Uint32, Nullable: true},
		{Name: "f", Type: datatype.Float32},
		{Name: "d", Type: datatype.Float64, Nullable: true},
		{Name: "b", Type: datatype.Bool},
		{Name: "i", Type: datatype.Int8},
	}, datatype.Metadata{})
	for k := range 20 {
		n := 1 + r.IntN(600)
		ub := array.NewPrimitiveBuilder[uint32](datatype.Uint32)
		fb := array.NewPrimitiveBuilder[float32](datatype.Float32)
		db := array.NewPrimitiveBuilder[float64](datatype.Float64)
		bb := array.NewBooleanBuilder(datatype.Bool)
		ib := array.NewPrimitiveBuilder[int8](datatype.Int8)
		special := []float64{0, math.Copysign(0, -1), math.NaN(), -1, 1}
		for range n {
			if r.IntN(3) == 0 {
				ub.AppendNull()
			} else {
				ub.Append(r.Uint32())
			}
			fb.Append(float32(special[r.IntN(len(special))]) * float32(r.IntN(3)))
			switch r.IntN(4) {
			case 0:
				db.AppendNull()
			case 1:
				db.Append(special[r.IntN(len(special))])
			default:
				db.Append(r.NormFloat64())
			}
			bb.Append(k%2 == 0 || r.IntN(2) == 0)
			ib.Append(int8(r.IntN(256) - 128))
		}
		rec, err := alkaid.NewRecord(s, []array.Array{ub.Finish(), fb.Finish(), db.Finish(), bb.NewArray(), ib.Finish()}, n)
		if err != nil {
			t.Fatal(err)
		}
		metas := func(opts ...Option) string {
			f, err := NewFileBytes(writeFile(t, []*alkaid.Record{rec}, append(opts, WithPageSize(8), WithDictionary(false, 0))...))
			if err != nil {
				t.Fatal(err)
			}
			var out string
			for _, c := range f.meta.RowGroups[0].Columns {
				st := c.MetaData.Statistics
				out += fmt.Sprintf("%x %x %d | ", st.MinValue, st.MaxValue, *st.NullCount)
			}
			return out
		}
		if with, without := metas(), metas(WithoutPageIndex()); with != without {
			t.Fatalf("case %d: statistics %s with the page index, %s without", k, with, without)
		}
	}
}

// A dictionary column written with its own dictionary: each page's min
// and max are those of the entries its rows use.
func TestPageIndexDictionaryColumn(t *testing.T) {
	dt, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	if err != nil {
		t.Fatal(err)
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt, Nullable: true}}, datatype.Metadata{})
	b := array.NewBuilder(dt).(*array.DictionaryBuilder[string])
	var vals []string // "" for null
	for i := range 5000 {
		if i%7 == 3 {
			b.AppendNull()
			vals = append(vals, "")
			continue
		}
		v := fmt.Sprintf("value-%04d", (i/50)*3+i%5)
		vals = append(vals, v)
		if err := b.Append(v); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := alkaid.NewRecord(s, []array.Array{b.NewArray()}, 5000)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFileBytes(writeFile(t, []*alkaid.Record{rec}, WithPageSize(64)))
	if err != nil {
		t.Fatal(err)
	}
	pi, err := f.pageIndex(0, 0)
	if err != nil || pi == nil || pi.col == nil || len(pi.rows) < 2 {
		t.Fatalf("page index %v, %v", pi, err)
	}
	for p, r := range pi.rows {
		lo, hi, nulls := "", "", int64(0)
		for _, v := range vals[r.lo:r.hi] {
			switch {
			case v == "":
				nulls++
			case lo == "":
				lo, hi = v, v
			default:
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if string(pi.col.MinValues[p]) != lo || string(pi.col.MaxValues[p]) != hi || pi.col.NullCounts[p] != nulls {
			t.Errorf("page %d: min %q max %q nulls %d, want %q %q %d", p, pi.col.MinValues[p], pi.col.MaxValues[p], pi.col.NullCounts[p], lo, hi, nulls)
		}
	}
}

func TestPageIndexBoundaryOrder(t *testing.T) {
	cases := []struct {
		name string
		val  func(i int) int64
		want int32
	}{
		{"ascending", func(i int) int64 { return int64(i) }, ascending},
		{"descending", func(i int) int64 { return int64(-i) }, descending},
		{"constant", func(int) int64 { return 7 }, ascending},
		{"unordered", func(i int) int64 { return int64((i * 7919) % 1013) }, unordered},
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "v", Type: datatype.Int64}}, datatype.Metadata{})
	for _, c := range cases {
		b := array.NewPrimitiveBuilder[int64](datatype.Int64)
		for i := range 2000 {
			b.Append(c.val(i))
		}
		rec, err := alkaid.NewRecord(s, []array.Array{b.Finish()}, 2000)
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFileBytes(writeFile(t, []*alkaid.Record{rec}, WithPageSize(256), WithDictionary(false, 0)))
		if err != nil {
			t.Fatal(err)
		}
		pi, err := f.pageIndex(0, 0)
		if err != nil || pi == nil || pi.col == nil || len(pi.rows) < 3 {
			t.Fatalf("%s: page index %v, %v", c.name, pi, err)
		}
		if pi.col.BoundaryOrder != c.want {
			t.Errorf("%s: boundary order %d, want %d", c.name, pi.col.BoundaryOrder, c.want)
		}
	}
}

// Page skipping with dictionary arrays asked: the kept rows' strings.
func TestSkipPagesDictionaryArrays(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	d := newPagedData(r, 3000)
	for i := range d.s {
		d.s[i] = fmt.Sprintf("v%02d", r.IntN(40))
	}
	data := writeFile(t, []*alkaid.Record{d.record(t)}, WithRowGroupRows(1000), WithPageSize(100))
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	p := Predicate{Column: "a", Op: Between, Value: int64(200), Value2: int64(260)}
	rows := 0
	for rec, err := range records(f, WithPredicates(p), WithDictionaryArrays(), WithColumns("id", "s")) {
		if err != nil {
			t.Fatal(err)
		}
		id := rec.Column(0).(*array.Int64)
		s, ok := rec.Column(1).(*array.Dictionary)
		if !ok {
			t.Fatalf("column s read as %T", rec.Column(1))
		}
		dict := s.Dictionary().(*array.Binary[int32])
		for i := range rec.NumRows() {
			if got := dict.ValueString(s.ValueIndex(i)); got != d.s[id.Value(i)] {
				t.Fatalf("row %d (id %d): %q, want %q", i, id.Value(i), got, d.s[id.Value(i)])
			}
		}
		rows += rec.NumRows()
	}
	if rows == 0 || rows >= 3000 {
		t.Errorf("%d rows read", rows)
	}
}

// Nested fields beside a flat predicate column (a list and a struct of
// two leaves whose pages start at different rows): only the pages that
// hold the selected rows are decoded, and each row read equals the one
// written.
func TestSkipPagesNestedFields(t *testing.T) {
	const n = 3000
	lt := datatype.ListOf(datatype.Int64)
	st := datatype.StructOf(datatype.Field{Name: "x", Type: datatype.Int64, Nullable: true}, datatype.Field{Name: "y", Type: datatype.String})
	var ids, as, ls, ss []string
	for i := range n {
		ids = append(ids, fmt.Sprint(i))
		as = append(as, fmt.Sprint(i/3))
		switch i % 5 {
		case 0:
			ls = append(ls, "null")
		case 1:
			ls = append(ls, "[]")
		default:
			ls = append(ls, fmt.Sprintf("[%d, %d]", i, -i))
		}
		ss = append(ss, fmt.Sprintf(`{"x": %d, "y": "s%d"}`, i*7, i))
	}
	join := func(v []string) string { return "[" + strings.Join(v, ",") + "]" }
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64}, {Name: "a", Type: datatype.Int64},
		{Name: "l", Type: lt, Nullable: true}, {Name: "st", Type: st},
	}, datatype.Metadata{})
	cols := []array.Array{arrayjson.MustParse(datatype.Int64, join(ids)), arrayjson.MustParse(datatype.Int64, join(as)),
		arrayjson.MustParse(lt, join(ls)), arrayjson.MustParse(st, join(ss))}
	rec, err := alkaid.NewRecord(s, cols, n)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, []*alkaid.Record{rec}, WithRowGroupRows(1000), WithPageSize(100), WithDictionary(false, 0))
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	p := Predicate{Column: "a", Op: Between, Value: int64(500), Value2: int64(520)}
	// Pages of the nested columns decoded: all of them, then with p.
	before := pagesDecoded.Load()
	if _, err := readAll(f, WithColumns("l", "st")); err != nil {
		t.Fatal(err)
	}
	all := pagesDecoded.Load() - before
	before = pagesDecoded.Load()
	if _, err := readAll(f, WithColumns("l", "st"), WithPredicates(p)); err != nil {
		t.Fatal(err)
	}
	if read := pagesDecoded.Load() - before; read*5 > all {
		t.Errorf("nested columns: %d of %d pages decoded for rows 1500..1562", read, all)
	}
	// read returns the ids of the rows read with p, each row checked
	// against the one written.
	read := func(p Predicate) []int64 {
		var ids []int64
		for got, err := range records(f, WithPredicates(p), WithBatchSize(50)) {
			if err != nil {
				t.Fatalf("%v: %v", p, err)
			}
			id := got.Column(0).(*array.Int64)
			for r := range got.NumRows() {
				i := int(id.Value(r))
				for c := range cols {
					if g, w := array.Format(array.Slice(got.Column(c), r, r+1)), array.Format(array.Slice(cols[c], i, i+1)); g != w {
						t.Fatalf("%v: row %d (id %d) column %d: %s, want %s", p, r, i, c, g, w)
					}
				}
				ids = append(ids, int64(i))
			}
		}
		return ids
	}
	// a in [500, 520] is rows 1500..1562: a few 64-row pages, not the 1000-row group.
	if rows := len(read(p)); rows < 63 || rows > 400 {
		t.Errorf("%d rows read", rows)
	}
	// Property: random ranges of a read every matching row, in order.
	r := rand.New(rand.NewPCG(11, 12))
	for range 30 {
		lo := int64(r.IntN(n / 3))
		p := Predicate{Column: "a", Op: Between, Value: lo, Value2: lo + int64(r.IntN(60))}
		ids := read(p)
		if !slices.IsSorted(ids) {
			t.Fatalf("%v: rows out of order", p)
		}
		for i := range n {
			if a := int64(i / 3); a >= lo && a <= p.Value2.(int64) {
				if _, found := slices.BinarySearch(ids, int64(i)); !found {
					t.Fatalf("%v: matching row %d not read", p, i)
				}
			}
		}
	}
}
