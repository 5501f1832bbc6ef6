package dataset

import (
	"fmt"
	"math"
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/parquet"
)

// WithFilter keeps only the rows where e, a boolean expression of package
// expr over the dataset's columns (partition columns included), is true;
// given more than once, the rows where every one is. Each file's filter
// is first simplified with the file's partition values (expr.Simplify):
// a file for which it cannot be true (it becomes FALSE, NULL or NULL AND
// x, say) is not opened. A file
// lacking a filtered column reads it as nulls, and the filter is
// simplified with that too. In Parquet files, the conditions of the
// filter's top-level AND that compare a column with a literal (=, <, >,
// <=, >= of integers, = < > of float64 and strings, BETWEEN, IS NULL)
// skip the row groups and pages that the statistics, bloom filters and
// page index rule out (parquet.WithPredicates), and the whole filter
// skips the row groups whose column statistics prove it false for every
// row (expr.MayMatch: OR, IN, NOT … too). The remaining rows are filtered exactly,
// by the expression: in Parquet files as they are read
// (parquet.WithRowFilter), the filter's columns decoded first and the
// others cut to the rows kept before their values are made. An unknown column or a filter that is not boolean
// is an error of Scan. For Scan/CountRows.
func WithFilter(e *expr.Expr) Option {
	return func(o *options) {
		o.use("WithFilter", forScan)
		switch {
		case e == nil:
			o.invalid("WithFilter", "nil expression")
		case o.scan.filter == nil:
			o.scan.filter = e
		default:
			o.scan.filter = expr.And(o.scan.filter, e)
		}
	}
}

// planFilter checks the scan's filter against the dataset's schema and
// adds the columns it reads to s.need.
func (s *Scan) planFilter() error {
	e := s.cfg.filter
	if e == nil {
		return nil
	}
	b, err := expr.Bind(e, s.d.schema)
	if err != nil {
		return fmt.Errorf("dataset: WithFilter: %w", err)
	}
	if b.Type().Kind() != datatype.KindBool {
		return fmt.Errorf("dataset: WithFilter(%s): %w: the filter is %s, not boolean", e, ErrInvalid, b.Type())
	}
	s.filter = e
	for _, name := range e.Columns() {
		if i := s.d.schema.FieldIndex(name); i >= 0 && indexOf(s.filterCols, i) < 0 {
			s.filterCols = append(s.filterCols, i)
		}
	}
	for _, i := range s.filterCols {
		if indexOf(s.need, i) < 0 {
			s.need = append(s.need, i)
		}
	}
	// The exact filter runs over a record of the distinct columns of
	// s.need (each field once), in the dataset's types.
	var fields []datatype.Field
	for k, i := range s.need {
		if indexOf(s.need, i) == k {
			s.filterAt = append(s.filterAt, k)
			fields = append(fields, s.d.schema.Field(i))
		}
	}
	s.filterSchema = alkaid.NewSchema(fields, datatype.Metadata{})
	fields = fields[:0:0]
	for _, i := range s.filterCols {
		fields = append(fields, s.d.schema.Field(i))
	}
	s.rowSchema = alkaid.NewSchema(fields, datatype.Metadata{})
	return nil
}

// fileFilter is the scan's filter simplified for the file src: its
// partition values put in and, when fs (the file's schema) is known,
// nulls for the filtered columns the file lacks.
func (s *Scan) fileFilter(src *source, fs *alkaid.Schema) *expr.Expr {
	var facts []*expr.Expr
	for _, i := range s.filterCols {
		name := s.d.schema.Field(i).Name
		switch {
		case s.d.isPartition(i):
			if fact := src.facts[i-s.d.nData]; fact != nil {
				facts = append(facts, fact)
			}
		case fs != nil && fs.FieldIndex(name) < 0:
			facts = append(facts, expr.IsNull(expr.Field(name)))
		}
	}
	if len(facts) == 0 {
		return s.filter
	}
	return expr.Simplify(s.filter, expr.And(facts[0], facts[1:]...))
}

// partitionFact is what a file's value one (a one-row array) of the
// partition column name says of every row of the file: name = value, or
// name IS NULL; nil when the value has no literal form (the column then
// stays in the file's filter, evaluated as a constant column).
func partitionFact(name string, one array.Array) *expr.Expr {
	if one.IsNull(0) {
		return expr.IsNull(expr.Field(name))
	}
	if v, err := compute.Min(one); err == nil && v.Valid {
		return expr.Eq(expr.Field(name), expr.Lit(v))
	}
	return nil
}

// ruledOut reports whether a simplified filter is false or null for
// every row whatever the columns hold: FALSE, NULL, or NULL AND x, say.
func ruledOut(e *expr.Expr) bool {
	return !expr.MayMatch(e, func([]string) (expr.Stats, bool) { return expr.Stats{}, false })
}

// partitionsMatch reports whether src's partition values let some of its
// rows pass the filter.
func (s *Scan) partitionsMatch(src *source) (bool, error) {
	return s.filter == nil || !ruledOut(s.fileFilter(src, nil)), nil
}

