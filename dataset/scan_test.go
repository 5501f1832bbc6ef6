package dataset

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/parquet"
)

// seqRec is a record of column x holding from, from+1, …, from+n-1 and a
// column f of the same values as floats.
func seqRec(t testing.TB, from, n int) *alkaid.Record {
	xs := array.NewPrimitiveBuilder[int64](datatype.Int64)
	fs := array.NewPrimitiveBuilder[float64](datatype.Float64)
	for i := range n {
		xs.Append(int64(from + i))
		fs.Append(float64(from + i))
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}, {Name: "f", Type: datatype.Float64}}, datatype.Metadata{})
	r, err := alkaid.NewRecord(s, []array.Array{xs.Finish(), fs.Finish()}, n)
	require.NoError(t, err)
	return r
}

// hiveSales is 6 files, year=2023..2024 × month=1..3, each of x = 0..99
// in 4 row groups of 25 rows.
func hiveSales(t testing.TB) fstest.MapFS {
	fsys := fstest.MapFS{}
	for y := 2023; y <= 2024; y++ {
		for m := 1; m <= 3; m++ {
			name := fmt.Sprintf("sales/year=%d/month=%d/part-0.parquet", y, m)
			fsys[name] = &fstest.MapFile{Data: encode(t, files.FormatParquet, []*alkaid.Record{seqRec(t, 0, 100)}, parquet.WithRowGroupRows(25))}
		}
	}
	return fsys
}

func TestScanPruning(t *testing.T) {
	d, err := Open(hiveSales(t), "sales", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	tests := []struct {
		name   string
		filter string
		rows   int64
		want   Stats
	}{
		{"none", "", 600, Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowsRead: 600}},
		{"partition", "year = 2024", 300,
			Stats{Files: 6, FilesPruned: 3, FilesRead: 3, RowGroups: 12, RowsRead: 300}},
		{"partitions between", "month BETWEEN 2 AND 3 AND year < 2024", 200,
			Stats{Files: 6, FilesPruned: 4, FilesRead: 2, RowGroups: 8, RowsRead: 200}},
		{"statistics", "year = 2024 AND x > 80", 57,
			Stats{Files: 6, FilesPruned: 3, FilesRead: 3, RowGroups: 12, RowGroupsPruned: 9, RowsRead: 75}},
		{"float equal", "f = 30", 6,
			Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowGroupsPruned: 18, RowsRead: 150}},
		{"nothing", "x > 1000", 0,
			Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowGroupsPruned: 24}},
		{"is null", "month IS NULL", 0,
			Stats{Files: 6, FilesPruned: 6}},
		{"partitions or", "year = 2023 AND month = 1 OR year = 2024 AND month = 3", 200,
			Stats{Files: 6, FilesPruned: 4, FilesRead: 2, RowGroups: 8, RowsRead: 200}},
		{"function of partitions", "year + month = 2026", 200,
			Stats{Files: 6, FilesPruned: 4, FilesRead: 2, RowGroups: 8, RowsRead: 200}},
		{"statistics, at least", "year = 2024 AND x >= 81", 57,
			Stats{Files: 6, FilesPruned: 3, FilesRead: 3, RowGroups: 12, RowGroupsPruned: 9, RowsRead: 75}},
		// per file: true in 2023's, x < 10 in 2024's (pushed to Parquet)
		{"partition or statistics", "year = 2023 OR x < 10", 330,
			Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowGroupsPruned: 9, RowsRead: 375}},
		{"not pushed down", "x % 50 = 0", 12,
			Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowsRead: 600}},
		// row groups of 25 rows: 0..24, 25..49, 50..74, 75..99; these
		// Parquet predicates cannot express, the statistics rule out
		{"statistics, in", "x IN (3, 90)", 12,
			Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowGroupsPruned: 12, RowsRead: 300}},
		{"statistics, or", "x < 5 OR x > 95", 54,
			Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowGroupsPruned: 12, RowsRead: 300}},
		{"statistics, not", "NOT (x >= 25)", 150,
			Stats{Files: 6, FilesRead: 6, RowGroups: 24, RowGroupsPruned: 18, RowsRead: 150}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range []Option{WithConcurrency(3), WithUnordered()} {
				opts := []Option{order}
				if tc.filter != "" {
					opts = append(opts, WithFilter(where(t, tc.filter)))
				}
				s, err := d.Scan(context.Background(), opts...)
				require.NoError(t, err)
				n := int64(0)
				for r, err := range s.Records() {
					require.NoError(t, err)
					n += int64(r.NumRows())
				}
				st := s.Stats()
				if st.FilesRead > 0 {
					require.Positive(t, st.BytesRead)
				}
				st.BytesRead = 0
				tc.want.Rows = tc.rows
				require.Equal(t, tc.want, st)
				require.Equal(t, tc.rows, n)
			}
		})
	}
}

