package flightsql

import (
	"fmt"
	"maps"
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// SqlInfoReader encodes server information values as a [GetSqlInfo]
// result: the values named by ids, in that order, skipping the ones
// values lacks; all of them, by code, when ids is empty. A value is a
// string, bool, int64, int32 (a bitmask), []string or map[int32][]int32;
// another type is an error wrapping datatype.ErrInvalid.
func SqlInfoReader(values map[uint32]any, ids []uint32) (alkaid.RecordReader, error) {
	if len(ids) == 0 {
		ids = slices.Sorted(maps.Keys(values))
	}
	schema := SqlInfoSchema()
	names := array.NewPrimitiveBuilder[uint32](datatype.Uint32)
	ut := sqlInfoValueType()
	ub := array.NewUnionBuilder(ut)
	for _, id := range ids {
		v, ok := values[id]
		if !ok {
			continue
		}
		names.Append(id)
		if err := appendInfo(ub, v); err != nil {
			return nil, fmt.Errorf("flightsql: SqlInfo %d: %w", id, err)
		}
	}
	n := names.Len()
	rec, err := alkaid.NewRecord(schema, []array.Array{names.NewArray(), ub.NewArray()}, n)
	if err != nil {
		return nil, fmt.Errorf("flightsql: SqlInfo: %w", err)
	}
	t, err := alkaid.TableFromRecords(schema, []*alkaid.Record{rec})
	if err != nil {
		return nil, fmt.Errorf("flightsql: SqlInfo: %w", err)
	}
	return t, nil
}

// appendInfo appends one value to the SqlInfo union.
func appendInfo(ub *array.UnionBuilder, v any) error {
	switch v := v.(type) {
	case string:
		ub.Append(0).(*array.BinaryBuilder[int32]).AppendString(v)
	case bool:
		ub.Append(1).(*array.BooleanBuilder).Append(v)
	case int64:
		ub.Append(2).(*array.PrimitiveBuilder[int64]).Append(v)
	case int32:
		ub.Append(3).(*array.PrimitiveBuilder[int32]).Append(v)
	case []string:
		lb := ub.Append(4).(*array.ListBuilder[int32])
		lb.Append(true)
		vb := lb.ValueBuilder().(*array.BinaryBuilder[int32])
		for _, s := range v {
			vb.AppendString(s)
		}
	case map[int32][]int32:
		mb := ub.Append(5).(*array.MapBuilder)
		mb.Append(true)
		kb := mb.KeyBuilder().(*array.PrimitiveBuilder[int32])
		ib := mb.ItemBuilder().(*array.ListBuilder[int32])
		for _, k := range slices.Sorted(maps.Keys(v)) {
			kb.Append(k)
			ib.Append(true)
			eb := ib.ValueBuilder().(*array.PrimitiveBuilder[int32])
			for _, x := range v[k] {
				eb.Append(x)
			}
		}
	default:
		return fmt.Errorf("a value of type %T (want string, bool, int64, int32, []string or map[int32][]int32): %w", v, datatype.ErrInvalid)
	}
	return nil
}