// columnsMatch reports whether the file src, of schema fs, whose
// partition values partitionsMatch let through, may hold rows passing the
// filter, given the columns it lacks (read as nulls).
func (s *Scan) columnsMatch(src *source, fs *alkaid.Schema) bool {
	if s.filter == nil {
		return true
	}
	for _, i := range s.filterCols {
		if !s.d.isPartition(i) && fs.FieldIndex(s.d.schema.Field(i).Name) < 0 {
			return !ruledOut(s.fileFilter(src, fs))
		}
	}
	return true // no filtered column missing: as partitionsMatch found
}

// bindFilter binds h's file's filter to s.filterSchema; nil when it is
// always true.
func (s *Scan) bindFilter(h *handle) (*expr.Bound, error) {
	return s.bindFilterTo(h, s.filterSchema)
}

// bindFilterTo binds the filter of h's file to schema (see bindFilter).
func (s *Scan) bindFilterTo(h *handle, schema *alkaid.Schema) (*expr.Bound, error) {
	e := h.where // a Parquet file's filter, simplified when it was opened
	if e == nil {
		var fs *alkaid.Schema
		if h.r != nil {
			fs = h.r.schema
		}
		e = s.fileFilter(h.src, fs)
	}
	if v, ok := e.IsLiteral(); ok && v.Valid && v.Value == true {
		return nil, nil
	}
	b, err := expr.Bind(e, schema)
	if err != nil {
		return nil, fmt.Errorf("dataset: filter: %w", err)
	}
	return b, nil
}

// fileMask is the rows of cols (the file columns of s.need, in the
// dataset's types; partition ones nil) passing the filter, or nil when
// all do.
func (s *Scan) fileMask(h *handle, cols []array.Array, rows int) (*array.Boolean, error) {
	if s.filter == nil {
		return nil, nil
	}
	h.filterOnce.Do(func() { h.filter, h.filterErr = s.bindFilter(h) })
	if h.filter == nil || h.filterErr != nil {
		return nil, h.filterErr
	}
	in := make([]array.Array, len(s.filterAt))
	for n, k := range s.filterAt {
		in[n] = cols[k]
		if i := s.need[k]; s.d.isPartition(i) {
			var err error
			if in[n], err = h.constant(i, s.d.partition(h.src, i), rows, s.d.partDict); err != nil {
				return nil, err
			}
		}
	}
	rec, err := alkaid.NewRecord(s.filterSchema, in, rows)
	if err != nil {
		return nil, err
	}
	return s.mask(h.filter, rec)
}

// rowFilterColumns are the columns of h's Parquet file the filter reads,
// for the reader to filter rows by them (see keepRows), or nil: when the
// filter holds for every row of the file, reads none of its columns, or
// does not bind (conform's fileMask then reports it).
func (s *Scan) rowFilterColumns(h *handle) []string {
	if s.filter == nil || h.r == nil || h.r.pq == nil {
		return nil
	}
	h.rowOnce.Do(func() { h.rowFilter, h.rowErr = s.bindFilterTo(h, s.rowSchema) })
	if h.rowFilter == nil || h.rowErr != nil {
		return nil
	}
	var cols []string
	for _, i := range s.filterCols {
		if name := s.d.schema.Field(i).Name; !s.d.isPartition(i) && slices.Contains(h.readCols, name) {
			cols = append(cols, name)
		}
	}
	return cols
}

// keepRows is the filter's result over rec, the filter's columns of a
// batch of h's file (see rowFilterColumns): false or null drops a row.
func (s *Scan) keepRows(h *handle, rec *alkaid.Record) (*array.Boolean, error) {
	rows := rec.NumRows()
	in := make([]array.Array, len(s.filterCols))
	for k, i := range s.filterCols {
		var err error
		if s.d.isPartition(i) {
			in[k], err = h.constant(i, s.d.partition(h.src, i), rows, s.d.partDict)
		} else {
			in[k], err = s.column(rec, i)
		}
		if err != nil {
			return nil, err
		}
	}
	r, err := alkaid.NewRecord(s.rowSchema, in, rows)
	if err != nil {
		return nil, err
	}
	return s.mask(h.rowFilter, r)
}

// mask evaluates a bound filter over r: its Boolean result.
func (s *Scan) mask(b *expr.Bound, r *alkaid.Record) (*array.Boolean, error) {
	m, err := b.Eval(r)
	if err != nil {
		return nil, fmt.Errorf("dataset: filter: %w", err)
	}
	keep, ok := m.(*array.Boolean)
	if !ok {
		return nil, fmt.Errorf("dataset: filter: %w: result of type %s", ErrInvalid, m.DataType())
	}
	return keep, nil
}

