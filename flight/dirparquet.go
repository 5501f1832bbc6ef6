package flight

import (
	"context"
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/parquet"
)

// openParquet makes src read the Parquet file f of size bytes: its
// schema, its row count from the footer, and its records one row group
// at a time, each decoded when the client takes it (the parquet reader's
// default limits and validation apply) once its estimated size is taken
// from the service's memory budget.
func (s *DirService) openParquet(src *source, name string, f io.ReaderAt, size int64) error {
	pf, err := parquet.NewFile(f, size)
	if err != nil {
		return err
	}
	src.schema, src.rows = pf.Schema(), pf.NumRows()
	g := 0
	var pending []*alkaid.Record // records of the row group read last
	src.next = func(ctx context.Context) (batch, error) {
		for len(pending) == 0 {
			if g >= pf.NumRowGroups() {
				return batch{}, io.EOF
			}
			info := pf.RowGroup(g)
			n := max(batchBytes(src.schema, info.Rows), info.Bytes)
			if err := s.reserve(ctx, name, fmt.Sprintf("row group %d", g), n); err != nil {
				return batch{}, err
			}
			recs, err := readRowGroup(pf, g)
			g++
			if err != nil || len(recs) == 0 {
				s.mem.give(n)
				if err != nil {
					return batch{}, err
				}
				continue
			}
			pending = recs
			rec := pending[0]
			pending = pending[1:]
			return batch{rec: rec, n: n}, nil
		}
		rec := pending[0]
		pending = pending[1:]
		return batch{rec: rec}, nil
	}
	return nil
}

// readRowGroup reads row group g of pf.
func readRowGroup(pf *parquet.File, g int) ([]*alkaid.Record, error) {
	sel, err := pf.Select(parquet.WithRowGroups(g))
	if err != nil {
		return nil, err
	}
	var recs []*alkaid.Record
	for rec, err := range sel.Records() {
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}
