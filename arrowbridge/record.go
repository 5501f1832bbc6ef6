package arrowbridge

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
)

// ToArrowRecord returns an arrow-go record batch sharing rec's buffers
// (see [ToArrow]); the caller owns one reference to it.
func ToArrowRecord(rec *alkaid.Record) (arrow.RecordBatch, error) {
	schema, err := ToArrowSchema(rec.Schema())
	if err != nil {
		return nil, err
	}
	cols := make([]arrow.Array, rec.NumCols())
	for i := range cols {
		d := toArrowData(rec.Column(i).Data(), schema.Field(i).Type)
		cols[i] = aarray.MakeFromData(d)
		d.Release()
	}
	out := aarray.NewRecordBatch(schema, cols, int64(rec.NumRows()))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// FromArrowRecord returns an Alkaid record sharing rec's buffers. It
// takes one reference to rec, given back when the garbage collector finds
// no Alkaid array over its buffers (see [FromArrow]).
func FromArrowRecord(rec arrow.RecordBatch) (*alkaid.Record, error) {
	schema, err := FromArrowSchema(rec.Schema())
	if err != nil {
		return nil, err
	}
	owner := retain(rec)
	cols := make([]array.Array, rec.NumCols())
	for i := range cols {
		d, err := fromArrowData(rec.Column(i).Data(), schema.Field(i).Type, owner, 0)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", schema.Field(i).Name, err)
		}
		if cols[i], err = array.Make(d); err != nil {
			return nil, fmt.Errorf("arrowbridge: column %q: %w", schema.Field(i).Name, err)
		}
	}
	out, err := alkaid.NewRecord(schema, cols, int(rec.NumRows()))
	if err != nil {
		return nil, fmt.Errorf("arrowbridge: %w", err)
	}
	return out, nil
}
