package objstore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/alkaid-go/alkaid/dataset"
)

var (
	_ fs.ReadDirFS     = (*FS)(nil)
	_ fs.StatFS        = (*FS)(nil)
	_ dataset.WriteFS  = (*FS)(nil)
	_ dataset.File     = (*File)(nil)
	_ fs.ReadDirFile   = (*dir)(nil)
	_ io.ReaderAt      = (*File)(nil)
	_ Store            = (*S3)(nil)
	_ prefetcherOfTest = (*File)(nil)
)

type prefetcherOfTest interface {
	Prefetch([][2]int64) []func() ([]byte, error)
}

func memFS(t *testing.T, files map[string][]byte) (*FS, *memStore) {
	t.Helper()
	m := newMemStore()
	for k, v := range files {
		m.put("data/"+k, v)
	}
	f, err := NewFS(m, "data/", WithConcurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	return f, m
}

func randomBytes(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// The FS passes the standard library's file system checks.
func TestFSTestFS(t *testing.T) {
	f, _ := memFS(t, map[string][]byte{
		"a.txt": []byte("hello"), "d/b.bin": randomBytes(100<<10, 1), "d/e/c": nil,
	})
	if err := fstest.TestFS(f, "a.txt", "d/b.bin", "d/e/c"); err != nil {
		t.Fatal(err)
	}
}

// Reads at random offsets, with and without prefetched ranges, from
// several goroutines, return the object's bytes.
func TestFileReadAtMatchesObject(t *testing.T) {
	for _, size := range []int{0, 1, 5000, wholeSize, wholeSize + 1, 3 << 20} {
		data := randomBytes(size, uint64(size))
		f, _ := memFS(t, map[string][]byte{"x": data})
		file, err := f.Open("x")
		if err != nil {
			t.Fatal(err)
		}
		ra := file.(*File)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(g), uint64(size)))
				for range 50 {
					off := rng.Int64N(int64(size) + 2)
					n := rng.IntN(200 << 10)
					if rng.IntN(3) == 0 {
						ra.Prefetch([][2]int64{{off, int64(n)}, {rng.Int64N(int64(size) + 1), 1000}})
					}
					p := make([]byte, n)
					k, err := ra.ReadAt(p, off)
					want := data[min(int(off), size):min(int(off)+n, size)]
					if !bytes.Equal(p[:k], want) {
						t.Errorf("size %d: ReadAt(%d bytes at %d) read %d bytes unlike the object's", size, n, off, k)
						return
					}
					if k < n && err != io.EOF {
						t.Errorf("size %d: short ReadAt(%d at %d) = %d, %v; want io.EOF", size, n, off, k, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := ra.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := ra.ReadAt(make([]byte, 1), 0); size > 0 && !errors.Is(err, fs.ErrClosed) {
			t.Errorf("ReadAt after Close: %v, want fs.ErrClosed", err)
		}
	}
}

// Files of a listed directory open and stat without a request; the tail
// block is fetched once per object however often it is opened; a
// prefetched range is one request and serves the reads inside it.
func TestFSRequests(t *testing.T) {
	big := randomBytes(1<<20, 3)
	f, m := memFS(t, map[string][]byte{"k=1/a": big, "k=2/b": big})
	if _, err := fs.ReadDir(f, "k=1"); err != nil {
		t.Fatal(err)
	}
	if lists, heads, gets := m.counts(); lists != 1 || heads != 0 || len(gets) != 0 {
		t.Fatalf("listing: %d lists, %d heads, %d gets; want 1, 0, 0", lists, heads, len(gets))
	}
	for range 3 {
		file, err := f.Open("k=1/a")
		if err != nil {
			t.Fatal(err)
		}
		p := make([]byte, 8)
		if _, err := file.(*File).ReadAt(p, int64(len(big)-8)); err != nil {
			t.Fatal(err)
		}
		file.Close()
	}
	if _, _, gets := m.counts(); len(gets) != 1 || gets[0] != (span{int64(len(big)) - tailSize, int64(len(big))}) {
		t.Fatalf("three footer reads: gets %v, want one of the last %d bytes", gets, tailSize)
	}
	m.reset()
	file, _ := f.Open("k=1/a")
	ra := file.(*File)
	ra.Prefetch([][2]int64{{100_000, 10_000}, {110_500, 10_000}, {500_000, 20_000}})
	for _, r := range [][2]int64{{100_000, 10_000}, {110_500, 10_000}, {500_000, 20_000}} {
		p := make([]byte, r[1])
		if _, err := ra.ReadAt(p, r[0]); err != nil || !bytes.Equal(p, big[r[0]:r[0]+r[1]]) {
			t.Fatalf("ReadAt(%v): %v", r, err)
		}
	}
	ra.Close()
	if _, _, gets := m.counts(); len(gets) != 2 {
		t.Fatalf("prefetched reads: gets %v, want two (the first two ranges merged)", gets)
	}
	m.reset()
	if _, err := f.Stat("k=2/b"); err != nil {
		t.Fatal(err)
	}
	if _, heads, _ := m.counts(); heads != 1 {
		t.Fatalf("stat of a file not listed: %d heads, want 1", heads)
	}
	if _, err := f.Stat("k=3"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("stat of a missing name: %v, want fs.ErrNotExist", err)
	}
}

// Prefetch gives back each range's bytes: a slice of the block fetched
// (no copy, capped so that appending cannot write over the block), a
// range only partly in the tail block fetched whole so that one block
// holds it; past the end, a short read; after Close, fs.ErrClosed.
func TestPrefetchFetched(t *testing.T) {
	big := randomBytes(1<<20, 4)
	size := int64(len(big))
	f, m := memFS(t, map[string][]byte{"a": big})
	file, err := f.Open("a")
	if err != nil {
		t.Fatal(err)
	}
	ra := file.(*File)
	if _, err := ra.ReadAt(make([]byte, 8), size-8); err != nil { // the tail block
		t.Fatal(err)
	}
	m.reset()
	ranges := [][2]int64{
		{100_000, 10_000}, {110_500, 10_000}, {500_000, 20_000},
		{size - tailSize - 1000, 2000}, // straddles the tail block: fetched whole
		{size - 100, 100},              // within the tail block
	}
	fetches := ra.Prefetch(append(ranges, [2]int64{size - 10, 100}))
	if len(fetches) != len(ranges)+1 {
		t.Fatalf("%d fetches for %d ranges", len(fetches), len(ranges)+1)
	}
	for i, r := range ranges {
		b, err := fetches[i]()
		if err != nil || !bytes.Equal(b, big[r[0]:r[0]+r[1]]) {
			t.Fatalf("fetch of %v: %d bytes, %v", r, len(b), err)
		}
		if cap(b) != len(b) {
			t.Errorf("fetch of %v: capacity %d beyond its %d bytes", r, cap(b), len(b))
		}
	}
	if _, err := fetches[len(ranges)](); !errors.Is(err, io.EOF) {
		t.Errorf("fetch past the end: %v, want io.EOF", err)
	}
	if _, _, gets := m.counts(); len(gets) != 3 || !slices.Contains(gets, span{size - tailSize - 1000, size - tailSize + 1000}) {
		t.Errorf("gets %v, want three (the first two ranges merged, the straddling one whole)", gets)
	}
	again := ra.Prefetch([][2]int64{{200_000, 100}})
	ra.Close()
	if _, err := again[0](); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("fetch after Close: %v, want fs.ErrClosed", err)
	}
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"fs option to a store", func() error { _, err := NewS3("b", WithConcurrency(2)); return err }, "objstore: WithConcurrency: "},
		{"store option to an fs", func() error { _, err := NewFS(newMemStore(), "", WithRegion("x")); return err }, "objstore: WithRegion: "},
		{"negative concurrency", func() error { _, err := NewFS(newMemStore(), "", WithConcurrency(-1)); return err }, "negative concurrency"},
		{"small parts", func() error { _, err := NewS3("b", WithPartSize(1<<20)); return err }, "WithPartSize"},
		{"bad endpoint", func() error { _, err := NewS3("b", WithEndpoint("ftp://x")); return err }, "WithEndpoint"},
		{"negative retries", func() error { _, err := NewS3("b", WithRetries(-1, 1)); return err }, "WithRetries"},
		{"bad url", func() error { _, err := Open("s3:///x"); return err }, "not of the form"},
		{"bad bucket", func() error { _, err := NewS3(""); return err }, "bucket name"},
		{"short bucket", func() error { _, err := NewS3("b"); return err }, "bucket name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if !errors.Is(err, ErrInvalid) || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Fatalf("got %v, want an ErrInvalid containing %q", err, tc.want)
			}
		})
	}
}

