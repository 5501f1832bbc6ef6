package expr

import (
	"bytes"
	"cmp"
	"math"

	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Stats is what is known of a column over a set of rows (a file, a row
// group, a page): the smallest and largest non-null value (an invalid
// Scalar when unknown; floats' statistics leave NaN out), the number of
// nulls and of rows (negative when unknown). Min and Max must be bounds:
// a truncated string maximum must have been rounded up.
type Stats struct {
	Min, Max  compute.Scalar
	NullCount int64
	Rows      int64
}

// StatsFunc returns the statistics of the field at path, or false when
// there are none.
type StatsFunc func(path []string) (Stats, bool)

// MayMatch reports whether a row described by stats may satisfy e: it
// is false only when the statistics prove that e is false or null for
// every row, so a file, row group or page for which it is false can be
// skipped. It understands comparisons of a field with a literal (either
// order), BETWEEN and IN with literals, IS [NOT] NULL, AND, OR and NOT
// over those, and literals; anything else may match. Simplify with the
// facts of a file first to use those too.
func MayMatch(e *Expr, stats StatsFunc) bool {
	t, _ := outcomes(e, stats)
	return t
}

// outcomes says whether e can be true and whether it can be false for
// some row.
func outcomes(e *Expr, stats StatsFunc) (canTrue, canFalse bool) {
	if e.kind == kindLiteral {
		if !e.val.Valid {
			return false, false
		}
		if v, ok := e.val.Value.(bool); ok {
			return v, !v
		}
		return true, true
	}
	if e.kind != kindCall {
		return true, true
	}
	a := e.args
	switch e.fn {
	case "and", "or":
		if len(a) != 2 {
			return true, true
		}
		t1, f1 := outcomes(a[0], stats)
		t2, f2 := outcomes(a[1], stats)
		if e.fn == "and" {
			return t1 && t2, f1 || f2
		}
		return t1 || t2, f1 && f2
	case "not":
		if len(a) != 1 {
			return true, true
		}
		t, f := outcomes(a[0], stats)
		return f, t
	case "is_null", "is_valid", "is_not_null":
		if len(a) != 1 || a[0].kind != kindField {
			return true, true
		}
		s, ok := stats(a[0].path)
		if !ok || s.NullCount < 0 {
			return true, true
		}
		someNull := s.NullCount > 0
		someValid := s.Rows < 0 || s.NullCount < s.Rows
		if e.fn == "is_null" {
			return someNull, someValid
		}
		return someValid, someNull
	case "between":
		if len(a) != 3 || a[0].kind != kindField || a[1].kind != kindLiteral || a[2].kind != kindLiteral {
			return true, true
		}
		t1, _ := compareOutcomes(">=", a[0].path, a[1].val, stats)
		t2, _ := compareOutcomes("<=", a[0].path, a[2].val, stats)
		return t1 && t2, true
	case "is_in":
		if len(a) < 1 || a[0].kind != kindField {
			return true, true
		}
		any := false
		for _, v := range a[1:] {
			if v.kind != kindLiteral {
				return true, true
			}
			t, _ := compareOutcomes("=", a[0].path, v.val, stats)
			any = any || t
		}
		return any, true
	}
	if c, ok := AsComparison(e); ok {
		return compareOutcomes(c.Op, c.Path, c.Value, stats)
	}
	return true, true
}

// compareOutcomes says whether "field op v" can be true and can be false.
func compareOutcomes(op string, path []string, v compute.Scalar, stats StatsFunc) (canTrue, canFalse bool) {
	if !v.Valid {
		return false, false // a comparison with null is null
	}
	s, ok := stats(path)
	if !ok {
		return true, true
	}
	if s.Rows >= 0 && s.NullCount >= 0 && s.NullCount >= s.Rows {
		return false, false // every value is null
	}
	if !s.Min.Valid || !s.Max.Valid {
		return true, true
	}
	lo, okLo := compareScalars(s.Min, v) // min vs v
	hi, okHi := compareScalars(s.Max, v) // max vs v
	if !okLo || !okHi {
		return true, true
	}
	float := s.Min.Type != nil && s.Min.Type.Kind().IsFloat()
	switch op {
	case "=":
		canTrue, canFalse = lo <= 0 && hi >= 0, !(lo == 0 && hi == 0)
	case "<>":
		canTrue, canFalse = !(lo == 0 && hi == 0), lo <= 0 && hi >= 0
	case "<":
		canTrue, canFalse = lo < 0, hi >= 0
	case "<=":
		canTrue, canFalse = lo <= 0, hi > 0
	case ">":
		canTrue, canFalse = hi > 0, lo <= 0
	case ">=":
		canTrue, canFalse = hi >= 0, lo < 0
	default:
		return true, true
	}
	if float {
		// NaN is left out of statistics: a NaN row makes <> true and the
		// others false.
		canFalse = true
		if op == "<>" {
			canTrue = true
		}
	}
	return canTrue, canFalse
}

// compareScalars orders a and b: numbers as numbers, strings and binary
// bytewise, booleans false first, values of the temporal and decimal
// types when both have the same type (b is cast to a's type first when
// they differ, as a literal is to a column's). ok is false when they do
// not compare.
func compareScalars(a, b compute.Scalar) (int, bool) {
	if !a.Valid || !b.Valid {
		return 0, false
	}
	if fa, ok := numberOf(a.Value); ok {
		if fb, ok := numberOf(b.Value); ok {
			return compareNumbers(a.Value, b.Value, fa, fb)
		}
	}
	if a.Type != nil && b.Type != nil && !datatype.Equal(a.Type, b.Type, datatype.IgnoreMetadata()) {
		c, err := castScalar(b, a.Type)
		if err != nil {
			return 0, false
		}
		b = c
	}
	switch x := a.Value.(type) {
	case string:
		if y, ok := b.Value.(string); ok {
			return cmp.Compare(x, y), true
		}
	case []byte:
		if y, ok := b.Value.([]byte); ok {
			return bytes.Compare(x, y), true
		}
	case bool:
		if y, ok := b.Value.(bool); ok {
			return cmp.Compare(boolInt(x), boolInt(y)), true
		}
	case datatype.Date32:
		if y, ok := b.Value.(datatype.Date32); ok {
			return cmp.Compare(x, y), true
		}
	case datatype.Date64:
		if y, ok := b.Value.(datatype.Date64); ok {
			return cmp.Compare(x, y), true
		}
	case datatype.Timestamp:
		if y, ok := b.Value.(datatype.Timestamp); ok {
			return cmp.Compare(x, y), true
		}
	case datatype.Time32:
		if y, ok := b.Value.(datatype.Time32); ok {
			return cmp.Compare(x, y), true
		}
	case datatype.Time64:
		if y, ok := b.Value.(datatype.Time64); ok {
			return cmp.Compare(x, y), true
		}
	case datatype.Duration:
		if y, ok := b.Value.(datatype.Duration); ok {
			return cmp.Compare(x, y), true
		}
	case datatype.Decimal32:
		if y, ok := b.Value.(datatype.Decimal32); ok {
			return cmp.Compare(x, y), true
		}
	case datatype.Decimal64:
		if y, ok := b.Value.(datatype.Decimal64); ok {
			return cmp.Compare(x, y), true
		}
	}
	return 0, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// numberOf is v as a float64 when it is a Go number.
func numberOf(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}

// compareNumbers orders two numbers exactly: integers as integers,
// anything with a float as floats; NaN does not compare.
func compareNumbers(a, b any, fa, fb float64) (int, bool) {
	if math.IsNaN(fa) || math.IsNaN(fb) {
		return 0, false
	}
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmp.Compare(x, y), true
		case uint64:
			if x < 0 {
				return -1, true
			}
			return cmp.Compare(uint64(x), y), true
		}
	case uint64:
		switch y := b.(type) {
		case uint64:
			return cmp.Compare(x, y), true
		case int64:
			if y < 0 {
				return 1, true
			}
			return cmp.Compare(x, uint64(y)), true
		}
	}
	// With a float: integers beyond 2^53 may have been rounded, so they do
	// not compare (may match).
	for _, v := range []any{a, b} {
		switch x := v.(type) {
		case int64:
			if x > 1<<53 || x < -(1<<53) {
				return 0, false
			}
		case uint64:
			if x > 1<<53 {
				return 0, false
			}
		}
	}
	return cmp.Compare(fa, fb), true
}
