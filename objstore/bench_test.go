package objstore

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
	"github.com/minio/minio-go/v7"
)

// The benchmark dataset: benchMiB MiB of Parquet (random float64 columns
// c0..c5 and a sequential id, compressed with benchCodec) in benchFiles files under
// benchParts Hive partitions (part=0..), row groups of benchGroupRows
// rows. It is written to the test server once per test process (the
// server's data directory, removed when the tests end, is its cache).
var (
	benchMiB   = flag.Int("objstore.benchmib", 1024, "size in MiB of the dataset BenchmarkScan writes to the test server")
	benchCodec = flag.String("objstore.benchcodec", "snappy", "codec of the dataset BenchmarkScan writes: snappy or none")
	benchConc  = flag.Int("objstore.benchscanconc", 0, "dataset.WithConcurrency of BenchmarkScan's scan (0: the default)")
	benchProf  = flag.String("objstore.scanprofile", "", "write a CPU profile of BenchmarkScan/scan alone (not the dataset's writing) to this file")
)

const (
	benchParts     = 4
	benchFiles     = 16
	benchFloats    = 6
	benchGroupRows = 1 << 19
	benchBucket    = "bench"
)

// benchRows is the number of rows of a dataset of about mib MiB: a row
// takes about 52 bytes (the random floats do not compress, the ids do
// to about half).
func benchRows(mib int) int64 { return int64(mib) << 20 / 52 }

// benchSource generates the benchmark dataset's rows: part, id, c0..c5.
type benchSource struct {
	schema *alkaid.Schema
	rows   int64
}

func newBenchSource(rows int64) benchSource {
	fields := []datatype.Field{{Name: "part", Type: datatype.Int64}, {Name: "id", Type: datatype.Int64}}
	for i := range benchFloats {
		fields = append(fields, datatype.Field{Name: fmt.Sprintf("c%d", i), Type: datatype.Float64})
	}
	return benchSource{alkaid.NewSchema(fields, datatype.Metadata{}), rows}
}

func (s benchSource) Schema() *alkaid.Schema { return s.schema }

func (s benchSource) Close() error { return nil }

func (s benchSource) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		rng := rand.New(rand.NewPCG(1, 2))
		const batch = 1 << 16
		perPart := (s.rows + benchParts - 1) / benchParts
		for start := int64(0); start < s.rows; start += batch {
			n := min(batch, s.rows-start)
			part := start / perPart
			if end := (part + 1) * perPart; start+n > end {
				n = end - start // a record never spans two partitions
			}
			parts := array.NewPrimitiveBuilder[int64](datatype.Int64)
			ids := array.NewPrimitiveBuilder[int64](datatype.Int64)
			cols := []array.Array{nil, nil}
			for id := start; id < start+n; id++ {
				parts.Append(part)
				ids.Append(id)
			}
			cols[0], cols[1] = parts.Finish(), ids.Finish()
			for range benchFloats {
				fb := array.NewPrimitiveBuilder[float64](datatype.Float64)
				for range n {
					fb.Append(rng.Float64())
				}
				cols = append(cols, fb.Finish())
			}
			rec, err := alkaid.NewRecord(s.schema, cols, int(n))
			if !yield(rec, err) || err != nil {
				return
			}
			start += n - batch // the loop adds batch
		}
	}
}

// benchSet is the benchmark dataset on the server and what one projected
// scan of it fetched.
type benchSet struct {
	url    string
	rows   int64
	gets   []rangeGet // the ranged GETs of one scan, in the order sent
	chunk  int64      // their bytes
	sizes  map[string]int64
	total  int64 // the bytes of all files
	result scanSum
}

// rangeGet is one ranged GET.
type rangeGet struct {
	key    string
	off, n int64
}

var (
	benchOnce sync.Once
	benchData *benchSet
	benchErr  error
)

// benchDataset writes the dataset (once per process) and records the
// ranged GETs of one projected scan.
func benchDataset(b *testing.B) *benchSet {
	b.Helper()
	if server.endpoint == "" {
		b.Skipf("no S3 server: %s", server.skip)
	}
	if server.name != "SeaweedFS" && *benchMiB > 64 {
		b.Skipf("the %d MiB dataset needs SeaweedFS (gofakes3 keeps objects in memory): build it with scripts/weed.sh, or give -objstore.benchmib=64", *benchMiB)
	}
	benchOnce.Do(func() { benchData, benchErr = makeBenchSet() })
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchData
}

