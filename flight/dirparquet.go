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
// default limits and validation apply). Before a row group is decoded,
// what decoding it takes is charged to the service's memory budget, as
// the footer gives it (parquet.RowGroupInfo): its records (see
// rowGroupBytes) and the reader's working memory (the column chunks read
// whole, pages being decompressed). The working memory is given back
// once the row group is decoded, the records' bytes once they are sent.
// The row groups are read by index, not through a files reader, so that
// a row group is refused by its stated size before any of it is decoded.
func (s *DirService) openParquet(src *source, name string, f io.ReaderAt, size int64) error {
	pf, err := parquet.NewFile(f, size)
	if err != nil {
		return err
	}
	src.schema, src.rows = pf.Schema(), pf.NumRows()
	src.batches = func(ctx context.Context, held *int64) iter.Seq2[batch, error] {
		return func(yield func(batch, error) bool) {
			for g := range pf.NumRowGroups() {
				info := pf.RowGroup(g)
				n := rowGroupBytes(src.schema, info)
				if err := s.reserve(ctx, name, fmt.Sprintf("row group %d", g), n, info.Working, *held); err != nil {
					yield(batch{}, err)
					return
				}
				// The group is read whole before its first batch is
				// sent: no reading goes on while a slow client holds
				// the call.
				recs, err := readRowGroup(pf, g)
				s.mem.give(info.Working)
				if err != nil {
					s.mem.give(n)
					yield(batch{}, err)
					return
				}
				if len(recs) == 0 {
					s.mem.give(n)
					continue
				}
				// The last batch of the group carries what it took:
				// recs holds every batch of the group until then.
				for j, rec := range recs {
					b := batch{rec: rec}
					if j == len(recs)-1 {
						b.n = n
					}
					if !yield(b, nil) {
						if b.n == 0 {
							s.mem.give(n) // not handed over
						}
						return
					}
				}
			}
		}
	}
	return nil
}

// rowGroupBytes estimates the memory of a row group's records from the
// footer: its rows times the bytes a row takes at least (see batchBytes),
// or the uncompressed size of its column chunks if larger.
func rowGroupBytes(schema *alkaid.Schema, info parquet.RowGroupInfo) int64 {
	return max(batchBytes(schema, info.Rows), info.Uncompressed)
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
