package dataset

import (
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// predValue converts a predicate value to what compute compares a column
// of type t with: a date32 column takes a date "YYYY-MM-DD" or a day count.
func predValue(t datatype.DataType, v any) (any, error) {
	if t.Kind() == datatype.KindDate32 {
		switch x := v.(type) {
		case string:
			one, err := oneValue(t, x)
			if err != nil {
				return nil, err
			}
			return array.Values[datatype.Date32](one.Data())[0], nil
		case int64:
			return datatype.Date32(x), nil
		}
	}
	return v, nil
}

// mask is the Boolean array of the rows of a that satisfy p (a null where
// the comparison is with a null).
func mask(a array.Array, p parquet.Predicate) (*array.Boolean, error) {
	if p.Op == parquet.IsNull {
		b := array.NewBooleanBuilder(datatype.Bool)
		b.Reserve(a.Len())
		for i := range a.Len() {
			b.Append(a.IsNull(i))
		}
		return b.Finish(), nil
	}
	v, err := predValue(a.DataType(), p.Value)
	if err != nil {
		return nil, err
	}
	var op compute.CompareOp
	switch p.Op {
	case parquet.Eq:
		op = compute.Eq
	case parquet.Lt:
		op = compute.Lt
	case parquet.Gt:
		op = compute.Gt
	case parquet.Between:
		v2, err := predValue(a.DataType(), p.Value2)
		if err != nil {
			return nil, err
		}
		lo, err := compute.CompareScalar(compute.Ge, a, v)
		if err != nil {
			return nil, err
		}
		hi, err := compute.CompareScalar(compute.Le, a, v2)
		if err != nil {
			return nil, err
		}
		return compute.And(lo, hi)
	default:
		return nil, fmt.Errorf("%w: predicate operator %d", ErrInvalid, p.Op)
	}
	return compute.CompareScalar(op, a, v)
}

// partitionMatch reports whether a file whose partition value for p's
// column is one (a one-row array) may hold rows satisfying p.
func partitionMatch(one array.Array, p parquet.Predicate) (bool, error) {
	m, err := mask(one, p)
	if err != nil {
		return false, fmt.Errorf("dataset: filter on partition column %q: %w", p.Column, err)
	}
	return m.IsValid(0) && m.Value(0), nil
}