func TestScanValues(t *testing.T) {
	d, err := Open(hiveSales(t), "sales", WithPartitioning(Partitioning{Style: Hive, Dictionary: true}))
	require.NoError(t, err)
	got, _ := scanAll(t, d, WithColumns("month", "x"), WithFilter(where(t, "x BETWEEN 48 AND 50")), WithFilter(where(t, "year = 2023")), WithConcurrency(4))
	require.Equal(t, map[string]string{
		"month": "[1 1 1 2 2 2 3 3 3]",
		"x":     "[48 49 50 48 49 50 48 49 50]",
	}, got)
}

func TestScanOrderAndBatches(t *testing.T) {
	fsys := fstest.MapFS{}
	var want []int64
	for i := range 12 {
		fsys[fmt.Sprintf("f%02d.parquet", i)] = &fstest.MapFile{Data: encode(t, files.FormatParquet,
			[]*alkaid.Record{seqRec(t, i*100, 100)}, parquet.WithRowGroupRows(30))}
		for x := range 100 {
			want = append(want, int64(i*100+x))
		}
	}
	fsys["g.arrows"] = &fstest.MapFile{Data: encode(t, files.FormatIPCStream, []*alkaid.Record{seqRec(t, 1200, 50), seqRec(t, 1250, 50)})}
	for x := 1200; x < 1300; x++ {
		want = append(want, int64(x))
	}
	d, err := Open(fsys, ".")
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		opts    []Option
		ordered bool
	}{
		{"ordered", []Option{WithConcurrency(4), WithBatchSize(7)}, true},
		{"serial", []Option{WithConcurrency(1)}, true},
		{"unordered", []Option{WithConcurrency(4), WithUnordered(), WithBatchSize(7)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := d.Scan(context.Background(), tc.opts...)
			require.NoError(t, err)
			var got []int64
			for r, err := range s.Records() {
				require.NoError(t, err)
				if tc.name != "serial" {
					require.LessOrEqual(t, r.NumRows(), 7)
				}
				got = append(got, r.Column(0).(*array.Int64).Values()...)
			}
			if !tc.ordered {
				slices.Sort(got)
			}
			require.Equal(t, want, got)
		})
	}
}