// parquetPredicates are the conditions of the top-level AND of e that
// Parquet's statistics and page index can decide for a file of schema
// fs: a column the file holds in the dataset's type (a file's values
// converted to another type may order differently) compared with a
// literal of a matching kind.
func (s *Scan) parquetPredicates(e *expr.Expr, fs *alkaid.Schema) []parquet.Predicate {
	var out []parquet.Predicate
	column := func(f *expr.Expr) (string, datatype.Kind, bool) {
		path, ok := f.IsField()
		if !ok || len(path) != 1 {
			return "", 0, false
		}
		i, j := s.d.schema.FieldIndex(path[0]), fs.FieldIndex(path[0])
		if i < 0 || j < 0 || !datatype.Equal(s.d.schema.Field(i).Type, fs.Field(j).Type) {
			return "", 0, false
		}
		return path[0], fs.Field(j).Type.Kind(), true
	}
	for _, c := range expr.Conjuncts(e) {
		fn, args := c.Func()
		switch {
		case fn == "is_null" && len(args) == 1:
			if name, _, ok := column(args[0]); ok {
				out = append(out, parquet.Predicate{Column: name, Op: parquet.IsNull})
			}
		case fn == "between" && len(args) == 3:
			name, kind, ok := column(args[0])
			lo, ok1 := args[1].IsLiteral()
			hi, ok2 := args[2].IsLiteral()
			if !ok || !ok1 || !ok2 {
				continue
			}
			v1, ok1 := statValue(kind, lo)
			v2, ok2 := statValue(kind, hi)
			if ok1 && ok2 {
				out = append(out, parquet.Predicate{Column: name, Op: parquet.Between, Value: v1, Value2: v2})
			}
		default:
			cmp, ok := expr.AsComparison(c)
			if !ok || len(cmp.Path) != 1 {
				continue
			}
			name, kind, ok := column(expr.Field(cmp.Path...))
			if !ok {
				continue
			}
			v, ok := statValue(kind, cmp.Value)
			if !ok {
				continue
			}
			p := parquet.Predicate{Column: name, Value: v}
			switch cmp.Op {
			case "=":
				p.Op = parquet.Eq
			case "<":
				p.Op = parquet.Lt
			case ">":
				p.Op = parquet.Gt
			case "<=", ">=":
				// Integers only: x <= v is x < v+1, x >= v is x > v-1.
				n, isInt := v.(int64)
				if !isInt || cmp.Op == "<=" && n == math.MaxInt64 || cmp.Op == ">=" && n == math.MinInt64 {
					continue
				}
				if p.Op, p.Value = parquet.Lt, n+1; cmp.Op == ">=" {
					p.Op, p.Value = parquet.Gt, n-1
				}
			default:
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

// statValue is v as parquet.Predicate compares it with the statistics of
// a column of kind k (int64 for signed integers, float64 for float64,
// string for strings); false when they do not pair.
func statValue(k datatype.Kind, v compute.Scalar) (any, bool) {
	if !v.Valid {
		return nil, false
	}
	switch k {
	case datatype.KindInt8, datatype.KindInt16, datatype.KindInt32, datatype.KindInt64:
		switch x := v.Value.(type) {
		case int64:
			return x, true
		case int32:
			return int64(x), true
		case int16:
			return int64(x), true
		case int8:
			return int64(x), true
		case uint64:
			return int64(x), x <= math.MaxInt64
		}
	case datatype.KindFloat64:
		switch x := v.Value.(type) {
		case float64:
			return x, x == x
		case int64:
			return float64(x), x >= -1<<53 && x <= 1<<53
		}
	case datatype.KindString, datatype.KindLargeString:
		x, ok := v.Value.(string)
		return x, ok
	}
	return nil, false
}

// rowGroupMayMatch reports whether row group g of h's Parquet file may
// hold rows passing its filter, as expr.MayMatch decides from the row
// group's column statistics (of the columns the file holds in the
// dataset's type).
func (s *Scan) rowGroupMayMatch(h *handle, g int) bool {
	return expr.MayMatch(h.where, func(path []string) (expr.Stats, bool) {
		if len(path) != 1 {
			return expr.Stats{}, false
		}
		i, j := s.d.schema.FieldIndex(path[0]), h.r.schema.FieldIndex(path[0])
		if i < 0 || j < 0 || s.d.isPartition(i) || !datatype.Equal(s.d.schema.Field(i).Type, h.r.schema.Field(j).Type) {
			return expr.Stats{}, false
		}
		cs, ok := h.r.pq.ColumnStats(g, path[0])
		if !ok {
			return expr.Stats{}, false
		}
		return expr.Stats{Min: statScalar(cs.Min), Max: statScalar(cs.Max), NullCount: cs.NullCount, Rows: cs.Rows}, true
	})
}

// statScalar is a value of parquet.ColumnStats as a scalar (invalid when
// nil).
func statScalar(v any) compute.Scalar {
	switch v.(type) {
	case int64:
		return compute.Scalar{Type: datatype.Int64, Valid: true, Value: v}
	case float64:
		return compute.Scalar{Type: datatype.Float64, Valid: true, Value: v}
	case string:
		return compute.Scalar{Type: datatype.String, Valid: true, Value: v}
	}
	return compute.Scalar{}
}
