package dataset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"sync"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
)

// Dataset is a set of files read as one table: their columns (unified, or
// as WithSchema gave them) followed by the partition columns. It holds no
// open file and is safe for concurrent use; every scan opens what it reads
// (a scan needing no column of a Parquet file counts its rows from what
// discovery read of its footer, and opens nothing).
type Dataset struct {
	fsys     fs.FS
	cfg      config
	files    []*source
	schema   *alkaid.Schema
	nData    int // the first nData fields of schema are the files' columns
	partDict bool
	skipped  []error
}

// source is one file of a dataset.
type source struct {
	path   string
	size   int64 // -1 when discovery did not open the file
	format files.Format
	parts  []array.Array // one-row value per partition field
	facts  []*expr.Expr  // per partition field: partitionFact of its value
	schema *alkaid.Schema
	// groupRows are the rows of each row group of a Parquet file whose
	// footer discovery read (nil otherwise): a scan that needs no column
	// of the file counts its rows without opening it.
	groupRows []int64
}

// Open discovers the dataset at root in fsys: every file under the
// directory root, recursively and in lexical order, following symbolic
// links (a loop is ErrSymlinkLoop) and leaving out hidden files (see
// package documentation); or the one file root names. Partition
// directories are relative to root.
func Open(fsys fs.FS, root string, opts ...Option) (*Dataset, error) {
	list := func(add func(string)) error { return listDir(fsys, root, nil, add) }
	return build("Open", fsys, path.Clean(root), list, false, opts)
}

// OpenGlob discovers the files of fsys matching pattern: path.Match
// syntax per slash-separated segment, and "**" for any number of
// directories (e.g. "sales/**/*.parquet"). Partition directories are
// relative to the pattern's leading segments without pattern characters.
func OpenGlob(fsys fs.FS, pattern string, opts ...Option) (*Dataset, error) {
	base, list, err := listGlob(fsys, pattern)
	if err != nil {
		return nil, err
	}
	return build("OpenGlob", fsys, base, list, false, opts)
}

// OpenFiles makes a dataset of exactly these files, in this order, none
// left out; partition directories are relative to base ("." for the
// file system's root). Each file must be of a format files.Detect finds
// or that WithFormat names.
func OpenFiles(fsys fs.FS, base string, files []string, opts ...Option) (*Dataset, error) {
	files = append([]string(nil), files...)
	list := func(add func(string)) error {
		for _, name := range files {
			add(name)
		}
		return nil
	}
	return build("OpenFiles", fsys, path.Clean(base), list, true, opts)
}

// probed is a file of a dataset being discovered: its name and what
// probe found.
type probed struct {
	name string
	src  *source
	ok   bool
	err  error
}

// build probes the files list gives (on GOMAXPROCS goroutines, while the
// listing goes on: each reads a footer or, for CSV and NDJSON, infers a
// schema) and makes the dataset. An error of list is returned before any
// of a probe.
func build(call string, fsys fs.FS, base string, list func(add func(string)) error, explicit bool, opts []Option) (*Dataset, error) {
	o, err := apply(options{}, opts, forOpen, call)
	if err != nil {
		return nil, err
	}
	d := &Dataset{fsys: fsys, cfg: o.open}
	var res []*probed
	if d.cfg.schema != nil && d.cfg.format != files.FormatAuto {
		// Probing opens nothing: no goroutine would have work.
		err = list(func(name string) {
			p := &probed{name: name}
			p.src, p.ok, p.err = d.probe(name)
			res = append(res, p)
		})
		return d.finish(res, err, base, explicit)
	}
	jobs := make(chan *probed, 64)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				p.src, p.ok, p.err = d.probe(p.name)
			}
		}()
	}
	err = list(func(name string) {
		p := &probed{name: name}
		res = append(res, p)
		jobs <- p
	})
	close(jobs)
	wg.Wait()
	return d.finish(res, err, base, explicit)
}

