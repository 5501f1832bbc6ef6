package flight

import (
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/parquet"
)

// openParquet makes src read the Parquet file f of size bytes: its
// schema, its row count from the footer, and its records one row group
// at a time, each decoded when the client takes it (the parquet reader's
// default limits and validation apply) once its estimated size is taken
// from the service's memory budget. The row groups are read by index,
// not through a files reader, so that a row group is refused by its
// stated size before any of it is decoded.
func (s *DirService) openParquet(src *source, name string, f io.ReaderAt, size int64) error {
	pf, err := parquet.NewFile(f, size)
	if err != nil {
		return err
	}
	src.schema, src.rows = pf.Schema(), pf.NumRows()
	src.batches = func(ctx context.Context) iter.Seq2[batch, error] {
		return func(yield func(batch, error) bool) {
			for g := range pf.NumRowGroups() {
				info := pf.RowGroup(g)
				n := max(batchBytes(src.schema, info.Rows), info.Bytes)
				if err := s.reserve(ctx, name, fmt.Sprintf("row group %d", g), n); err != nil {
					yield(batch{}, err)
					return
				}
				// The group is read whole before its first batch is
				// sent: no reading goes on while a slow client holds
				// the call.
				recs, err := readRowGroup(pf, g)
				if err != nil {
					s.mem.give(n)
					yield(batch{}, err)
					return
				}
				if len(recs) == 0 {
					s.mem.give(n)
					continue
				}
				// The first batch of the group carries what it took.
				for j, rec := range recs {
					b := batch{rec: rec}
					if j == 0 {
						b.n = n
					}
					if !yield(b, nil) {
						return
					}
				}
			}
		}
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
