package parquet

import (
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// ColumnStats is what a row group's footer says of one of its column
// chunks: the smallest and largest non-null value, when the footer has
// them in an order Go compares alike (Min and Max are then int64 for
// signed integers without a temporal or decimal annotation, float64 for
// DOUBLE, string for UTF-8 strings; nil otherwise), the number of nulls
// (-1 when unknown) and of rows.
type ColumnStats struct {
	Min, Max  any
	NullCount int64
	Rows      int64
}

// ColumnStats returns the statistics of the column named column (its
// dotted path) in row group rowGroup; false when the file has no such
// flat column (one outside lists and maps) or the row group is out of
// range.
func (f *File) ColumnStats(rowGroup int, column string) (ColumnStats, bool) {
	if rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) {
		return ColumnStats{}, false
	}
	leaf := -1
	for i, l := range f.leaves {
		if l.maxRep == 0 && pathString(l.path) == column {
			leaf = i
		}
	}
	if leaf < 0 {
		return ColumnStats{}, false
	}
	rg := &f.meta.RowGroups[rowGroup]
	cs := ColumnStats{NullCount: -1, Rows: rg.NumRows}
	m := rg.Columns[leaf].MetaData
	if m == nil || m.Statistics == nil {
		return cs, true
	}
	st := m.Statistics
	if st.NullCount != nil {
		cs.NullCount = *st.NullCount
	}
	if st.MinValue == nil || st.MaxValue == nil {
		return cs, true // the legacy fields' order is not defined for every type
	}
	lo, ok1 := statOf(f.leaves[leaf].elem, st.MinValue)
	hi, ok2 := statOf(f.leaves[leaf].elem, st.MaxValue)
	if ok1 && ok2 {
		cs.Min, cs.Max = lo, hi
	}
	return cs, true
}

// statOf decodes a statistic of a column of element e, when its type is
// one ColumnStats gives.
func statOf(e *format.SchemaElement, b []byte) (any, bool) {
	lt, ct := e.LogicalType, e.ConvertedType
	switch *e.Type {
	case format.Int32, format.Int64:
		plainLogical := lt == nil || lt.Integer != nil && lt.Integer.IsSigned
		plainConverted := ct == nil || *ct >= format.Int8 && *ct <= format.Int64C
		if !plainLogical || !plainConverted {
			return nil, false
		}
		switch len(b) {
		case 4:
			return int64(int32(binary.LittleEndian.Uint32(b))), true
		case 8:
			return int64(binary.LittleEndian.Uint64(b)), true
		}
	case format.Double:
		if len(b) == 8 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(b))
			return v, !math.IsNaN(v)
		}
	case format.ByteArray:
		if lt != nil && lt.String != nil || lt == nil && ct != nil && *ct == format.UTF8 {
			return string(b), true
		}
	}
	return nil, false
}
