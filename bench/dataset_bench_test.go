package bench

import (
	"context"
	"fmt"
	"io/fs"
	"iter"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	alkfiles "github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
)

// The dataset pairs scan one Hive-partitioned dataset — dsRows rows of
// id, x (uniform in [0, 1e6)) and f (float64) as 20 snappy Parquet files
// under year=2023..2024/month=1..10, written once by the dataset package
// — with the dataset package and by hand with arrow-go's pqarrow, file by
// file (paths parsed, partitions filtered, columns read and summed in the
// benchmark's own loop). Three scans: count and sum of f over everything;
// the same for year=2024/month=3; and sum of f per month where x < 100000.
//
// Two pairs per scan, each side doing the same work as the other:
//
//   - alkaid / arrowgo: discovery in every operation. Ours opens the
//     dataset (lists the files and reads every footer to unify the
//     schemas), then scans (opening the files it reads and reading their
//     footers again); arrow-go's walks the directory, parses the paths and
//     opens the files it reads (one footer read each).
//   - alkaid-given / arrowgo: as the first pair, but ours is given what
//     the hand-written loop assumes, the files' schema and format
//     (dataset.WithSchema, dataset.WithFormat), so discovery lists the
//     files and reads no footer; the scan reads the footers of the files
//     it opens, as arrow-go's does.
//   - alkaid-opened / arrowgo-listed: discovery once, before the loop. Ours
//     opens the dataset once and each operation is a scan; arrow-go's
//     walks the directory and parses the paths once and each operation
//     opens the files it reads. Both read one footer per file read.
//
// bench/duckdb/dataset.mjs runs the same three against DuckDB (its
// ds/main.go opens the dataset once, as in the second pair; DuckDB's
// read_parquet lists the files in every query).

const dsRows = 2_000_000

var dsOnce struct {
	sync.Once
	dir string
	err error
}

// dsDir writes the dataset once per process and returns its directory:
// under the test binary's file directory (see TestMain), which is removed
// when the benchmarks are done.
func dsDir(b *testing.B) string {
	dsOnce.Do(func() {
		dsOnce.dir, dsOnce.err = os.MkdirTemp(fileDir, "alkaid-ds-bench-")
		if dsOnce.err != nil {
			return
		}
		s := alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Int64}, {Name: "x", Type: datatype.Int64},
			{Name: "f", Type: datatype.Float64}, {Name: "year", Type: datatype.Int64}, {Name: "month", Type: datatype.Int64}}, datatype.Metadata{})
		src := dsSource{schema: s}
		_, dsOnce.err = dataset.Write(context.Background(), dataset.DirFS(dsOnce.dir), "sales", src,
			dataset.WithPartitionBy("year", "month"), dataset.WithParquetOptions(parquet.WithCompression(parquet.Snappy, 0)))
	})
	if dsOnce.err != nil {
		b.Fatal(dsOnce.err)
	}
	return path.Join(dsOnce.dir, "sales")
}

// dsSource makes the dataset's rows in batches of 1<<16.
type dsSource struct{ schema *alkaid.Schema }

func (d dsSource) Schema() *alkaid.Schema { return d.schema }
func (d dsSource) Close() error           { return nil }
func (d dsSource) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for at := 0; at < dsRows; at += 1 << 16 {
			n := min(1<<16, dsRows-at)
			cols := make([]*array.PrimitiveBuilder[int64], 5)
			for k := range cols {
				cols[k] = array.NewPrimitiveBuilder[int64](datatype.Int64)
			}
			fb := array.NewPrimitiveBuilder[float64](datatype.Float64)
			for i := at; i < at+n; i++ {
				cols[0].Append(int64(i))
				cols[1].Append(int64(uint64(i) * 2654435761 % 4294967291 % 1000000))
				fb.Append(float64(i*7919%100000) / 7)
				cols[3].Append(2023 + int64(i%2))
				cols[4].Append(1 + int64(i/2%10))
			}
			r, err := alkaid.NewRecord(d.schema, []array.Array{cols[0].Finish(), cols[1].Finish(), fb.Finish(), cols[3].Finish(), cols[4].Finish()}, n)
			if !yield(r, err) {
				return
			}
		}
	}
}

type dsResult struct {
	count  int64
	sum    float64
	months map[int64]float64
}

func dsOpen(dir string, opts ...dataset.Option) (*dataset.Dataset, error) {
	opts = append(opts, dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	return dataset.Open(os.DirFS(dir), ".", opts...)
}

// dsFileSchema is the schema of the dataset's files (without the
// partition columns).
var dsFileSchema = alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Int64}, {Name: "x", Type: datatype.Int64},
	{Name: "f", Type: datatype.Float64}}, datatype.Metadata{})

// dsOurs opens the dataset with opts and scans it.
func dsOurs(dir string, scan int, opts ...dataset.Option) (dsResult, error) {
	d, err := dsOpen(dir, opts...)
	if err != nil {
		return dsResult{}, err
	}
	return dsScan(d, scan)
}

