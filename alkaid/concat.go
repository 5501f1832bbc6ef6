package alkaid

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// ConcatRecords returns one record batch holding the rows of recs in
// order, column by column as [array.Concatenate] joins arrays (fresh
// buffers; dictionaries that differ are unified into one). The records
// must have equal schemas; the result has the first one's. A single
// record is returned as it is. An error (no records, a schema that
// differs, a column whose values do not fit its type once joined) wraps
// datatype.ErrInvalid and names the record or column.
func ConcatRecords(recs ...*Record) (*Record, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("alkaid: concat records: %w: no records", datatype.ErrInvalid)
	}
	s := recs[0].Schema()
	rows := 0
	for i, r := range recs {
		if r == nil {
			return nil, fmt.Errorf("alkaid: concat records: %w: record %d is nil", datatype.ErrInvalid, i)
		}
		if !r.Schema().Equal(s) {
			return nil, fmt.Errorf("alkaid: concat records: %w: record %d's schema differs from record 0's", datatype.ErrInvalid, i)
		}
		rows += r.NumRows()
	}
	if len(recs) == 1 {
		return recs[0], nil
	}
	cols := make([]array.Array, s.NumFields())
	parts := make([]array.Array, len(recs))
	for c := range cols {
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts...)
		if err != nil {
			return nil, fmt.Errorf("alkaid: concat records: column %d (%s): %w", c, s.Field(c).Name, err)
		}
		cols[c] = a
	}
	return NewRecord(s, cols, rows)
}
