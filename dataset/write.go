package dataset

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
)

// part is one file being written under a temporary name.
type part struct {
	final, tmp string
	out        io.WriteCloser
	w          alkaid.RecordWriter
	rows       int
}

// dirState is the files of one partition directory.
type dirState struct {
	dir   string
	cur   *part
	count int
}

// writer is one Write call.
type writer struct {
	cfg    writeConfig
	dst    WriteFS
	root   string
	schema *alkaid.Schema // of the files: the source's minus partitions
	pcols  []int          // source columns partitioned by
	dcols  []int          // source columns written
	dirs   map[string]*dirState
	order  []*dirState
	done   []*part // complete, awaiting rename
	token  string
}

// Write writes the records of src as a dataset in the directory dir of
// dst and returns the paths of the files written. Files are written under
// hidden temporary names and renamed once every one is complete: when the
// source, a writer or ctx fails, the temporary files are removed and the
// directory holds what it held before. Write does not close src.
func Write(ctx context.Context, dst WriteFS, dir string, src alkaid.RecordReader, opts ...Option) ([]string, error) {
	o, err := apply(options{write: writeConfig{style: Hive, format: files.FormatParquet}}, opts, forWrite, "Write")
	if err != nil {
		return nil, err
	}
	if o.write.format == files.FormatAuto {
		return nil, fmt.Errorf("dataset: WithFormat(%s): %w: Write needs a format, not FormatAuto", files.FormatAuto, ErrInvalid)
	}
	w := &writer{cfg: o.write, dst: dst, root: path.Clean(dir), dirs: map[string]*dirState{}}
	if w.cfg.template == "" {
		w.cfg.template = "part-{i}" + w.cfg.format.Extension()
	}
	if !fs.ValidPath(w.root) {
		return nil, fmt.Errorf("dataset: %w: directory %q is not a valid path", ErrInvalid, dir)
	}
	s := src.Schema()
	for _, name := range w.cfg.partitionBy {
		i := s.FieldIndex(name)
		if i < 0 {
			return nil, fmt.Errorf("dataset: %w: partition by %q: no such column", ErrInvalid, name)
		}
		w.pcols = append(w.pcols, i)
	}
	var fields []datatype.Field
	for i, f := range s.Fields() {
		if !containsInt(w.pcols, i) {
			w.dcols = append(w.dcols, i)
			fields = append(fields, f)
		}
	}
	w.schema = alkaid.NewSchema(fields, s.Metadata())
	var tok [6]byte
	rand.Read(tok[:])
	w.token = hex.EncodeToString(tok[:])
	if w.cfg.existing == ExistingError {
		old, err := existingFiles(dst, w.root)
		if err != nil {
			return nil, fileErr(w.root, err)
		}
		if len(old) > 0 {
			return nil, fmt.Errorf("%w: %s holds %s", ErrExists, w.root, old[0])
		}
	}
	err = w.writeAll(ctx, src)
	if err == nil {
		return w.commit()
	}
	w.abort()
	return nil, err
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (w *writer) writeAll(ctx context.Context, src alkaid.RecordReader) error {
	for rec, err := range src.Records() {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !rec.Schema().Equal(src.Schema()) {
			return fmt.Errorf("dataset: %w: record of schema %s, source schema %s", ErrInvalid, rec.Schema(), src.Schema())
		}
		if err := w.add(rec); err != nil {
			return err
		}
	}
	for _, d := range w.order {
		if err := w.finish(d); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// add splits rec by partition and writes each part.
func (w *writer) add(rec *alkaid.Record) error {
	cols := make([]array.Array, len(w.dcols))
	for k, i := range w.dcols {
		cols[k] = rec.Column(i)
	}
	data, err := alkaid.NewRecord(w.schema, cols, rec.NumRows())
	if err != nil {
		return err
	}
	if len(w.pcols) == 0 {
		return w.put(w.root, data)
	}
	// Rows are grouped by the bytes of their partition values, and each
	// group's directory name is made once.
	var dirs []string
	rows := map[string][]int64{}
	byKey := map[string]string{}
	var key []byte
	for r := range rec.NumRows() {
		key = key[:0]
		for _, i := range w.pcols {
			key = array.AppendKey(key, rec.Column(i), r)
		}
		dir, ok := byKey[string(key)]
		if !ok {
			var err error
			if dir, err = w.partitionDir(rec, r); err != nil {
				return err
			}
			byKey[string(key)] = dir
		}
		if _, ok := rows[dir]; !ok {
			dirs = append(dirs, dir)
		}
		rows[dir] = append(rows[dir], int64(r))
	}
	for _, dir := range dirs {
		part := data
		if idx := rows[dir]; len(idx) < rec.NumRows() {
			b := array.NewPrimitiveBuilder[int64](datatype.Int64)
			b.AppendValues(idx, nil)
			if part, err = compute.TakeRecord(data, b.Finish()); err != nil {
				return err
			}
		}
		if err := w.put(dir, part); err != nil {
			return err
		}
	}
	return nil
}

// partitionDir is the directory of row r of rec.
func (w *writer) partitionDir(rec *alkaid.Record, r int) (string, error) {
	segs := []string{w.root}
	for _, i := range w.pcols {
		name := rec.Schema().Field(i).Name
		text, null, err := formatValue(rec.Column(i), r)
		if err != nil {
			return "", fmt.Errorf("dataset: partition by %q: %w", name, err)
		}
		v := escapeHive(text)
		switch {
		case null:
			v = HiveNull
		case text == "" && w.cfg.style == Directory:
			return "", fmt.Errorf("dataset: %w: partition by %q: an empty string has no directory name in the Directory layout", ErrInvalid, name)
		}
		if w.cfg.style == Hive {
			v = escapeHive(name) + "=" + v
		}
		segs = append(segs, v)
	}
	return path.Join(segs...), nil
}

// put writes rec to the current file of dir, starting new files at the
// row limit.
func (w *writer) put(dir string, rec *alkaid.Record) error {
	d := w.dirs[dir]
	if d == nil {
		d = &dirState{dir: dir}
		w.dirs[dir] = d
		w.order = append(w.order, d)
	}
	for rec.NumRows() > 0 {
		if d.cur == nil {
			if err := w.start(d); err != nil {
				return err
			}
		}
		n := rec.NumRows()
		if w.cfg.maxRows > 0 {
			n = min(n, w.cfg.maxRows-d.cur.rows)
		}
		if err := d.cur.w.Write(rec.Slice(0, n)); err != nil {
			return fileErr(d.cur.final, err)
		}
		d.cur.rows += n
		rec = rec.Slice(n, rec.NumRows())
		if w.cfg.maxRows > 0 && d.cur.rows == w.cfg.maxRows {
			if err := w.finish(d); err != nil {
				return err
			}
		}
	}
	return nil
}

// start opens the next file of d under its temporary name.
func (w *writer) start(d *dirState) error {
	name := strings.ReplaceAll(w.cfg.template, "{i}", strconv.Itoa(d.count))
	d.count++
	p := &part{final: path.Join(d.dir, name), tmp: path.Join(d.dir, "."+name+"."+w.token+".tmp")}
	out, err := w.dst.Create(p.tmp)
	if err != nil {
		return fileErr(p.tmp, err)
	}
	p.out = out
	d.cur = p
	if p.w, err = w.cfg.newWriter(out, w.schema); err != nil {
		return fileErr(p.final, err)
	}
	return nil
}

// finish completes the current file of d.
func (w *writer) finish(d *dirState) error {
	p := d.cur
	if p == nil {
		return nil
	}
	d.cur = nil
	err := p.w.Close()
	if cerr := p.out.Close(); err == nil {
		err = cerr
	}
	p.out = nil
	w.done = append(w.done, p)
	return fileErr(p.final, err)
}

// abort closes and removes every temporary file.
func (w *writer) abort() {
	for _, d := range w.order {
		if p := d.cur; p != nil {
			p.out.Close()
			w.done = append(w.done, p)
		}
	}
	for _, p := range w.done {
		w.dst.Remove(p.tmp)
	}
}

// commit deletes the data ExistingDeleteMatching replaces, then renames
// the complete files into place.
func (w *writer) commit() ([]string, error) {
	if w.cfg.existing == ExistingDeleteMatching {
		for _, d := range w.order {
			old, err := existingFiles(w.dst, d.dir)
			if err != nil {
				w.abort()
				return nil, fileErr(d.dir, err)
			}
			for _, name := range old {
				if strings.HasSuffix(name, "."+w.token+".tmp") {
					continue
				}
				if err := w.dst.Remove(name); err != nil {
					w.abort()
					return nil, fileErr(name, err)
				}
			}
		}
	}
	var written []string
	for k, p := range w.done {
		if err := w.dst.Rename(p.tmp, p.final); err != nil {
			w.done = w.done[k:]
			w.abort()
			return written, fileErr(p.final, err)
		}
		written = append(written, p.final)
	}
	return written, nil
}

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
