package objstore

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math/rand/v2"
	"path"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
)

// The test dataset: files of columns id, a, b, s, partitioned by year
// and region, rowsPerFile rows each in row groups of rowsPerGroup.
var (
	fileSchema = alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int64},
		{Name: "a", Type: datatype.Float64},
		{Name: "b", Type: datatype.Float64},
		{Name: "s", Type: datatype.String},
	}, datatype.Metadata{})
	years   = []int64{2022, 2023, 2024}
	regions = []string{"eu", "us"}
)

const (
	rowsPerFile  = 20000
	rowsPerGroup = 10000
)

// records is a RecordSource of the test dataset: one record per
// partition, with the partition columns.
type records struct{ schema *alkaid.Schema }

func testRecords() records {
	fields := append(fileSchema.Fields(), datatype.Field{Name: "year", Type: datatype.Int64}, datatype.Field{Name: "region", Type: datatype.String})
	return records{alkaid.NewSchema(fields, datatype.Metadata{})}
}

func (r records) Schema() *alkaid.Schema { return r.schema }

func (r records) Close() error { return nil }

func (r records) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		id := int64(0)
		rng := rand.New(rand.NewPCG(5, 6))
		for _, y := range years {
			for _, reg := range regions {
				ids := array.NewPrimitiveBuilder[int64](datatype.Int64)
				as := array.NewPrimitiveBuilder[float64](datatype.Float64)
				bs := array.NewPrimitiveBuilder[float64](datatype.Float64)
				ss := array.NewBinaryBuilder[int32](datatype.String)
				yb := array.NewPrimitiveBuilder[int64](datatype.Int64)
				rb := array.NewBinaryBuilder[int32](datatype.String)
				for range rowsPerFile {
					ids.Append(id)
					as.Append(rng.Float64())
					bs.Append(rng.Float64())
					ss.AppendString(fmt.Sprintf("s%d", rng.IntN(1000)))
					yb.Append(y)
					rb.AppendString(reg)
					id++
				}
				rec, err := alkaid.NewRecord(r.schema, []array.Array{ids.Finish(), as.Finish(), bs.Finish(), ss.Finish(), yb.Finish(), rb.Finish()}, rowsPerFile)
				if !yield(rec, err) || err != nil {
					return
				}
			}
		}
	}
}

