package dataset

import (
	"io"
	"iter"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

// counter is a nil-safe atomic count.
type counter struct{ atomic.Int64 }

func (c *counter) add(n int64) {
	if c != nil {
		c.Add(n)
	}
}

// fileReader is one open file of a dataset: its schema and, for Parquet,
// the File whose row groups are read one by one; for the other formats a
// function that reads the whole file once.
type fileReader struct {
	schema *alkaid.Schema
	pq     *parquet.File
	all    func() iter.Seq2[*alkaid.Record, error]
	// rows, for an IPC file, reads the row count of each record batch
	// from its message's metadata, without reading the batches' bodies.
	rows func() ([]int64, error)
}

// openReader reads the metadata of src, of size bytes, through ra,
// counting the bytes read in n (which may be nil).
func (d *Dataset) openReader(src *source, ra io.ReaderAt, size int64, n *counter) (*fileReader, error) {
	ra = countingReaderAt{r: ra, n: n}
	switch src.format {
	case files.FormatParquet:
		f, err := parquet.NewFile(ra, size, d.cfg.pq...)
		if err != nil {
			return nil, err
		}
		return &fileReader{schema: f.Schema(), pq: f}, nil
	case files.FormatIPCFile:
		f, err := ipc.NewFileReader(ra, size, d.cfg.ipc...)
		if err != nil {
			return nil, err
		}
		rows := func() ([]int64, error) {
			out := make([]int64, f.NumRecords())
			for i := range out {
				var err error
				if out[i], err = f.NumRows(i); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		return &fileReader{schema: f.Schema(), all: f.Records, rows: rows}, nil
	default: // an IPC stream, CSV, NDJSON: read once, front to back
		r, err := files.OpenReaderAt(ra, size, src.path, files.WithFormat(src.format),
			files.WithIPCOptions(d.cfg.ipc...), files.WithCSVOptions(d.cfg.csv...), files.WithNDJSONOptions(d.cfg.ndjson...))
		if err != nil {
			return nil, err
		}
		return &fileReader{schema: r.Schema(), all: r.Records}, nil
	}
}
