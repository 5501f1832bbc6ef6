package bench

import (
	"bytes"
	"math"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestParquetArrowGoFallbackValues reads an optional float64 column that
// arrow-go wrote with dictionary pages first (150k values of 10 distinct)
// and PLAIN pages after its dictionary outgrew 1 MiB (150k distinct
// values), in one chunk of small pages, and checks every slot against the
// source.
func TestParquetArrowGoFallbackValues(t *testing.T) {
	const n = 300_000
	want := make([]float64, n)
	null := func(i int) bool { return i%19 == 5 }
	b := aarray.NewFloat64Builder(mem)
	for i := range n {
		want[i] = float64(i % 10)
		if i >= n/2 {
			want[i] = math.Sqrt(float64(i)) * 1.5
		}
		if null(i) {
			b.AppendNull()
		} else {
			b.Append(want[i])
		}
	}
	col := b.NewArray()
	schema := aarrow.NewSchema([]aarrow.Field{{Name: "f", Type: aarrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	rec := aarray.NewRecordBatch(schema, []aarrow.Array{col}, n)
	tbl := aarray.NewTableFromRecords(schema, []aarrow.RecordBatch{rec})
	var buf bytes.Buffer
	props := aparquet.NewWriterProperties(aparquet.WithMaxRowGroupLength(n), aparquet.WithAllocator(mem),
		aparquet.WithDataPageSize(8<<10))
	if err := pqarrow.WriteTable(tbl, &buf, n, props, pqarrow.NewArrowWriterProperties()); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := pf.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[aparquet.Encoding]bool{}
	for _, st := range cc.EncodingStats() {
		// Page types 0 and 3 are data pages (v1, v2); 2 is the dictionary.
		if pt := int(st.PageType); pt == 0 || pt == 3 {
			pages[aparquet.Encoding(st.Encoding)] = true
		}
	}
	if len(pages) < 2 {
		t.Fatalf("data page encodings %v: want dictionary and PLAIN pages", pages)
	}
	f, err := parquet.NewFileBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for r, err := range f.Records() {
		if err != nil {
			t.Fatal(err)
		}
		got, ok := r.Column(0).(*array.Float64)
		if !ok {
			t.Fatalf("column of %T", r.Column(0))
		}
		for k := range got.Len() {
			if got.IsNull(k) != null(i) || (!null(i) && got.Value(k) != want[i]) {
				t.Fatalf("slot %d: got %v (null %v), want %v (null %v)", i, got.Value(k), got.IsNull(k), want[i], null(i))
			}
			i++
		}
	}
	if i != n {
		t.Fatalf("%d rows, want %d", i, n)
	}
}
