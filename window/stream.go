package window

import (
	"fmt"
	"iter"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// streams reports whether the calls can run batch by batch: the window
// is the input in its order, and no call looks ahead.
func (b *bound) streams() bool {
	if len(b.spec.PartitionBy) > 0 || len(b.spec.OrderBy) > 0 {
		return false
	}
	for _, c := range b.calls {
		if c.Func == FillBackward {
			return false
		}
	}
	return true
}

// appendColumns is rec with the columns cols at its end.
func (b *bound) appendColumns(rec *alkaid.Record, cols []array.Array) (*alkaid.Record, error) {
	return alkaid.NewRecord(b.out, append(rec.Columns(), cols...), rec.NumRows())
}

// stream computes the calls batch by batch, each carrying its state to
// the next batch.
func (b *bound) stream(r alkaid.RecordReader) iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		states := make([]carry, len(b.calls))
		base := 0
		for rec, err := range r.Records() {
			if err != nil {
				yield(nil, err)
				return
			}
			n := rec.NumRows()
			order := make([]int64, n)
			for i := range order {
				order[i] = int64(i)
			}
			cols := make([]array.Array, len(b.calls))
			for k, c := range b.calls {
				st := &states[k]
				st.base = base
				var col array.Array
				if c.Func >= CumSum {
					col, _ = rec.ColumnByName(c.Column)
				}
				switch c.Func {
				case RowNumber, Rank, DenseRank:
					cols[k] = streamRanks(c.Func, n, base)
				case FillForward:
					cols[k], err = fillForward(col, st)
				default:
					cols[k], err = cumulative(c.Func, col, order, nil, st)
				}
				if err != nil {
					yield(nil, err)
					return
				}
			}
			out, err := b.appendColumns(rec, cols)
			if !yield(out, err) || err != nil {
				return
			}
			base += n
		}
	}
}

// streamRanks is a ranking function over n rows of a window without
// partitions or order, from row base: every row a peer of every other.
func streamRanks(f Func, n, base int) array.Array {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
		if f == RowNumber {
			out[i] = int64(base + i + 1)
		}
	}
	bld := array.NewPrimitiveBuilder[int64](datatype.Int64)
	bld.AppendValues(out, nil)
	return bld.NewArray()
}

// fillForward fills col's nulls from the last valid value before them,
// in col or, held in st.acc, in an earlier batch.
func fillForward(col array.Array, st *carry) (array.Array, error) {
	src, from := col, 0 // src is col after the carried value, from its index
	last := int64(-1)
	if prev, ok := st.acc.(array.Array); ok {
		joined, err := array.Concatenate(prev, col)
		if err != nil {
			return nil, fmt.Errorf("window: fill of %s: %w", col.DataType(), err)
		}
		src, from, last = joined, 1, 0
	}
	n := col.Len()
	idx := make([]int64, n)
	valid := make([]bool, n)
	for i := range n {
		if col.IsValid(i) {
			last = int64(from + i)
		}
		if last >= 0 {
			idx[i], valid[i] = last, true
		}
	}
	if last >= int64(from) {
		st.acc = array.Slice(col, int(last)-from, int(last)-from+1)
	}
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.AppendValues(idx, valid)
	out, err := compute.Take(src, b.NewArray())
	if err != nil {
		return nil, fmt.Errorf("window: fill of %s: %w", col.DataType(), err)
	}
	return out, nil
}

// whole reads all of r, computes the calls over its rows as one record
// and yields r's batches with their slices of the results.
func (b *bound) whole(r alkaid.RecordReader) iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		var recs []*alkaid.Record
		for rec, err := range r.Records() {
			if err != nil {
				yield(nil, err)
				return
			}
			recs = append(recs, rec)
		}
		if len(recs) == 0 {
			return
		}
		all, err := b.readColumns(r.Schema(), recs)
		if err != nil {
			yield(nil, err)
			return
		}
		results, err := evalRecord(all, b.spec, b.calls)
		if err != nil {
			yield(nil, err)
			return
		}
		off := 0
		for _, rec := range recs {
			n := rec.NumRows()
			cols := make([]array.Array, len(results))
			for k, a := range results {
				cols[k] = array.Slice(a, off, off+n)
			}
			out, err := b.appendColumns(rec, cols)
			if !yield(out, err) || err != nil {
				return
			}
			off += n
		}
	}
}

// readColumns is one record of the columns b reads, every batch of recs
// concatenated.
func (b *bound) readColumns(in *alkaid.Schema, recs []*alkaid.Record) (*alkaid.Record, error) {
	fields := make([]datatype.Field, len(b.read))
	for k, i := range b.read {
		fields[k] = in.Field(i)
	}
	schema := alkaid.NewSchema(fields, datatype.Metadata{})
	parts := make([]*alkaid.Record, len(recs))
	for j, rec := range recs {
		cols := make([]array.Array, len(b.read))
		for k, i := range b.read {
			cols[k] = rec.Column(i)
		}
		p, err := alkaid.NewRecord(schema, cols, rec.NumRows())
		if err != nil {
			return nil, fmt.Errorf("window: record batch %d: %w", j, err)
		}
		parts[j] = p
	}
	all, err := alkaid.ConcatRecords(parts...)
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	return all, nil
}