func TestCountRows(t *testing.T) {
	fsys := hiveSales(t)
	d, err := Open(fsys, "sales", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	n, st, err := d.CountRows(context.Background(), WithFilter(where(t, "month = 2")))
	require.NoError(t, err)
	require.Equal(t, int64(200), n)
	// Discovery read the footers: the count opens no file.
	require.Equal(t, Stats{Files: 6, FilesPruned: 4, RowGroups: 8, RowsRead: 200, Rows: 200}, st)

	// Without discovery's footers (a given schema), the footers are read.
	ds, err := Open(fsys, "sales", WithPartitioning(Partitioning{Style: Hive}),
		WithSchema(alkaid.NewSchema(d.Schema().Fields()[:2], datatype.Metadata{})))
	require.NoError(t, err)
	n, st, err = ds.CountRows(context.Background(), WithFilter(where(t, "month = 2")))
	require.NoError(t, err)
	require.Equal(t, int64(200), n)
	require.Equal(t, 2, st.FilesRead)
	file := int64(len(fsys["sales/year=2023/month=2/part-0.parquet"].Data))
	require.Less(t, st.BytesRead, file, "only the footers are read") // two files' footers

	n, _, err = d.CountRows(context.Background(), WithFilter(where(t, "x < 10")))
	require.NoError(t, err)
	require.Equal(t, int64(60), n)
}

// goroutinesSettle waits until at most n goroutines run, failing after a
// while.
func goroutinesSettle(t *testing.T, n int) {
	t.Helper()
	for range 200 {
		if runtime.NumGoroutine() <= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	buf := make([]byte, 1<<16)
	t.Fatalf("%d goroutines, want %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
}

func TestScanStops(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 30 {
		fsys[fmt.Sprintf("f%02d.parquet", i)] = &fstest.MapFile{Data: encode(t, files.FormatParquet,
			[]*alkaid.Record{seqRec(t, 0, 1000)}, parquet.WithRowGroupRows(100))}
	}
	d, err := Open(fsys, ".")
	require.NoError(t, err)
	for _, unordered := range []bool{false, true} {
		opts := []Option{WithConcurrency(4)}
		if unordered {
			opts = append(opts, WithUnordered())
		}
		t.Run(fmt.Sprintf("break unordered=%v", unordered), func(t *testing.T) {
			base := runtime.NumGoroutine()
			s, err := d.Scan(context.Background(), opts...)
			require.NoError(t, err)
			n := 0
			for _, err := range s.Records() {
				require.NoError(t, err)
				if n++; n == 3 {
					break
				}
			}
			goroutinesSettle(t, base)
			require.Less(t, s.Stats().FilesRead, 30)
		})
		t.Run(fmt.Sprintf("cancel unordered=%v", unordered), func(t *testing.T) {
			base := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s, err := d.Scan(ctx, opts...)
			require.NoError(t, err)
			n := 0
			var last error
			for _, err := range s.Records() {
				if err != nil {
					last = err
					continue
				}
				if n++; n == 3 {
					cancel()
				}
			}
			require.ErrorIs(t, last, context.Canceled)
			goroutinesSettle(t, base)
		})
	}
}

func TestScanMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 24 MB")
	}
	dir := t.TempDir()
	const nfiles, rows = 24, 1 << 17 // 2 columns of 8 bytes: 2 MiB decoded per file
	for i := range nfiles {
		data := encode(t, files.FormatParquet, []*alkaid.Record{seqRec(t, i*rows, rows)}, parquet.WithRowGroupRows(rows/2))
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.parquet", i)), data, 0o644))
	}
	d, err := Open(os.DirFS(dir), ".")
	require.NoError(t, err)
	s, err := d.Scan(context.Background(), WithConcurrency(2), WithReadahead(4<<20))
	require.NoError(t, err)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc-min(ms.HeapAlloc, rawmem.Pooled()), uint64(0)
	total := 0
	for r, err := range s.Records() {
		require.NoError(t, err)
		total += r.NumRows()
		r = nil
		runtime.GC()
		runtime.ReadMemStats(&ms)
		live := ms.HeapAlloc - min(ms.HeapAlloc, rawmem.Pooled())
		peak = max(peak, live-min(base, live))
	}
	require.Equal(t, nfiles*rows, total)
	// The dataset decodes to 48 MiB; the units in flight hold at most
	// the 4 MiB readahead (each its column chunks and a 1 MiB record),
	// and the one consumed a record more.
	t.Logf("peak live heap above the start: %.1f MiB", float64(peak)/(1<<20))
	require.Less(t, peak, uint64(12<<20))
}

func TestCorruptFiles(t *testing.T) {
	good := encode(t, files.FormatParquet, []*alkaid.Record{seqRec(t, 0, 10)})
	bad := slices.Clone(good)
	copy(bad[len(bad)-40:], strings.Repeat("\xff", 32)) // the footer
	fsys := fstest.MapFS{"a.parquet": {Data: good}, "b.parquet": {Data: bad}, "c.parquet": {Data: good}}

	_, err := Open(fsys, ".")
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, "b.parquet", fe.Path)
	require.ErrorIs(t, err, ErrInvalid)

	d, err := Open(fsys, ".", WithSkipCorrupt())
	require.NoError(t, err)
	require.Equal(t, []string{"a.parquet", "c.parquet"}, d.Files())
	require.Len(t, d.Skipped(), 1)
	require.ErrorContains(t, d.Skipped()[0], "b.parquet")

	// With a given schema files are first opened by the scan.
	schema := seqRec(t, 0, 1).Schema()
	d, err = Open(fsys, ".", WithSchema(schema))
	require.NoError(t, err)
	s, err := d.Scan(context.Background())
	require.NoError(t, err)
	var last error
	for _, err := range s.Records() {
		last = err
	}
	require.ErrorAs(t, last, &fe)
	require.Equal(t, "b.parquet", fe.Path)

	d, err = Open(fsys, ".", WithSchema(schema), WithSkipCorrupt())
	require.NoError(t, err)
	got, st := scanAll(t, d)
	require.Equal(t, "[0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9]", got["x"])
	require.Equal(t, 1, st.FilesSkipped)
}

