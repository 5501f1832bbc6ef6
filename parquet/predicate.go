package parquet

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// Op is the comparison of a Predicate.
type Op int

// Comparisons a Predicate can make.
const (
	Eq      Op = iota // column == Value
	Lt                // column < Value
	Gt                // column > Value
	Between           // Value <= column <= Value2
	IsNull            // column is null
)

// Predicate is a condition on one leaf column (named by its dotted
// Parquet path, e.g. "a" or "s.x") that row groups and pages are skipped
// by: a row group whose statistics prove that no row satisfies it is not
// read, and, where the file has a page index, only the rows of the pages
// that may hold matching values are returned (and, of flat columns, only
// those pages decoded). Rows are not filtered
// further: the rows returned are a superset of the matching rows, in file
// order, each whole and correct. Value and Value2
// are int64 (INT32 and INT64 columns of signed or no annotation), float64
// (FLOAT, DOUBLE) or string (BYTE_ARRAY); another pairing never skips.
type Predicate struct {
	Column        string
	Op            Op
	Value, Value2 any
}

// rowGroupMayMatch reports whether row group g may hold rows satisfying
// every predicate; an unknown column is an error.
func (f *File) rowGroupMayMatch(g int, ps []Predicate) (bool, error) {
	for _, p := range ps {
		leaf := -1
		for i, l := range f.leaves {
			if pathString(l.path) == p.Column {
				leaf = i
			}
		}
		if leaf < 0 {
			return false, invalidf("WithPredicates: no column %q", p.Column)
		}
		m := f.meta.RowGroups[g].Columns[leaf].MetaData
		if m != nil && m.Statistics != nil && !mayMatch(f.leaves[leaf], m.Statistics, f.meta.RowGroups[g].NumRows, p) {
			return false, nil
		}
		if ok, err := f.bloomMayMatch(g, leaf, p); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// mayMatch is false only when st proves no value satisfies p.
func mayMatch(l *node, st *format.Statistics, rows int64, p Predicate) bool {
	if p.Op == IsNull {
		return st.NullCount == nil || *st.NullCount > 0
	}
	if st.NullCount != nil && *st.NullCount == rows && l.maxRep == 0 {
		return false // every value is null
	}
	lo, hi := st.MinValue, st.MaxValue
	if lo == nil || hi == nil {
		if *l.elem.Type == format.ByteArray || *l.elem.Type == format.FixedLenByteArray {
			return true // the legacy fields have no defined order here
		}
		lo, hi = st.Min, st.Max
	}
	if lo == nil || hi == nil {
		return true
	}
	cmpLo, ok1 := compareStat(l, lo, p.Value)
	cmpHi, ok2 := compareStat(l, hi, p.Value)
	if !ok1 || !ok2 {
		return true
	}
	switch p.Op {
	case Eq:
		return cmpLo <= 0 && cmpHi >= 0
	case Lt:
		return cmpLo < 0
	case Gt:
		return cmpHi > 0
	case Between:
		c2, ok := compareStat(l, lo, p.Value2)
		return !ok || (cmpHi >= 0 && c2 <= 0)
	}
	return true
}

// compareStat compares a statistic's bytes with a predicate value: -1,
// 0 or 1; ok is false when they cannot be compared.
func compareStat(l *node, stat []byte, v any) (int, bool) {
	e := l.elem
	signedInt := e.LogicalType == nil || e.LogicalType.Integer == nil || e.LogicalType.Integer.IsSigned
	if e.ConvertedType != nil && *e.ConvertedType >= format.Uint8 && *e.ConvertedType <= format.Uint64 {
		signedInt = false
	}
	switch *e.Type {
	case format.Int32, format.Int64:
		x, ok := v.(int64)
		if !ok || !signedInt {
			return 0, false
		}
		var s int64
		switch len(stat) {
		case 4:
			s = int64(int32(binary.LittleEndian.Uint32(stat)))
		case 8:
			s = int64(binary.LittleEndian.Uint64(stat))
		default:
			return 0, false
		}
		return cmp3(s < x, s > x), true
	case format.Float, format.Double:
		x, ok := v.(float64)
		if !ok || x != x {
			return 0, false
		}
		var s float64
		switch len(stat) {
		case 4:
			s = float64(math.Float32frombits(binary.LittleEndian.Uint32(stat)))
		case 8:
			s = math.Float64frombits(binary.LittleEndian.Uint64(stat))
		default:
			return 0, false
		}
		if s != s {
			return 0, false
		}
		return cmp3(s < x, s > x), true
	case format.ByteArray:
		x, ok := v.(string)
		if !ok {
			return 0, false
		}
		return bytes.Compare(stat, []byte(x)), true
	}
	return 0, false
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}
