package dataset

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/parquet"
)

// open opens src for the scan; a nil handle and error means the file's
// schema rules it out (see columnsMatch).
func (s *Scan) open(src *source) (*handle, error) {
	f, size, err := openFile(s.d.fsys, src.path)
	if err != nil {
		return nil, err
	}
	s.stats.filesRead.add(1)
	r, err := s.d.openReader(src, f, size, &s.stats.bytes)
	if err != nil {
		f.Close()
		return nil, err
	}
	// The file's filter, simplified once here for the file's schema, also
	// serves rowGroupMayMatch and the binds of bindFilterTo (h.where).
	var where *expr.Expr
	if s.filter != nil {
		if where = s.fileFilter(src, r.schema); ruledOut(where) {
			f.Close()
			return nil, nil
		}
	}
	h := &handle{src: src, f: f, r: r}
	h.refs.Store(1)
	for k, i := range s.need {
		name := s.d.schema.Field(i).Name
		if j := r.schema.FieldIndex(name); !s.d.isPartition(i) && j >= 0 {
			h.readCols = append(h.readCols, name)
			if k < len(s.out) && !slices.Contains(h.outCols, name) {
				h.outCols = append(h.outCols, name)
			}
		}
	}
	if h.outCols == nil {
		h.outCols = []string{}
	}
	if where != nil && r.pq != nil {
		h.where = where
		h.preds = s.parquetPredicates(where, r.schema)
	}
	return h, nil
}

// countable reports whether the scan reads src's row counts only (it
// needs no column of the files) and discovery has them (see groupRows).
func (s *Scan) countable(src *source) bool {
	if src.groupRows == nil {
		return false
	}
	for _, i := range s.need {
		if !s.d.isPartition(i) {
			return false
		}
	}
	return true
}

// readUnit reads unit u and emits its records, until emit returns false.
// It calls ready, which may wait for a decoding slot, before decoding
// (a Parquet row group's chunks asked for first); false from it stops
// the read.
func (s *Scan) readUnit(ctx context.Context, u unit, ready func() bool, emit func(*alkaid.Record) bool) error {
	h := u.h
	var recs iter.Seq2[*alkaid.Record, error]
	// got: the files' readers returned rows (before the filter);
	// filtered: the Parquet reader applies the filter.
	got, filtered := false, false
	var pq *parquet.File
	if h.r != nil {
		pq = h.r.pq
	}
	noColumns := h.r != nil && len(h.readCols) == 0 && len(h.preds) == 0
	switch {
	case h.r == nil || (pq != nil && noColumns):
		// No column to decode: the row count is in the footer (read
		// now, or by discovery for a file not opened).
		var rows int64
		if h.r == nil {
			rows = h.src.groupRows[u.rowGroup]
		} else {
			rows = pq.RowGroup(u.rowGroup).Rows
		}
		if !ready() {
			return nil
		}
		return s.emitCount(ctx, h, []int64{rows}, emit)
	case h.r.rows != nil && noColumns:
		// An IPC file: the row counts are in the batches' metadata.
		rows, err := h.r.rows()
		if err != nil {
			return err
		}
		if !ready() {
			return nil
		}
		return s.emitCount(ctx, h, rows, emit)
	case pq != nil:
		if h.where != nil && !s.rowGroupMayMatch(h, u.rowGroup) {
			s.stats.rowGroupsPruned.add(1)
			return nil
		}
		// Units run in parallel, one goroutine decoding each, unless
		// the scan has just this one (see runInline).
		opts := []parquet.Option{parquet.WithRowGroups(u.rowGroup), parquet.WithColumns(h.readCols...), parquet.WithConcurrency(max(1, u.decoders))}
		if len(h.preds) > 0 {
			var rs parquet.ReadStats
			defer func() { s.stats.pagesPruned.add(rs.PagesPruned) }()
			opts = append(opts, parquet.WithPredicates(h.preds...), parquet.WithReadStats(&rs))
		}
		if s.cfg.batchSize > 0 {
			opts = append(opts, parquet.WithBatchSize(s.cfg.batchSize))
		}
		if cols := s.rowFilterColumns(h); cols != nil {
			// The reader filters the rows: the other columns are cut to
			// the kept rows before their values are made.
			// The filter's columns no output needs are read for it
			// alone.
			filtered = true
			opts = append(opts, parquet.WithColumns(h.outCols...), parquet.WithRowFilter(cols, func(rec *alkaid.Record) (*array.Boolean, error) {
				s.stats.rowsRead.add(int64(rec.NumRows()))
				got = got || rec.NumRows() > 0
				return s.keepRows(h, rec)
			}))
		}
		sel, err := pq.Select(opts...)
		if err != nil {
			return err
		}
		// Its chunks are asked for, and arrive, before the unit takes
		// a decoding slot: a slot is not held waiting for the network.
		sel.Prefetch(u.rowGroup)()
		recs = sel.Records()
	default:
		recs = h.r.all()
	}
	if !ready() {
		return nil
	}
	for rec, err := range recs {
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		if !filtered {
			s.stats.rowsRead.add(int64(rec.NumRows()))
			got = got || rec.NumRows() > 0
		}
		step := rec.NumRows()
		if pq == nil && s.cfg.batchSize > 0 {
			step = s.cfg.batchSize
		}
		for at := 0; at < rec.NumRows(); at += step {
			part := rec
			if step < rec.NumRows() {
				part = rec.Slice(at, min(at+step, rec.NumRows()))
			}
			out, err := s.conform(h, part, filtered)
			if err != nil {
				return err
			}
			if out.NumRows() > 0 && !emit(out) {
				return nil
			}
		}
	}
	if pq != nil && len(h.preds) > 0 && !got {
		s.stats.rowGroupsPruned.add(1)
	}
	return nil
}