func makeBenchSet() (*benchSet, error) {
	c, err := testClient(server.endpoint)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if ok, _ := c.BucketExists(ctx, benchBucket); !ok {
		if err := c.MakeBucket(ctx, benchBucket, minio.MakeBucketOptions{}); err != nil {
			return nil, err
		}
	}
	rows := benchRows(*benchMiB)
	set := &benchSet{url: fmt.Sprintf("s3://%s/mib%d-%s", benchBucket, *benchMiB, *benchCodec), rows: rows, sizes: map[string]int64{}}
	fsys, err := Open(set.url, testOptions(server.endpoint, WithRequestTimeout(time.Minute))...)
	if err != nil {
		return nil, err
	}
	pq, err := parquetBenchOptions()
	if err != nil {
		return nil, err
	}
	if _, err := dataset.Write(ctx, fsys, "data", newBenchSource(rows),
		dataset.WithPartitionBy("part"), dataset.WithMaxRowsPerFile(int(rows/benchFiles)+1),
		dataset.WithParquetOptions(pq...)); err != nil {
		return nil, fmt.Errorf("writing the benchmark dataset: %w", err)
	}
	_, prefix, _ := ParseURL(set.url)
	for o := range c.ListObjects(ctx, benchBucket, minio.ListObjectsOptions{Prefix: prefix + "/", Recursive: true}) {
		if o.Err != nil {
			return nil, o.Err
		}
		set.sizes[o.Key] = o.Size
		set.total += o.Size
	}
	// One scan through a store recording its ranged GETs.
	s3, err := NewS3(benchBucket, testOptions(server.endpoint)...)
	if err != nil {
		return nil, err
	}
	rec := &recordingStore{Store: s3}
	rfs, err := NewFS(rec, prefix)
	if err != nil {
		return nil, err
	}
	if set.result, err = benchScan(rfs); err != nil {
		return nil, err
	}
	if set.result.rows != rows {
		return nil, fmt.Errorf("the scan read %d rows, want %d", set.result.rows, rows)
	}
	set.gets = rec.gets
	for _, g := range set.gets {
		set.chunk += g.n
	}
	return set, nil
}

// scanSum is what benchScan read.
type scanSum struct {
	rows int64
	sum  float64
}