// TestTruncatedFiles cuts a file of each format at many lengths: opening
// and scanning the dataset either succeeds or fails with a FileError
// naming the file, never panics.
func TestTruncatedFiles(t *testing.T) {
	r := mkRec(t, col{"x:int64", "[1,null,3]"}, col{"s:utf8", `["a","b",null]`}, col{"l:list<item: int32>", "[[1],[],null]"})
	for _, f := range []files.Format{files.FormatParquet, files.FormatIPCFile, files.FormatIPCStream, files.FormatCSV, files.FormatNDJSON} {
		if f == files.FormatCSV {
			r = mkRec(t, col{"x:int64", "[1,null,3]"}, col{"s:utf8", `["a","b",null]`})
		}
		data := encode(t, f, []*alkaid.Record{r})
		for cut := 0; cut < len(data); cut += 1 + len(data)/60 {
			fsys := fstest.MapFS{"d/f" + f.Extension(): {Data: data[:cut]}}
			for _, opts := range [][]Option{{WithFormat(f)}, {WithFormat(f), WithSchema(r.Schema())}} {
				d, err := Open(fsys, "d", opts...)
				if err == nil {
					s, serr := d.Scan(context.Background())
					require.NoError(t, serr)
					for _, e := range s.Records() {
						err = e
					}
				}
				if err != nil {
					var fe *FileError
					require.ErrorAs(t, err, &fe, "%s cut at %d: %v", f, cut, err)
					require.Equal(t, "d/f"+f.Extension(), fe.Path)
				}
			}
		}
	}
}

func TestNestedProjection(t *testing.T) {
	a := mkRec(t, col{"id:int64", "[1,2,3]"},
		col{"s:struct<a: int32, t: struct<b: utf8>>", `[{"a": 1, "t": {"b": "x"}}, null, {"a": null, "t": null}]`})
	b := mkRec(t, col{"id:int64", "[4]"})
	fsys := fstest.MapFS{"a.parquet": pqFile(t, a), "b.parquet": pqFile(t, b), "c.arrow": {Data: encode(t, files.FormatIPCFile, []*alkaid.Record{a})}}
	d, err := Open(fsys, ".")
	require.NoError(t, err)
	got, _ := scanAll(t, d, WithColumns("s.t.b", "id", "s.a"))
	require.Equal(t, map[string]string{
		"s.t.b": `["x" (null) (null) (null) "x" (null) (null)]`,
		"id":    "[1 2 3 4 1 2 3]",
		"s.a":   "[1 (null) (null) (null) 1 (null) (null)]",
	}, got)
	for _, bad := range []string{"s.zz", "id.x", "s.a.b", "nope.a"} {
		_, err := d.Scan(context.Background(), WithColumns(bad))
		require.ErrorIs(t, err, ErrInvalid, bad)
		require.ErrorContains(t, err, bad)
	}
}

// TestBloomPruning: a value inside a row group's min/max but absent from
// it is ruled out by the row group's bloom filter when the file has one.
func TestBloomPruning(t *testing.T) {
	xs := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for i := range 100 {
		xs.Append(int64(2 * i))
	}
	r, err := alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}}, datatype.Metadata{}), []array.Array{xs.Finish()}, 100)
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		opts   []parquet.Option
		pruned int
		read   int64
	}{
		{"bloom", []parquet.Option{parquet.WithBloomFilter("x")}, 1, 0},
		{"no bloom", nil, 0, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(fstest.MapFS{"a.parquet": {Data: encode(t, files.FormatParquet, []*alkaid.Record{r}, tc.opts...)}}, ".")
			require.NoError(t, err)
			got, st := scanAll(t, d, WithFilter(where(t, "x = 51")))
			require.Equal(t, "[]", got["x"])
			require.Equal(t, tc.pruned, st.RowGroupsPruned)
			require.Equal(t, tc.read, st.RowsRead)
		})
	}
}

