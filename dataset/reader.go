package dataset

import (
	"io"
	"iter"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
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

// openReader reads the metadata of src through ra, counting the bytes read
// in n (which may be nil).
func (d *Dataset) openReader(src *source, ra io.ReaderAt, n *counter) (*fileReader, error) {
	ra = countingReaderAt{r: ra, n: n}
	seq := func() io.Reader { return io.NewSectionReader(ra, 0, src.size) }
	switch src.format {
	case FormatParquet:
		f, err := parquet.NewFile(ra, src.size, d.cfg.pq...)
		if err != nil {
			return nil, err
		}
		return &fileReader{schema: f.Schema(), pq: f}, nil
	case FormatIPCFile:
		f, err := ipc.NewFileReader(ra, src.size, d.cfg.ipc...)
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
	case FormatIPCStream:
		r, err := ipc.NewStreamReader(seq(), d.cfg.ipc...)
		if err != nil {
			return nil, err
		}
		return &fileReader{schema: r.Schema(), all: r.Records}, nil
	case FormatCSV:
		r, err := csv.NewReader(seq(), d.cfg.csv...)
		if err != nil {
			return nil, err
		}
		return &fileReader{schema: r.Schema(), all: r.Records}, nil
	default: // FormatNDJSON
		r, err := ndjson.NewReader(seq(), d.cfg.ndjson...)
		if err != nil {
			return nil, err
		}
		return &fileReader{schema: r.Schema(), all: r.Records}, nil
	}
}