func TestParseURL(t *testing.T) {
	for _, tc := range []struct{ in, bucket, prefix string }{
		{"s3://b", "b", ""}, {"s3://b/", "b", ""}, {"s3://b/x/y/", "b", "x/y"},
	} {
		b, p, err := ParseURL(tc.in)
		if err != nil || b != tc.bucket || p != tc.prefix {
			t.Errorf("ParseURL(%q) = %q, %q, %v", tc.in, b, p, err)
		}
	}
}

// The request accounting of a projected, filtered scan, on a store in
// memory (TestDatasetScanRequests checks it against a real server).
func TestDatasetScanRequestsInMemory(t *testing.T) {
	m := newMemStore()
	fsys, err := NewFS(m, "w")
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, fsys, "sales")
	fsys, _ = NewFS(m, "w")
	m.reset()
	res, err := projectedScan(context.Background(), fsys, "sales")
	if err != nil {
		t.Fatal(err)
	}
	if want := wantScan(); res.rows != want.rows || res.idSum != want.idSum {
		t.Fatalf("read %d rows (id sum %d), want %d (%d)", res.rows, res.idSum, want.rows, want.idSum)
	}
	lists, heads, gets := m.counts()
	if want := 1 + len(years) + len(years)*len(regions); lists != want || heads != 0 {
		t.Errorf("%d listings and %d HEADs, want %d and 0", lists, heads, want)
	}
	chunks := decodedChunks(t, fsys, "sales")
	var chunkBytes, dataBytes int64
	meta := 0
	for _, c := range chunks {
		for _, s := range c {
			chunkBytes += s.end - s.off
		}
	}
	for _, g := range gets {
		if g.off == 0 && g.end == headSize || g.end-g.off == tailSize {
			meta++
		} else {
			dataBytes += g.end - g.off
		}
	}
	if meta > 2*len(regions) {
		t.Errorf("%d metadata requests for %d files", meta, len(regions))
	}
	if dataBytes*10 > chunkBytes*11 {
		t.Errorf("fetched %d bytes for %d bytes of chunks", dataBytes, chunkBytes)
	}
	t.Logf("%d gets (%d metadata), %d data bytes for %d chunk bytes", len(gets), meta, dataBytes, chunkBytes)
}
