package files

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
)

// NewWriter returns a writer of records of schema to w in the format
// WithFormat names (required: w has no name to tell it by). Closing the
// writer finishes the format (footer, end-of-stream marker) but does not
// close w.
func NewWriter(w io.Writer, schema *alkaid.Schema, opts ...Option) (alkaid.RecordWriter, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if cfg.format == FormatAuto {
		return nil, fmt.Errorf("files: NewWriter: %w: no format; name one with WithFormat", datatype.ErrInvalid)
	}
	return newWriter(w, schema, "", cfg)
}

// newWriter makes the writer of cfg's format; name, when not "", is the
// file's name (a .tsv file is written with tabs).
func newWriter(w io.Writer, schema *alkaid.Schema, name string, cfg *config) (alkaid.RecordWriter, error) {
	if schema == nil {
		return nil, fmt.Errorf("files: %w: nil schema", datatype.ErrInvalid)
	}
	switch cfg.format {
	case FormatParquet:
		return asWriter(parquet.NewWriter(w, schema, cfg.parquet...))
	case FormatIPCFile:
		return asWriter(ipc.NewFileWriter(w, schema, cfg.ipc...))
	case FormatIPCStream:
		return asWriter(ipc.NewStreamWriter(w, schema, cfg.ipc...))
	case FormatCSV:
		opts := cfg.csv
		if isTSV(name) {
			opts = append([]csv.Option{csv.WithDelimiter('\t')}, opts...)
		}
		return asWriter(csv.NewWriter(w, schema, opts...))
	default: // FormatNDJSON
		return asWriter(ndjson.NewWriter(w, schema, cfg.ndjson...))
	}
}

// asWriter returns a writer constructor's result, with a nil interface
// (not a nil pointer in it) after an error.
func asWriter[W alkaid.RecordWriter](w W, err error) (alkaid.RecordWriter, error) {
	if err != nil {
		return nil, err
	}
	return w, nil
}

// Writer writes a file Create made: under a temporary name beside it,
// renamed into place by Close once complete, so that a file already at
// the path is replaced only by a complete one.
type Writer struct {
	path string // where the file goes
	tmp  *os.File
	buf  *bufio.Writer
	w    alkaid.RecordWriter
	err  error // the first write error: Close then discards the file
	done bool
}

// Create returns a writer of records of schema to a new file at path, in
// the format WithFormat names or, without it, the one of path's extension
// (.parquet; .arrow, .ipc, .feather an IPC file; .arrows, .ipcs an IPC
// stream; .csv, .tsv; .json, .jsonl, .ndjson). The records go to a
// temporary file in path's directory, which Close renames to path; a
// symbolic link at path is followed, and the new file takes the mode of
// the file it replaces, else 0644.
func Create(path string, schema *alkaid.Schema, opts ...Option) (*Writer, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if cfg.format == FormatAuto {
		if cfg.format, err = FormatOf(path); err != nil {
			return nil, err
		}
	}
	final := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		final = resolved
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(final); err == nil {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("files: %s: %w: not a regular file", path, datatype.ErrInvalid)
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("files: %w", err)
	}
	fw := &Writer{path: final, tmp: tmp, buf: bufio.NewWriterSize(tmp, 1<<20)}
	if err := tmp.Chmod(mode); err != nil {
		fw.Abort()
		return nil, fmt.Errorf("files: %w", err)
	}
	if fw.w, err = newWriter(fw.buf, schema, path, cfg); err != nil {
		fw.Abort()
		return nil, fmt.Errorf("files: create %s: %w", path, err)
	}
	return fw, nil
}

// Write writes one record batch. After an error the writer is spent:
// Close discards the file.
func (w *Writer) Write(rec *alkaid.Record) error {
	if w.done {
		return fmt.Errorf("files: %s: %w: write after Close", w.path, datatype.ErrInvalid)
	}
	if w.err != nil {
		return w.err
	}
	if err := w.w.Write(rec); err != nil {
		w.err = fmt.Errorf("%s: %w", w.path, err)
		return w.err
	}
	return nil
}

// Close finishes the file, syncs it and renames it into place. After a
// write error, or when finishing fails, it removes the temporary file,
// leaves path as it was and returns the error. Calling it again does
// nothing.
func (w *Writer) Close() error {
	if w.done {
		return nil
	}
	if w.err != nil {
		w.Abort()
		return w.err
	}
	err := w.w.Close()
	if err == nil {
		err = w.buf.Flush()
	}
	if err == nil {
		err = w.tmp.Sync()
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.tmp.Name(), w.path)
	}
	w.done = true
	if err != nil {
		os.Remove(w.tmp.Name())
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return nil
}

// Abort gives the file up: the temporary file is removed and path left as
// it was. It is how a caller whose input failed part way stops without
// replacing path by what was written so far. After Close it does nothing.
func (w *Writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.tmp.Close()
	if err := os.Remove(w.tmp.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("files: %w", err)
	}
	return nil
}
