package parquet_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// prefetchRecorder is a ReaderAt that records the ranges announced to it
// and the reads made after the footer was read.
type prefetchRecorder struct {
	r         *bytes.Reader
	mu        sync.Mutex
	announced [][2]int64
	reads     [][2]int64
	on        bool
}

func (p *prefetchRecorder) ReadAt(b []byte, off int64) (int, error) {
	p.mu.Lock()
	if p.on {
		p.reads = append(p.reads, [2]int64{off, int64(len(b))})
	}
	p.mu.Unlock()
	return p.r.ReadAt(b, off)
}

func (p *prefetchRecorder) Prefetch(ranges [][2]int64) {
	p.mu.Lock()
	p.announced = append(p.announced, ranges...)
	p.mu.Unlock()
}

var _ parquet.Prefetcher = (*prefetchRecorder)(nil)

// Every column chunk read is announced to a Prefetcher first, one range
// per chunk, and nothing else is read.
func TestPrefetchAnnouncesColumnChunks(t *testing.T) {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int64},
		{Name: "b", Type: datatype.String},
	}, datatype.Metadata{})
	var buf bytes.Buffer
	w, err := parquet.NewWriter(&buf, schema, parquet.WithRowGroupRows(2))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		rec, err := alkaid.NewRecord(schema, []array.Array{
			arrayjson.MustParse(datatype.Int64, fmt.Sprintf("[%d, %d]", 2*i, 2*i+1)),
			arrayjson.MustParse(datatype.String, `["x", "y"]`),
		}, 2)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec := &prefetchRecorder{r: bytes.NewReader(buf.Bytes())}
	f, err := parquet.NewFile(rec, int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rec.on = true
	rows := 0
	for r, err := range f.Records() {
		if err != nil {
			t.Fatal(err)
		}
		rows += r.NumRows()
	}
	if rows != 6 {
		t.Fatalf("read %d rows, want 6", rows)
	}
	if want := f.NumRowGroups() * 2; len(rec.announced) != want {
		t.Fatalf("%d ranges announced, want one per column chunk (%d): %v", len(rec.announced), want, rec.announced)
	}
	for _, rd := range rec.reads {
		inside := false
		for _, a := range rec.announced {
			inside = inside || (rd[0] >= a[0] && rd[0]+rd[1] <= a[0]+a[1])
		}
		if !inside {
			t.Errorf("read of %d bytes at %d was not announced (announced %v)", rd[1], rd[0], rec.announced)
		}
	}
}
