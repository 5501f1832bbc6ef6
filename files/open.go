package files

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
)

// Open opens the file at path in the format Detect finds (or WithFormat
// names) and returns a reader of its record batches. The file is read
// with ReadAt, not mapped, so that reading a big file batch after batch
// keeps memory bounded. Its errors, opening and reading, name the file
// first ("data.parquet: parquet: …"). Closing the reader closes the file.
func Open(path string, opts ...Option) (alkaid.RecordReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("files: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("files: %w", err)
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("files: %s: %w: is a directory", path, datatype.ErrInvalid)
	}
	format, cfg, err := prepare(f, st.Size(), path, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	r, err := openFormat(f, st.Size(), path, format, cfg)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &fileReader{RecordReader: r, f: f, path: path}, nil
}

// fileReader is a reader of a file Open opened: its errors name the
// file, and closing it closes the file.
type fileReader struct {
	alkaid.RecordReader
	f      *os.File
	path   string
	closed bool
}

func (r *fileReader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for rec, err := range r.RecordReader.Records() {
			if err != nil {
				err = fmt.Errorf("%s: %w", r.path, err)
			}
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

func (r *fileReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.RecordReader.Close()
	if ferr := r.f.Close(); err == nil {
		err = ferr
	}
	return err
}

// OpenReaderAt returns a reader of the record batches of a file of size
// bytes read through ra, in the format Detect finds (name, the file's
// name, tells CSV and NDJSON apart) or WithFormat names. Closing the
// reader does not close ra. Where a format's reader is already a
// RecordReader it is returned as it is (an IPC file gives an
// *ipc.FileReader, whose random access a caller may use).
//
// Errors of a format's reader are returned as they are (they name the
// format, e.g. "parquet: …", not the file); name only tells the format
// (CSV from NDJSON, and a .tsv file's tabs).
func OpenReaderAt(ra io.ReaderAt, size int64, name string, opts ...Option) (alkaid.RecordReader, error) {
	format, cfg, err := prepare(ra, size, name, opts)
	if err != nil {
		return nil, err
	}
	return openFormat(ra, size, name, format, cfg)
}

// prepare checks opts for reading and picks the format.
func prepare(ra io.ReaderAt, size int64, name string, opts []Option) (Format, *config, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return FormatAuto, nil, err
	}
	format := cfg.format
	if format == FormatAuto {
		if format, err = Detect(ra, size, name); err != nil {
			return FormatAuto, nil, err
		}
	}
	return format, cfg, nil
}

// openFormat opens the reader of format.
func openFormat(ra io.ReaderAt, size int64, name string, format Format, cfg *config) (alkaid.RecordReader, error) {
	switch format {
	case FormatParquet:
		return asReader(parquet.NewFile(ra, size, cfg.parquet...))
	case FormatIPCFile:
		return asReader(ipc.NewFileReader(ra, size, cfg.ipc...))
	case FormatIPCStream:
		return asReader(ipc.NewStreamReader(sequential(ra, size), cfg.ipc...))
	case FormatCSV:
		return openCSV(ra, size, name, cfg)
	default: // FormatNDJSON
		return openNDJSON(ra, size, cfg)
	}
}

// sequential reads the file from its start, buffered.
func sequential(ra io.ReaderAt, size int64) io.Reader {
	return bufio.NewReaderSize(io.NewSectionReader(ra, 0, size), 64<<10)
}

func openCSV(ra io.ReaderAt, size int64, name string, cfg *config) (alkaid.RecordReader, error) {
	opts := cfg.csv
	if isTSV(name) {
		opts = append([]csv.Option{csv.WithDelimiter('\t')}, opts...)
	}
	return asReader(csv.NewReader(sequential(ra, size), opts...))
}

func openNDJSON(ra io.ReaderAt, size int64, cfg *config) (alkaid.RecordReader, error) {
	return asReader(ndjson.NewReader(sequential(ra, size), cfg.ndjson...))
}

// asReader returns a reader constructor's result, with a nil interface
// (not a nil pointer in it) after an error.
func asReader[R alkaid.RecordReader](r R, err error) (alkaid.RecordReader, error) {
	if err != nil {
		return nil, err
	}
	return r, nil
}