// benchScan scans columns id and c3 of every file of the dataset in
// fsys, summing c3 so that every value is decoded.
func benchScan(fsys *FS) (scanSum, error) {
	fields := newBenchSource(0).schema.Fields()[1:] // the files' columns
	d, err := dataset.Open(fsys, "data", dataset.WithSchema(alkaid.NewSchema(fields, datatype.Metadata{})),
		dataset.WithFormat(files.FormatParquet), dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	if err != nil {
		return scanSum{}, err
	}
	s, err := d.Scan(context.Background(), dataset.WithColumns("id", "c3"), dataset.WithConcurrency(*benchConc))
	if err != nil {
		return scanSum{}, err
	}
	var res scanSum
	for rec, err := range s.Records() {
		if err != nil {
			return res, err
		}
		res.rows += int64(rec.NumRows())
		sum, _ := compute.SumFloats(rec.Column(1).(*array.Primitive[float64]))
		res.sum += sum
	}
	return res, nil
}

// recordingStore records the ranged GETs sent through it.
type recordingStore struct {
	Store
	mu   sync.Mutex
	gets []rangeGet
}

func (r *recordingStore) ReadRange(ctx context.Context, key string, off int64, p []byte) error {
	err := r.Store.ReadRange(ctx, key, off, p)
	r.mu.Lock()
	r.gets = append(r.gets, rangeGet{key: key, off: off, n: int64(len(p))})
	r.mu.Unlock()
	return err
}

// BenchmarkScan measures a projected scan (2 of 7 columns, every file)
// of the dataset on the local server against the two bounds it sits
// between: plain GETs of exactly the byte ranges the scan fetched (its
// footer blocks and coalesced column chunks, as many at once as the FS
// sends, nothing decoded: the physical limit), and GETs of every byte of
// every file (what a reader fetching whole files does). Bytes/s of the
// scan and of the plain GETs count the bytes the scan fetches, those of
// the whole files every byte. On a machine whose load changes from one
// second to the next, times taken minutes apart do not compare: each
// iteration of "ratio" runs all three, one after the other, and reports
// the median of the scan's time over each bound's (x-gets, x-whole).
//
//	go test -run '^$' -bench Scan -benchtime 5x
func BenchmarkScan(b *testing.B) {
	set := benchDataset(b)
	s3, err := NewS3(benchBucket, testOptions(server.endpoint, WithRequestTimeout(time.Minute))...)
	if err != nil {
		b.Fatal(err)
	}
	defer s3.Close()
	c, err := newConfig(nil, fsOptions)
	if err != nil {
		b.Fatal(err)
	}
	conc := c.concurrency // as many GETs at once as an FS sends
	b.Logf("%s: %d files, %d bytes; a scan sends %d ranged GETs for %d bytes", set.url, len(set.sizes), set.total, len(set.gets), set.chunk)
	keys := make([]string, 0, len(set.sizes))
	for k := range set.sizes {
		keys = append(keys, k)
	}
	gets := func() error {
		return parallel(len(set.gets), conc, func(i int) error {
			g := set.gets[i]
			return s3.ReadRange(context.Background(), g.key, g.off, make([]byte, g.n))
		})
	}
	whole := func() error {
		return parallel(len(keys), conc, func(i int) error {
			body, _, _, err := s3.core.GetObject(context.Background(), benchBucket, keys[i], minio.GetObjectOptions{})
			if err != nil {
				return err
			}
			defer body.Close()
			n, err := io.Copy(io.Discard, body)
			if err == nil && n != set.sizes[keys[i]] {
				err = fmt.Errorf("%s: read %d bytes, want %d", keys[i], n, set.sizes[keys[i]])
			}
			return err
		})
	}
	_, prefix, _ := ParseURL(set.url)
	scan := func() error {
		// A new FS (nothing cached: listings, footers) on the store the
		// GETs use (its connections open, as theirs are).
		fsys, err := NewFS(s3, prefix)
		if err != nil {
			return err
		}
		res, err := benchScan(fsys)
		if err == nil && res != set.result {
			err = fmt.Errorf("scan read %+v, want %+v", res, set.result)
		}
		return err
	}
	for _, c := range []struct {
		name  string
		bytes int64
		run   func() error
	}{{"gets", set.chunk, gets}, {"whole", set.total, whole}, {"scan", set.chunk, scan}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(c.bytes)
			if c.name == "scan" && *benchProf != "" {
				defer profileCPU(b, *benchProf)()
			}
			defer reportCPU(b)()
			for range b.N {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("ratio", func(b *testing.B) {
		var xGets, xWhole []float64
		for i := range b.N {
			var t [3]time.Duration
			for k := range 3 {
				k = (k + i) % 3 // each goes first in turn
				start := time.Now()
				if err := []func() error{gets, whole, scan}[k](); err != nil {
					b.Fatal(err)
				}
				t[k] = time.Since(start)
			}
			xGets = append(xGets, float64(t[2])/float64(t[0]))
			xWhole = append(xWhole, float64(t[2])/float64(t[1]))
		}
		b.ReportMetric(median(xGets), "x-gets")
		b.ReportMetric(median(xWhole), "x-whole")
	})
}

// median is the median of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// parquetBenchOptions write the dataset: row groups of benchGroupRows,
// plain encoding (random floats gain nothing from a dictionary), the
// codec of -objstore.benchcodec.
func parquetBenchOptions() ([]parquet.Option, error) {
	codec := parquet.Snappy
	switch *benchCodec {
	case "snappy":
	case "none":
		codec = parquet.Uncompressed
	default:
		return nil, fmt.Errorf("-objstore.benchcodec %q: want snappy or none", *benchCodec)
	}
	return []parquet.Option{parquet.WithRowGroupRows(benchGroupRows), parquet.WithDictionary(false, 0),
		parquet.WithCompression(codec, 0)}, nil
}

// reportCPU reports, when the returned function is called, the CPU time
// (user and system) per operation since of the test process (cpu-ms/op:
// the client's work) and, when SeaweedFS runs in a process of its own, of
// that process (server-cpu-ms/op; on Linux, from /proc, in clock ticks).
func reportCPU(b *testing.B) func() {
	client := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	startClient := client()
	startServer, serverOK := serverCPU()
	return func() {
		b.ReportMetric(float64(client()-startClient)/float64(b.N)/1e6, "cpu-ms/op")
		if end, ok := serverCPU(); ok && serverOK {
			b.ReportMetric(float64(end-startServer)/float64(b.N)/1e6, "server-cpu-ms/op")
		}
	}
}

// serverCPU is the CPU time (user and system) SeaweedFS's process used so
// far, read from /proc/pid/stat; false when it is not known.
func serverCPU() (time.Duration, bool) {
	if server.pid == 0 {
		return 0, false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", server.pid))
	if err != nil {
		return 0, false
	}
	// The fields after the command name (in parentheses, which may hold
	// spaces): state is field 3, utime and stime fields 14 and 15.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	const tick = 10 * time.Millisecond // USER_HZ: 100 on Linux
	return time.Duration(utime+stime) * tick, true
}

// profileCPU writes a CPU profile to file until the returned function
// is called.
func profileCPU(b *testing.B, file string) func() {
	f, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			b.Error(err)
		}
	}
}

// parallel calls f(0..n-1), at most conc at once, returning the first
// error.
func parallel(n, conc int, f func(int) error) error {
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := f(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}
