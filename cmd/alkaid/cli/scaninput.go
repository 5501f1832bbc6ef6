package cli

// The reading commands read a dataset, and a single Parquet file as a
// dataset of that one file, through one scan (package dataset): -where
// becomes its filter, so that partition values, row group statistics,
// bloom filters and the page index skip what the filter rules out, and
// -select its projection, so that only the columns the expressions read
// are decoded.

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
)

// scanInput is the input of a scan of d, planned when its records are
// first read, after -where and -select narrowed it (filterScan,
// projectScan). named names a read error.
func scanInput(d *dataset.Dataset, path string, named func(i int, err error) error) *input {
	var opts []dataset.Option
	in := &input{path: path, named: named}
	recs := func(yield func(*alkaid.Record, error) bool) {
		scan, err := d.Scan(context.Background(), opts...)
		if err != nil {
			yield(nil, err)
			return
		}
		in.scan = scan
		for rec, err := range scan.Records() {
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
	in.RecordReader = alkaid.NewRecordReader(d.Schema(), recs, nil)
	in.filterScan = func(e *expr.Expr) { opts = append(opts, dataset.WithFilter(e)) }
	in.projectScan = func(cols []string) error {
		opts = append(opts, dataset.WithColumns(cols...))
		scan, err := d.Scan(context.Background(), opts...) // plans, reads nothing
		if err != nil {
			return err
		}
		in.RecordReader = alkaid.NewRecordReader(scan.Schema(), recs, nil)
		return nil
	}
	return in
}

// parquetFileName is the name of a single Parquet file in its one-file
// file system (errors name the file by its path, not this name).
const parquetFileName = "file.parquet"

// openParquetInput reads the Parquet file f (size bytes, named path) as a
// dataset of that one file.
func openParquetInput(path string, f io.ReaderAt, size int64) (*input, error) {
	fsys := oneFileFS{name: parquetFileName, f: f, size: size}
	d, err := dataset.OpenFiles(fsys, ".", []string{parquetFileName},
		dataset.WithFormat(files.FormatParquet), dataset.WithParquetOptions(pqRead.options()...))
	if err != nil {
		return nil, unwrapFileErr(err)
	}
	return scanInput(d, path, func(i int, err error) error { return parquetNamed(i, unwrapFileErr(err)) }), nil
}

// unwrapFileErr is err without the dataset's naming of the one file.
func unwrapFileErr(err error) error {
	var fe *dataset.FileError
	if errors.As(err, &fe) && fe.Path == parquetFileName {
		return fe.Err
	}
	return err
}

// oneFileFS is a file system holding the one file name: f, of size
// bytes. Closing a file it opened leaves f open (its opener closes it).
type oneFileFS struct {
	name string
	f    io.ReaderAt
	size int64
}

func (o oneFileFS) Open(name string) (fs.File, error) {
	if name != o.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &oneFile{SectionReader: io.NewSectionReader(o.f, 0, o.size), fsys: o}, nil
}

// oneFile is an open oneFileFS file: it reads at offsets, and in order.
type oneFile struct {
	*io.SectionReader
	fsys oneFileFS
}

func (f *oneFile) Stat() (fs.FileInfo, error) { return oneFileInfo(f.fsys), nil }
func (f *oneFile) Close() error               { return nil }

// Prefetch passes ranges on to a file that prefetches (one of an object
// store), as the Parquet reader would without the file system between.
func (f *oneFile) Prefetch(ranges [][2]int64) []func() ([]byte, error) {
	if p, ok := f.fsys.f.(parquet.Prefetcher); ok {
		return p.Prefetch(ranges)
	}
	return nil
}

// oneFileInfo describes a oneFileFS's file.
type oneFileInfo oneFileFS

func (i oneFileInfo) Name() string       { return i.name }
func (i oneFileInfo) Size() int64        { return i.size }
func (i oneFileInfo) Mode() fs.FileMode  { return 0o444 }
func (i oneFileInfo) ModTime() time.Time { return time.Time{} }
func (i oneFileInfo) IsDir() bool        { return false }
func (i oneFileInfo) Sys() any           { return nil }