// TestPageIndexPruning: within a row group that may match, the page index
// leaves out the pages that cannot (RowsRead counts what was decoded).
func TestPageIndexPruning(t *testing.T) {
	data := encode(t, files.FormatParquet, []*alkaid.Record{seqRec(t, 0, 10000)},
		parquet.WithPageSize(4096), parquet.WithDictionary(false, 0))
	d, err := Open(fstest.MapFS{"a.parquet": {Data: data}}, ".")
	require.NoError(t, err)
	got, st := scanAll(t, d, WithColumns("x"), WithFilter(where(t, "x BETWEEN 4500 AND 4502")))
	require.Equal(t, "[4500 4501 4502]", got["x"])
	require.Equal(t, 0, st.RowGroupsPruned)
	// pages of 4096 bytes hold 512 int64 values: x's 10000 values are 20
	// pages, of which the one holding 4500..4502 is read
	require.Equal(t, int64(512), st.RowsRead)
	require.Equal(t, int64(19), st.PagesPruned)

	// a second file, and the filter's column not among those output: the
	// pages of both columns read (x for the filter, f) are counted
	d, err = Open(fstest.MapFS{"a.parquet": {Data: data}, "b.parquet": {Data: data}}, ".")
	require.NoError(t, err)
	got, st = scanAll(t, d, WithColumns("f"), WithFilter(where(t, "x BETWEEN 4500 AND 4502")))
	require.Equal(t, "[4500 4501 4502 4500 4501 4502]", got["f"])
	require.Equal(t, int64(2*2*19), st.PagesPruned)

	// no filter, nothing pruned
	_, st = scanAll(t, d, WithColumns("f"))
	require.Zero(t, st.PagesPruned)
}

// slowOpenFS delays every Open and records how many were under way at
// once.
type slowOpenFS struct {
	fstest.MapFS
	mu            sync.Mutex
	now, maxInUse int
}

func (f *slowOpenFS) Open(name string) (fs.File, error) {
	f.mu.Lock()
	f.now++
	f.maxInUse = max(f.maxInUse, f.now)
	f.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	f.mu.Lock()
	f.now--
	f.mu.Unlock()
	return f.MapFS.Open(name)
}

// TestScanOpensFilesInParallel: a scan opens Parquet files (reading their
// footers) on several goroutines, at most the concurrency at once, where
// it once opened them one by one in the dispatching goroutine.
func TestScanOpensFilesInParallel(t *testing.T) {
	fsys := &slowOpenFS{MapFS: fstest.MapFS{}}
	for i := range 12 {
		fsys.MapFS[fmt.Sprintf("f%02d.parquet", i)] = pqFile(t, seqRec(t, 100*i, 100))
	}
	d, err := Open(fsys, ".")
	require.NoError(t, err)
	for _, conc := range []int{1, 4} {
		fsys.maxInUse = 0
		n, _, err := d.CountRows(context.Background(), WithConcurrency(conc), WithFilter(where(t, "x > -1")))
		require.NoError(t, err)
		require.Equal(t, int64(1200), n)
		if conc == 1 {
			require.Equal(t, 1, fsys.maxInUse)
		} else {
			require.Greater(t, fsys.maxInUse, 1)
			require.LessOrEqual(t, fsys.maxInUse, conc)
		}
	}
}

// TestProjectionReadsOnlyItsColumns: a scan keeping one column reads
// (and decodes) only that column's chunks of each row group, not the
// file's other columns.
func TestProjectionReadsOnlyItsColumns(t *testing.T) {
	wide := array.NewBinaryBuilder[int32](datatype.String)
	for i := range 1000 {
		wide.AppendString(strings.Repeat(fmt.Sprint(i%10), 200) + fmt.Sprint(i))
	}
	xs := seqRec(t, 0, 1000)
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}, {Name: "text", Type: datatype.String}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{xs.Column(0), wide.NewArray()}, 1000)
	require.NoError(t, err)
	data := encode(t, files.FormatParquet, []*alkaid.Record{rec}, parquet.WithCompression(parquet.Uncompressed, 0))
	d, err := Open(fstest.MapFS{"a.parquet": {Data: data}}, ".")
	require.NoError(t, err)
	got, st := scanAll(t, d, WithColumns("x"))
	require.Len(t, got, 1)
	require.Less(t, st.BytesRead, int64(len(data))/10, "read %d of %d bytes", st.BytesRead, len(data))
	_, all := scanAll(t, d)
	require.Greater(t, all.BytesRead, int64(len(data))/2)
}

