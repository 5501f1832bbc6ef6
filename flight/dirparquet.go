package flight

import (
	"io"
	"iter"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/parquet"
)

// openParquet makes src read the Parquet file f of size bytes: its
// schema, its row count from the footer, and its records one row group
// at a time, decoded when the client takes them (the parquet reader's
// default limits and validation apply). src.close stops the reading and
// closes f.
func openParquet(src *source, f io.ReaderAt, size int64) error {
	pf, err := parquet.NewFile(f, size)
	if err != nil {
		return err
	}
	src.schema, src.rows = pf.Schema(), pf.NumRows()
	next, stop := iter.Pull2(pf.Records())
	src.next = func() (*alkaid.Record, error) {
		rec, err, ok := next()
		if !ok {
			return nil, io.EOF
		}
		return rec, err
	}
	closeFile := src.close
	src.close = func() error {
		stop()
		return closeFile()
	}
	return nil
}