// dsScan runs scan over the open dataset d.
func dsScan(d *dataset.Dataset, scan int) (dsResult, error) {
	opts := []dataset.Option{dataset.WithUnordered(), dataset.WithColumns("f")}
	switch scan {
	case 1:
		opts = append(opts, dataset.WithFilter(expr.And(
			expr.Eq(expr.Field("year"), expr.Lit(2024)), expr.Eq(expr.Field("month"), expr.Lit(3)))))
	case 2:
		opts = append(opts, dataset.WithColumns("f", "month"),
			dataset.WithFilter(expr.Lt(expr.Field("x"), expr.Lit(100000))))
	}
	s, err := d.Scan(context.Background(), opts...)
	if err != nil {
		return dsResult{}, err
	}
	r := dsResult{months: map[int64]float64{}}
	for rec, err := range s.Records() {
		if err != nil {
			return dsResult{}, err
		}
		sum, _ := compute.SumFloats(rec.Column(0).(*array.Float64))
		r.count += int64(rec.NumRows())
		r.sum += sum
		if scan == 2 {
			r.months[rec.Column(1).(*array.Int64).Value(0)] += sum // one file per record: month is constant
		}
	}
	return r, nil
}

// dsFile is a file of the dataset with its partition values.
type dsFile struct {
	path        string
	year, month int64
}

// dsList walks dir for the Parquet files and parses their partitions.
func dsList(dir string) ([]dsFile, error) {
	var files []dsFile
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		f := dsFile{path: path.Join(dir, p)}
		for _, seg := range strings.Split(path.Dir(p), "/") {
			k, v, _ := strings.Cut(seg, "=")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %v", p, err)
			}
			switch k {
			case "year":
				f.year = n
			case "month":
				f.month = n
			}
		}
		files = append(files, f)
		return nil
	})
	return files, err
}

// dsArrowGo does the scan by hand with pqarrow, file by file, listing the
// files first.
func dsArrowGo(dir string, scan int) (dsResult, error) {
	files, err := dsList(dir)
	if err != nil {
		return dsResult{}, err
	}
	return dsArrowGoFiles(files, scan)
}

// dsArrowGoFiles does the scan by hand with pqarrow over the listed files.
func dsArrowGoFiles(files []dsFile, scan int) (dsResult, error) {
	r := dsResult{months: map[int64]float64{}}
	for _, f := range files {
		if scan == 1 && (f.year != 2024 || f.month != 3) {
			continue
		}
		if err := dsArrowGoFile(f, scan, &r); err != nil {
			return dsResult{}, err
		}
	}
	return r, nil
}

func dsArrowGoFile(f dsFile, scan int, r *dsResult) error {
	pf, err := file.OpenParquetFile(f.path, false)
	if err != nil {
		return err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{Parallel: true, BatchSize: 1 << 20}, mem)
	if err != nil {
		return err
	}
	cols := []int{pf.MetaData().Schema.ColumnIndexByName("f")}
	if scan == 2 {
		cols = append(cols, pf.MetaData().Schema.ColumnIndexByName("x"))
	}
	var rgs []int
	for i := range pf.NumRowGroups() {
		rgs = append(rgs, i)
	}
	tbl, err := fr.ReadRowGroups(context.Background(), cols, rgs)
	if err != nil {
		return err
	}
	defer tbl.Release()
	fcol := tbl.Column(tbl.Schema().FieldIndices("f")[0]).Data().Chunks()
	var xcol []aarrow.Array
	if scan == 2 {
		xcol = tbl.Column(tbl.Schema().FieldIndices("x")[0]).Data().Chunks()
	}
	for c, chunk := range fcol {
		fs := chunk.(*aarray.Float64).Float64Values()
		if scan == 2 {
			xs := xcol[c].(*aarray.Int64).Int64Values()
			for i, v := range fs {
				if xs[i] < 100000 {
					r.count++
					r.sum += v
					r.months[f.month] += v
				}
			}
			continue
		}
		for _, v := range fs {
			r.sum += v
			r.months[f.month] += v
		}
		r.count += int64(len(fs))
	}
	return nil
}

func BenchmarkDataset(b *testing.B) {
	dir := dsDir(b)
	d, err := dsOpen(dir)
	if err != nil {
		b.Fatal(err)
	}
	files, err := dsList(dir)
	if err != nil {
		b.Fatal(err)
	}
	for scan, name := range []string{"Full", "PartitionFilter", "FilterGroupBy"} {
		want, err := dsArrowGo(dir, scan)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range []struct {
			name string
			f    func() (dsResult, error)
		}{
			{"alkaid", func() (dsResult, error) { return dsOurs(dir, scan) }},
			{"arrowgo", func() (dsResult, error) { return dsArrowGo(dir, scan) }},
			{"alkaid-given", func() (dsResult, error) {
				return dsOurs(dir, scan, dataset.WithSchema(dsFileSchema), dataset.WithFormat(alkfiles.FormatParquet))
			}},
			{"alkaid-opened", func() (dsResult, error) { return dsScan(d, scan) }},
			{"arrowgo-listed", func() (dsResult, error) { return dsArrowGoFiles(files, scan) }},
		} {
			b.Run(name+"/"+side.name, func(b *testing.B) {
				for b.Loop() {
					got, err := side.f()
					if err != nil {
						b.Fatal(err)
					}
					if got.count != want.count || math.Abs(got.sum-want.sum) > 1e-9*math.Abs(want.sum) {
						b.Fatalf("%s: count %d sum %g, arrow-go by hand: count %d sum %g", side.name, got.count, got.sum, want.count, want.sum)
					}
				}
				b.ReportMetric(float64(want.count), "rows")
			})
		}
	}
}