func TestScanWithFiles(t *testing.T) {
	d, err := Open(hiveSales(t), "sales", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	names := d.Files()
	got, st := scanAll(t, d, WithFiles(names[4], names[1]), WithColumns("year", "month"), WithFilter(where(t, "x = 7")))
	// file order, whatever the order named; partition columns filled in
	require.Equal(t, map[string]string{"year": "[2023 2024]", "month": "[2 2]"}, got)
	require.Equal(t, 2, st.Files)
	require.Equal(t, 2, st.FilesRead)

	for _, bad := range []string{"sales/year=2023/month=9/part-0.parquet", "../x.parquet", ""} {
		_, err := d.Scan(context.Background(), WithFiles(bad))
		require.ErrorIs(t, err, ErrInvalid, bad)
	}
	// none named: an empty scan
	n, _, err := d.CountRows(context.Background(), WithFiles())
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestCountRowsIPCFromMetadata(t *testing.T) {
	fsys := fstest.MapFS{}
	for y := 2023; y <= 2024; y++ {
		recs := []*alkaid.Record{seqRec(t, 0, 50000), seqRec(t, 0, 7), seqRec(t, 0, 30000)}
		fsys[fmt.Sprintf("ev/year=%d/a.arrow", y)] = &fstest.MapFile{Data: encode(t, files.FormatIPCFile, recs)}
	}
	total := int64(0)
	for _, f := range fsys {
		total += int64(len(f.Data))
	}
	d, err := Open(fsys, "ev", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		opts  []Option
		rows  int64
		files int
	}{
		{"all", nil, 2 * 80007, 2},
		{"partition filter", []Option{WithFilter(where(t, "year = 2024"))}, 80007, 1},
		{"batch size", []Option{WithBatchSize(1000)}, 2 * 80007, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, st, err := d.CountRows(context.Background(), tc.opts...)
			require.NoError(t, err)
			require.Equal(t, tc.rows, n)
			require.Equal(t, tc.files, st.FilesRead)
			// the footers and the batches' metadata only: no body (the
			// batches hold 16 bytes a row) is read
			require.Positive(t, st.BytesRead)
			require.Less(t, st.BytesRead, int64(4096*tc.files), "bytes read of %d", total)
		})
	}
	// a filter on a file column reads the batches
	n, st, err := d.CountRows(context.Background(), WithFilter(where(t, "x < 10")))
	require.NoError(t, err)
	require.Equal(t, int64(2*(10+7+10)), n)
	require.Greater(t, st.BytesRead, total/2)
}

// A scan is the module's one shape of a record source.
var _ alkaid.RecordReader = (*Scan)(nil)

// TestScanOptionValues: WithConcurrency(0) means GOMAXPROCS as in every
// package; negative concurrency and batch sizes below 1 are errors that
// name the option.
func TestScanOptionValues(t *testing.T) {
	d, err := Open(hiveSales(t), ".", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	for _, tc := range []struct {
		opt  Option
		want string // "" for no error
	}{
		{WithConcurrency(0), ""},
		{WithConcurrency(1), ""},
		{WithConcurrency(-1), "dataset: WithConcurrency(-1)"},
		{WithBatchSize(0), "dataset: WithBatchSize(0)"},
		{WithReadahead(1), ""},
		{WithReadahead(0), "dataset: WithReadahead(0)"},
		{WithReadahead(-5), "dataset: WithReadahead(-5)"},
	} {
		s, err := d.Scan(context.Background(), tc.opt)
		if tc.want != "" {
			require.ErrorIs(t, err, ErrInvalid, tc.want)
			require.ErrorContains(t, err, tc.want)
			continue
		}
		require.NoError(t, err)
		tab, err := alkaid.ReadAll(s)
		require.NoError(t, err)
		require.Positive(t, tab.NumRows())
		require.NoError(t, s.Close())
	}
}

// TestScanOneUnit covers scans that read at most one unit, which run on
// the consumer's goroutine: the same rows, stats, errors, early stop and
// cancellation as a scan of many units, and no goroutine left behind.
func TestScanOneUnit(t *testing.T) {
	good := encode(t, files.FormatParquet, []*alkaid.Record{seqRec(t, 0, 10)})
	bad := slices.Clone(good)
	copy(bad[len(bad)-40:], strings.Repeat("\xff", 32)) // the footer
	fsys := fstest.MapFS{
		"k=1/a.parquet": {Data: good},
		"k=2/b.parquet": {Data: good},
		"k=3/c.csv":     {Data: []byte("x\n7\n8\n")},
	}
	d, err := Open(fsys, ".", WithPartitioning(Partitioning{Style: Hive}))
	require.NoError(t, err)
	for _, tc := range []struct {
		filter, x string
		stats     Stats
	}{
		{"k = 1", "[0 1 2 3 4 5 6 7 8 9]", Stats{Files: 3, FilesPruned: 2, FilesRead: 1, RowGroups: 1, Rows: 10, RowsRead: 10}},
		{"k = 3", "[7 8]", Stats{Files: 3, FilesPruned: 2, FilesRead: 1, Rows: 2, RowsRead: 2}},
		{"k = 4", "[]", Stats{Files: 3, FilesPruned: 3}},
		{"k = 1 and x > 7", "[8 9]", Stats{Files: 3, FilesPruned: 2, FilesRead: 1, RowGroups: 1, Rows: 2, RowsRead: 10}},
	} {
		t.Run(tc.filter, func(t *testing.T) {
			base := runtime.NumGoroutine()
			got, st := scanAll(t, d, WithFilter(where(t, tc.filter)), WithColumns("x"))
			require.Equal(t, tc.x, got["x"])
			st.BytesRead = 0
			require.Equal(t, tc.stats, st)
			goroutinesSettle(t, base)
		})
	}

	t.Run("corrupt", func(t *testing.T) {
		fsys := fstest.MapFS{"b.parquet": {Data: bad}}
		d, err := Open(fsys, ".", WithSchema(seqRec(t, 0, 1).Schema()))
		require.NoError(t, err)
		s, err := d.Scan(context.Background())
		require.NoError(t, err)
		var errs []error
		for _, err := range s.Records() {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		var fe *FileError
		require.ErrorAs(t, errs[0], &fe)
		require.Equal(t, "b.parquet", fe.Path)

		d, err = Open(fsys, ".", WithSchema(seqRec(t, 0, 1).Schema()), WithSkipCorrupt())
		require.NoError(t, err)
		got, st := scanAll(t, d)
		require.Equal(t, "[]", got["x"])
		require.Equal(t, 1, st.FilesSkipped)
	})

	// Given the schema, the one file kept is opened first to count its
	// row groups: one runs inline, three on goroutines.
	groups := encode(t, files.FormatParquet, []*alkaid.Record{seqRec(t, 0, 10)}, parquet.WithRowGroupRows(4))
	given, err := Open(fstest.MapFS{"k=1/a.parquet": {Data: good}, "k=2/b.parquet": {Data: groups}}, ".",
		WithPartitioning(Partitioning{Style: Hive}), WithSchema(seqRec(t, 0, 1).Schema()), WithFormat(files.FormatParquet))
	require.NoError(t, err)
	for _, k := range []int{1, 2} {
		base := runtime.NumGoroutine()
		got, st := scanAll(t, given, WithColumns("x"), WithFilter(where(t, fmt.Sprintf("k = %d", k))))
		require.Equal(t, "[0 1 2 3 4 5 6 7 8 9]", got["x"])
		require.Equal(t, []int{1, 3}[k-1], st.RowGroups)
		require.Equal(t, 1, st.FilesRead)
		goroutinesSettle(t, base)
	}

	one, err := OpenFiles(fstest.MapFS{"a.parquet": {Data: good}}, ".", []string{"a.parquet"})
	require.NoError(t, err)
	t.Run("break", func(t *testing.T) {
		s, err := one.Scan(context.Background(), WithBatchSize(3))
		require.NoError(t, err)
		n := 0
		for rec, err := range s.Records() {
			require.NoError(t, err)
			require.Equal(t, 3, rec.NumRows())
			if n++; n == 2 {
				break
			}
		}
		require.Equal(t, 2, n)
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s, err := one.Scan(ctx, WithBatchSize(3))
		require.NoError(t, err)
		var rows int
		var last error
		for rec, err := range s.Records() {
			if err != nil {
				last = err
				continue
			}
			rows += rec.NumRows()
			cancel()
		}
		require.ErrorIs(t, last, context.Canceled)
		require.Less(t, rows, 10)
	})
}