// emitCount emits records of no column holding the rows of each count,
// cut to the batch size.
func (s *Scan) emitCount(ctx context.Context, h *handle, counts []int64, emit func(*alkaid.Record) bool) error {
	empty := alkaid.NewSchema(nil, datatype.Metadata{})
	for _, rows := range counts {
		s.stats.rowsRead.add(rows)
		step := rows
		if s.cfg.batchSize > 0 {
			step = int64(s.cfg.batchSize)
		}
		for at := int64(0); at < rows && ctx.Err() == nil; at += step {
			rec, err := alkaid.NewRecord(empty, nil, int(min(step, rows-at)))
			if err != nil {
				return err
			}
			if out, err := s.conform(h, rec, false); err != nil || !emit(out) {
				return err
			}
		}
	}
	return nil
}

// conform turns a record read from h's file into one of the scan's
// schema: columns converted to the dataset's types, missing ones null,
// the filter applied (unless the reader did: filtered), then partition
// columns filled in (at the length that passed the filter).
func (s *Scan) conform(h *handle, rec *alkaid.Record, filtered bool) (*alkaid.Record, error) {
	rows := rec.NumRows()
	cols := make([]array.Array, len(s.need))
	for k, i := range s.need {
		if s.d.isPartition(i) || filtered && k >= len(s.out) {
			continue // a filter's column the reader has applied
		}
		var err error
		if cols[k], err = s.column(rec, i); err != nil {
			return nil, err
		}
	}
	var keep *array.Boolean
	if !filtered {
		var err error
		if keep, err = s.fileMask(h, cols, rows); err != nil {
			return nil, err
		}
	}
	var err error
	outCols := slices.Clone(cols[:len(s.out)])
	if keep != nil {
		if rows, err = filterColumns(outCols, keep, func(k int) bool { return !s.d.isPartition(s.out[k]) }); err != nil {
			return nil, err
		}
	}
	for k, i := range s.out {
		if s.d.isPartition(i) {
			if outCols[k], err = h.constant(i, s.d.partition(h.src, i), rows, s.d.partDict); err != nil {
				return nil, err
			}
		}
	}
	for k, path := range s.paths {
		if len(path) > 0 {
			if outCols[k], err = nested(outCols[k], path); err != nil {
				return nil, err
			}
		}
	}
	return alkaid.NewRecord(s.schema, outCols, rows)
}

// column is dataset field i of a record read from a file: its column
// converted to the dataset's type, or nulls where the file lacks it.
func (s *Scan) column(rec *alkaid.Record, i int) (array.Array, error) {
	f := s.d.schema.Field(i)
	j := rec.Schema().FieldIndex(f.Name)
	if j < 0 {
		b, err := array.TryNewBuilder(f.Type)
		if err != nil {
			return nil, err
		}
		b.AppendNulls(rec.NumRows())
		return b.NewArray(), nil
	}
	c := rec.Column(j)
	if !datatype.Equal(c.DataType(), f.Type) {
		return compute.Cast(c, f.Type)
	}
	return c, nil
}

// filterColumns replaces each column cols[k] for which sel(k) holds by
// its rows where keep is true, and returns the number of those rows.
func filterColumns(cols []array.Array, keep *array.Boolean, sel func(k int) bool) (int, error) {
	var fields []datatype.Field
	var in []array.Array
	var at []int
	for k, c := range cols {
		if sel(k) {
			fields = append(fields, datatype.Field{Name: strconv.Itoa(k), Type: c.DataType(), Nullable: true})
			in = append(in, c)
			at = append(at, k)
		}
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), in, keep.Len())
	if err != nil {
		return 0, err
	}
	if rec, err = compute.FilterRecord(rec, keep); err != nil {
		return 0, err
	}
	for n, k := range at {
		cols[k] = rec.Column(n)
	}
	return rec.NumRows(), nil
}

// nested is the field of a at path (struct child indices), null where an
// enclosing struct is null.
func nested(a array.Array, path []int) (array.Array, error) {
	for _, j := range path {
		st, ok := a.(*array.Struct)
		if !ok {
			return nil, fmt.Errorf("dataset: %w: %s is not a struct", ErrInvalid, a.DataType())
		}
		child := st.Field(j)
		if st.NullN() > 0 {
			idx := array.NewPrimitiveBuilder[int64](datatype.Int64)
			for i := range st.Len() {
				if st.IsNull(i) {
					idx.AppendNull()
				} else {
					idx.Append(int64(i))
				}
			}
			var err error
			if child, err = compute.Take(child, idx.Finish()); err != nil {
				return nil, err
			}
		}
		a = child
	}
	return a, nil
}

func indexOf(xs []int, x int) int {
	for k, y := range xs {
		if y == x {
			return k
		}
	}
	return -1
}
