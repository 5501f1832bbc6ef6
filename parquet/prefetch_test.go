package parquet_test

import (
	"bytes"
	"errors"
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

func (p *prefetchRecorder) Prefetch(ranges [][2]int64) []func() ([]byte, error) {
	p.mu.Lock()
	p.announced = append(p.announced, ranges...)
	p.mu.Unlock()
	return nil
}

var _ parquet.Prefetcher = (*prefetchRecorder)(nil)

// threeRowGroups is a file of columns a (int64: 0..5) and b (strings) in
// three row groups of two rows.
func threeRowGroups(t *testing.T) *bytes.Buffer {
	t.Helper()
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
	return &buf
}

// Every column chunk read is announced to a Prefetcher first, one range
// per chunk, and nothing else is read.
func TestPrefetchAnnouncesColumnChunks(t *testing.T) {
	buf := threeRowGroups(t)
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

// fetchingPrefetcher is a Prefetcher that gives back its ranges' bytes,
// each in memory of its own, as a reader over a network would; with
// fail, every fetch fails, and with short, each gives one byte too few.
type fetchingPrefetcher struct {
	prefetchRecorder
	fail        error
	short       bool
	mu2         sync.Mutex
	fetched     [][]byte
	fetchCalled int
}

func (p *fetchingPrefetcher) Prefetch(ranges [][2]int64) []func() ([]byte, error) {
	p.prefetchRecorder.Prefetch(ranges)
	out := make([]func() ([]byte, error), len(ranges))
	for i, r := range ranges {
		out[i] = func() ([]byte, error) {
			p.mu2.Lock()
			defer p.mu2.Unlock()
			p.fetchCalled++
			if p.fail != nil {
				return nil, p.fail
			}
			b := make([]byte, r[1])
			if _, err := p.r.ReadAt(b, r[0]); err != nil {
				return nil, err
			}
			if p.short {
				b = b[:len(b)-1]
			}
			p.fetched = append(p.fetched, b)
			return b, nil
		}
	}
	return out
}

// Column chunks are decoded from the bytes a Prefetcher gives back, not
// read again with ReadAt, and the values read do not alias them; a fetch
// that fails, or gives the wrong length, is an error.
func TestPrefetchFetchedBytes(t *testing.T) {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int64},
		{Name: "b", Type: datatype.String, Nullable: true},
		{Name: "c", Type: datatype.Float64},
	}, datatype.Metadata{})
	var buf bytes.Buffer
	w, err := parquet.NewWriter(&buf, schema, parquet.WithRowGroupRows(2))
	if err != nil {
		t.Fatal(err)
	}
	var want []*alkaid.Record
	for i := range 3 {
		rec, err := alkaid.NewRecord(schema, []array.Array{
			arrayjson.MustParse(datatype.Int64, fmt.Sprintf("[%d, %d]", 2*i, 2*i+1)),
			arrayjson.MustParse(datatype.String, `["x", null]`),
			arrayjson.MustParse(datatype.Float64, fmt.Sprintf("[%d.5, 7]", i)),
		}, 2)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, rec)
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fail := errors.New("connection reset")
	for _, tc := range []struct {
		name    string
		fail    error
		short   bool
		wantErr error
	}{
		{name: "fetched"},
		{name: "fetch fails", fail: fail, wantErr: fail},
		{name: "fetch short", short: true, wantErr: parquet.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &fetchingPrefetcher{prefetchRecorder: prefetchRecorder{r: bytes.NewReader(buf.Bytes())}, fail: tc.fail, short: tc.short}
			f, err := parquet.NewFile(p, int64(buf.Len()))
			if err != nil {
				t.Fatal(err)
			}
			p.on = true
			var got []*alkaid.Record
			for r, err := range f.Records() {
				if err != nil {
					if tc.wantErr == nil || !errors.Is(err, tc.wantErr) {
						t.Fatalf("error %v, want %v", err, tc.wantErr)
					}
					return
				}
				got = append(got, r)
			}
			if tc.wantErr != nil {
				t.Fatalf("no error, want %v", tc.wantErr)
			}
			if len(p.reads) != 0 {
				t.Errorf("column chunks read again with ReadAt: %v", p.reads)
			}
			if want := f.NumRowGroups() * 3; p.fetchCalled != want {
				t.Errorf("%d fetches called, want one per column chunk (%d)", p.fetchCalled, want)
			}
			for _, b := range p.fetched { // the values must not alias them
				for i := range b {
					b[i] = 0xa5
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d", len(got), len(want))
			}
			for i := range want {
				for c := range want[i].NumCols() {
					if !array.Equal(got[i].Column(c), want[i].Column(c)) {
						t.Errorf("record %d column %d: got %v, want %v", i, c, got[i].Column(c), want[i].Column(c))
					}
				}
			}
		})
	}
}

// Prefetch announces a row group's chunks at once; a File that Select
// made reading that row group then takes those fetches instead of
// announcing the chunks again. A row group the options do not read, or
// one out of range, announces nothing.
func TestPrefetchAhead(t *testing.T) {
	buf := threeRowGroups(t)
	p := &fetchingPrefetcher{prefetchRecorder: prefetchRecorder{r: bytes.NewReader(buf.Bytes())}}
	f, err := parquet.NewFile(p, int64(buf.Len()), parquet.WithRowGroups(0, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []int{-1, 2, 3} {
		f.Prefetch(g)
	}
	if len(p.announced) != 0 {
		t.Fatalf("row groups not read announced %v", p.announced)
	}
	f.Prefetch(1)()
	if p.fetchCalled != 2 {
		t.Fatalf("the wait took %d fetches, want 2", p.fetchCalled)
	}
	if len(p.announced) != 2 {
		t.Fatalf("Prefetch(1) announced %v, want its two chunks", p.announced)
	}
	sel, err := f.Select(parquet.WithRowGroups(1))
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for r, err := range sel.Records() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Column(0).(*array.Primitive[int64]).Values()...)
	}
	if fmt.Sprint(got) != "[2 3]" {
		t.Fatalf("read %v, want [2 3]", got)
	}
	if len(p.announced) != 2 || p.fetchCalled != 2 {
		t.Fatalf("after the read: %d ranges announced, %d fetches taken; want 2 and 2", len(p.announced), p.fetchCalled)
	}
	// Taken once: a second read of row group 1 announces anew.
	for _, err := range sel.Records() {
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(p.announced) != 4 {
		t.Fatalf("a second read announced %d ranges in all, want 4", len(p.announced))
	}
}