// finish makes the dataset of the probed files once the listing, which
// failed with err or not, is done.
func (d *Dataset) finish(res []*probed, err error, base string, explicit bool) (*Dataset, error) {
	if err != nil {
		return nil, err
	}
	var kept []string
	for _, p := range res {
		name, src, ok, err := p.name, p.src, p.ok, p.err
		if err != nil {
			if d.cfg.skipCorrupt {
				d.skipped = append(d.skipped, err)
				continue
			}
			return nil, err
		}
		if !ok {
			if explicit {
				return nil, fileErr(name, fmt.Errorf("%w: not a Parquet, IPC, CSV or NDJSON file", ErrInvalid))
			}
			continue
		}
		d.files = append(d.files, src)
		kept = append(kept, name)
	}
	pfields, pvals, facts, err := partitionValues(d.cfg.part, base, kept)
	if err != nil {
		return nil, err
	}
	for i, src := range d.files {
		src.parts, src.facts = pvals[i], facts[i]
	}
	data := d.cfg.schema
	if data == nil {
		schemas := make([]*alkaid.Schema, len(d.files))
		for i, src := range d.files {
			schemas[i] = src.schema
		}
		if data, err = unify(schemas, kept); err != nil {
			return nil, err
		}
	}
	fields := data.Fields()
	for _, pf := range pfields {
		if data.FieldIndex(pf.Name) < 0 {
			continue
		}
		for _, src := range d.files {
			if src.schema != nil && src.schema.FieldIndex(pf.Name) >= 0 {
				return nil, fileErr(src.path, fmt.Errorf("%w: partition key %q is also a column of the file", ErrInvalid, pf.Name))
			}
		}
		return nil, fmt.Errorf("dataset: WithSchema: %w: partition key %q is also a column of the schema", ErrInvalid, pf.Name)
	}
	d.nData = len(fields)
	d.partDict = d.cfg.part.Dictionary
	d.schema = alkaid.NewSchema(append(fields, pfields...), data.Metadata())
	return d, nil
}

// probe picks the format of the file name and, without WithSchema, reads
// its schema; ok is false for a file of no known format. Given both the
// schema and the format, it opens nothing: the scans open what they read.
func (d *Dataset) probe(name string) (*source, bool, error) {
	if d.cfg.schema != nil && d.cfg.format != files.FormatAuto {
		return &source{path: name, size: -1, format: d.cfg.format}, true, nil
	}
	f, size, err := openFile(d.fsys, name)
	if err != nil {
		return nil, false, fileErr(name, err)
	}
	defer f.Close()
	format := d.cfg.format
	if format == files.FormatAuto {
		if format, err = files.Detect(f, size, name); errors.Is(err, files.ErrUnknownFormat) {
			return nil, false, nil
		} else if err != nil {
			return nil, false, fileErr(name, err)
		}
	}
	src := &source{path: name, size: size, format: format}
	if d.cfg.schema == nil {
		r, err := d.openReader(src, f, size, nil)
		if err != nil {
			return nil, false, fileErr(name, err)
		}
		src.schema = r.schema
		if r.pq != nil {
			src.groupRows = make([]int64, r.pq.NumRowGroups())
			for g := range src.groupRows {
				src.groupRows[g] = r.pq.RowGroup(g).Rows
			}
		}
	}
	return src, true, nil
}

// Schema is the dataset's schema: the files' columns, then the partition
// columns.
func (d *Dataset) Schema() *alkaid.Schema { return d.schema }

// Partitions lists the partition columns, which follow the files'
// columns in Schema.
func (d *Dataset) Partitions() []datatype.Field { return d.schema.Fields()[d.nData:] }

// Files lists the paths of the dataset's files in file order.
func (d *Dataset) Files() []string {
	out := make([]string, len(d.files))
	for i, s := range d.files {
		out[i] = s.path
	}
	return out
}

// Skipped lists the errors, each a *FileError, of the files that
// WithSkipCorrupt left out while the dataset was discovered.
func (d *Dataset) Skipped() []error { return append([]error(nil), d.skipped...) }

// partition returns the partition value of src for dataset field i (at
// or after nData) as a one-row array.
func (d *Dataset) partition(src *source, i int) array.Array { return src.parts[i-d.nData] }

// isPartition reports whether dataset field i is a partition column.
func (d *Dataset) isPartition(i int) bool { return i >= d.nData }

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n *counter
}

func (c countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.add(int64(n))
	return n, err
}

// Prefetch passes ranges on to a reader that prefetches (a file of an
// object store), so that wrapping it hides nothing from the parquet
// reader, and counts the bytes of the fetches it gives back.
func (c countingReaderAt) Prefetch(ranges [][2]int64) []func() ([]byte, error) {
	p, ok := c.r.(parquet.Prefetcher)
	if !ok {
		return nil
	}
	fetches := p.Prefetch(ranges)
	for i, fetch := range fetches {
		if fetch != nil {
			fetches[i] = func() ([]byte, error) {
				b, err := fetch()
				c.n.add(int64(len(b)))
				return b, err
			}
		}
	}
	return fetches
}