// writeDataset writes the test dataset under dir of fsys.
func writeDataset(t *testing.T, fsys dataset.WriteFS, dir string) []string {
	t.Helper()
	files, err := writeDatasetErr(fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func writeDatasetErr(fsys dataset.WriteFS, dir string) ([]string, error) {
	files, err := dataset.Write(context.Background(), fsys, dir, testRecords(),
		dataset.WithPartitionBy("year", "region"),
		dataset.WithParquetOptions(parquet.WithRowGroupRows(rowsPerGroup)))
	if err == nil && len(files) != len(years)*len(regions) {
		err = fmt.Errorf("wrote %v, want %d files", files, len(years)*len(regions))
	}
	return files, err
}

// scanResult is what a scan read: rows and the sum of the ids.
type scanResult struct {
	rows, idSum int64
	stats       dataset.Stats
}

// projectedScan scans columns id and a of the rows of 2024 in dir of
// fsys, given the files' schema (so that discovery opens no file).
func projectedScan(ctx context.Context, fsys fs.FS, dir string) (scanResult, error) {
	return scanWith(ctx, fsys, dir, dataset.WithSchema(fileSchema), dataset.WithFormat(files.FormatParquet))
}

// scanWith is projectedScan with other options of discovery.
func scanWith(ctx context.Context, fsys fs.FS, dir string, opts ...dataset.Option) (scanResult, error) {
	opts = append(opts, dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	d, err := dataset.Open(fsys, dir, opts...)
	if err != nil {
		return scanResult{}, err
	}
	s, err := d.Scan(ctx, dataset.WithColumns("id", "a"),
		dataset.WithFilter(expr.Eq(expr.Field("year"), expr.Lit(int64(2024)))))
	if err != nil {
		return scanResult{}, err
	}
	var res scanResult
	for rec, err := range s.Records() {
		if err != nil {
			return res, err
		}
		res.rows += int64(rec.NumRows())
		for _, v := range rec.Column(0).(*array.Primitive[int64]).Values() {
			res.idSum += v
		}
	}
	res.stats = s.Stats()
	return res, nil
}

// wantScan is the result of projectedScan on the test dataset.
func wantScan() scanResult {
	var res scanResult
	first := int64(2*len(regions)) * rowsPerFile // ids of 2022 and 2023 come first
	for id := first; id < first+int64(len(regions))*rowsPerFile; id++ {
		res.rows++
		res.idSum += id
	}
	return res
}

// recordingFS serves a MapFS's files as Prefetchers recording the ranges
// the parquet reader announces: the column chunks a scan decodes.
type recordingFS struct {
	fstest.MapFS
	mu     sync.Mutex
	chunks map[string][]span
}

type recordingFile struct {
	fs.File
	io.ReaderAt
	fsys *recordingFS
	name string
}

func (r *recordingFS) Open(name string) (fs.File, error) {
	f, err := r.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	if ra, ok := f.(io.ReaderAt); ok {
		return &recordingFile{File: f, ReaderAt: ra, fsys: r, name: name}, nil
	}
	return f, nil
}

func (r *recordingFile) Prefetch(ranges [][2]int64) []func() ([]byte, error) {
	r.fsys.mu.Lock()
	defer r.fsys.mu.Unlock()
	for _, x := range ranges {
		r.fsys.chunks[r.name] = append(r.fsys.chunks[r.name], span{x[0], x[0] + x[1]})
	}
	return nil
}

// decodedChunks copies the files under dir of fsys into memory and runs
// projectedScan there, returning the column-chunk ranges it read per
// file (relative to dir).
func decodedChunks(t *testing.T, fsys fs.FS, dir string) map[string][]span {
	t.Helper()
	mem := &recordingFS{MapFS: fstest.MapFS{}, chunks: map[string][]span{}}
	err := fs.WalkDir(fsys, dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		mem.MapFS[strings.TrimPrefix(p, dir+"/")] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := projectedScan(context.Background(), mem, "."); err != nil || res.rows != wantScan().rows {
		t.Fatalf("scan in memory: %+v, %v", res, err)
	}
	return mem.chunks
}

// A projected, filtered scan of a partitioned dataset on S3 lists each
// prefix once, sends at most two metadata requests per file it opens and
// fetches at most 1.1 times the bytes of the column chunks it decodes;
// the files pruned by partition cost no request.
func TestDatasetScanRequests(t *testing.T) {
	bucket := newBucket(t)
	px := newProxy(t, server.endpoint)
	fsys, err := Open("s3://"+bucket+"/warehouse", testOptions(px.URL())...)
	if err != nil {
		t.Fatal(err)
	}
	written := writeDataset(t, fsys, "sales")
	px.settled()

	// A new FS, as a new process would have: nothing cached.
	fsys, err = Open("s3://"+bucket+"/warehouse", testOptions(px.URL())...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := projectedScan(context.Background(), fsys, "sales")
	if err != nil {
		t.Fatal(err)
	}
	reqs := px.settled()
	if want := wantScan(); res.rows != want.rows || res.idSum != want.idSum {
		t.Fatalf("scan read %d rows (id sum %d), want %d (%d)", res.rows, res.idSum, want.rows, want.idSum)
	}

	// Listings: the dataset's prefix, one per year, one per region of
	// each year.
	prefixes := 1 + len(years) + len(years)*len(regions)
	sizes := map[string]int64{}
	for _, w := range written {
		info, err := fs.Stat(fsys, w)
		if err != nil {
			t.Fatal(err)
		}
		sizes[bucket+"/warehouse/"+w] = info.Size()
	}
	px.settled()
	chunks := decodedChunks(t, fsys, "sales")
	px.settled()

	lists, other := 0, 0
	meta := map[string]int{}
	var dataBytes, chunkBytes int64
	for _, r := range reqs {
		switch {
		case r.list:
			lists++
		case r.method == "GET" && r.rng.end > 0:
			size, ok := sizes[r.key]
			if !ok {
				t.Errorf("GET of %s, not a file of the dataset", r.key)
				continue
			}
			if !strings.Contains(r.key, "year=2024") {
				t.Errorf("GET %v of %s, a file the filter prunes", r.rng, r.key)
			}
			if r.rng == (span{0, headSize}) || r.rng == (span{size - tailSize, size}) {
				meta[r.key]++
			} else {
				dataBytes += r.bytes
			}
		default:
			other++
			t.Errorf("unexpected request %+v", r)
		}
	}
	for _, c := range chunks {
		for _, s := range c {
			chunkBytes += s.end - s.off
		}
	}
	if lists != prefixes {
		t.Errorf("%d listings, want one per prefix: %d", lists, prefixes)
	}
	if len(meta) != len(regions) {
		t.Errorf("metadata requests for %d files, want the %d files of 2024: %v", len(meta), len(regions), meta)
	}
	for k, n := range meta {
		if n > 2 {
			t.Errorf("%s: %d metadata requests, want at most 2", k, n)
		}
	}
	if chunkBytes == 0 || dataBytes*10 > chunkBytes*11 {
		t.Errorf("fetched %d bytes of data for %d bytes of column chunks decoded: more than 1.1 times", dataBytes, chunkBytes)
	}
	t.Logf("against %s: %d requests: %d listings, metadata %v, %d data bytes for %d chunk bytes; stats %+v",
		server.name, len(reqs), lists, meta, dataBytes, chunkBytes, res.stats)
	if res.stats.FilesRead != len(regions) {
		t.Errorf("stats: %d files read, want %d", res.stats.FilesRead, len(regions))
	}
	_ = path.Join
}

// Without the schema, discovery reads every file's footer (its head and
// tail blocks, two requests a file); the scan that follows reads them
// from what the FS kept, and only the column chunks of the files it
// does not prune.
func TestDatasetDiscoveryRequests(t *testing.T) {
	bucket := newBucket(t)
	px := newProxy(t, server.endpoint)
	fsys, err := Open("s3://"+bucket+"/w", testOptions(px.URL())...)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, fsys, "sales")
	fsys, _ = Open("s3://"+bucket+"/w", testOptions(px.URL())...)
	px.settled()
	res, err := scanWith(context.Background(), fsys, "sales")
	if err != nil {
		t.Fatal(err)
	}
	if want := wantScan(); res.rows != want.rows || res.idSum != want.idSum {
		t.Fatalf("read %d rows (id sum %d), want %d (%d)", res.rows, res.idSum, want.rows, want.idSum)
	}
	perFile := map[string]int{}
	lists := 0
	for _, r := range px.settled() {
		switch {
		case r.list:
			lists++
		case r.method == "GET":
			perFile[r.key]++
		default:
			t.Errorf("unexpected request %+v", r)
		}
	}
	if want := 1 + len(years) + len(years)*len(regions); lists != want {
		t.Errorf("%d listings, want %d", lists, want)
	}
	if len(perFile) != len(years)*len(regions) {
		t.Errorf("GETs of %d files, want all %d: %v", len(perFile), len(years)*len(regions), perFile)
	}
	for k, n := range perFile {
		want := 2 // head and tail
		if strings.Contains(k, "year=2024") {
			want = 2 + rowsPerFile/rowsPerGroup // and one per row group
		}
		if n != want {
			t.Errorf("%s: %d GETs, want %d", k, n, want)
		}
	}
}
