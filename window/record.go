package window

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// evalRecord computes the calls over the rows of r, a record holding
// every row of the input (the columns the window and the calls read).
func evalRecord(r *alkaid.Record, s Spec, calls []Call) ([]array.Array, error) {
	order, parts, ties, err := layout(r, s)
	if err != nil {
		return nil, err
	}
	out := make([]array.Array, len(calls))
	for i, c := range calls {
		var col array.Array
		if c.Func >= CumSum {
			col, _ = r.ColumnByName(c.Column)
		}
		switch c.Func {
		case RowNumber, Rank, DenseRank:
			out[i] = ranks(c.Func, order, parts, ties)
		case FillForward, FillBackward:
			out[i], err = fill(col, order, parts, c.Func == FillBackward)
		default:
			out[i], err = cumulative(c.Func, col, order, parts, &carry{})
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// layout sorts the rows: order lists them by partition, then by the
// OrderBy keys; parts[k] is true where order[k] starts a partition and
// ties[k] where order[k] ties with order[k-1] on every
// OrderBy key within a partition.
func layout(r *alkaid.Record, s Spec) (order []int64, parts, ties []bool, err error) {
	keys := make([]compute.SortKey, 0, len(s.PartitionBy)+len(s.OrderBy))
	var partEq, orderEq []func(i, j int) bool
	for _, name := range s.PartitionBy {
		i := r.Schema().FieldIndex(name)
		keys = append(keys, compute.SortKey{Column: name})
		partEq = append(partEq, equalRows(r.Column(i)))
	}
	for _, k := range s.OrderBy {
		i := r.Schema().FieldIndex(k.Column)
		keys = append(keys, k)
		orderEq = append(orderEq, equalRows(r.Column(i)))
	}
	n := r.NumRows()
	if len(keys) == 0 {
		order = make([]int64, n)
		for i := range order {
			order[i] = int64(i)
		}
	} else {
		idx, err := compute.SortIndicesRecord(r, keys)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("window: %w", err)
		}
		order = idx.Values()
	}
	parts = make([]bool, n)
	ties = make([]bool, n)
	for k := range n {
		if k == 0 {
			parts[0] = true
			continue
		}
		i, j := int(order[k-1]), int(order[k])
		parts[k] = !all(partEq, i, j)
		if !parts[k] {
			ties[k] = all(orderEq, i, j) // no OrderBy: every row a peer, as in SQL
		}
	}
	return order, parts, ties, nil
}

func all(eqs []func(i, j int) bool, i, j int) bool {
	for _, eq := range eqs {
		if !eq(i, j) {
			return false
		}
	}
	return true
}

func ranks(f Func, order []int64, parts, ties []bool) array.Array {
	out := make([]int64, len(order))
	var num, rank, dense int64
	for k, row := range order {
		if parts[k] {
			num, rank, dense = 0, 0, 0
		}
		num++
		if !ties[k] {
			rank, dense = num, dense+1
		}
		switch f {
		case RowNumber:
			out[row] = num
		case Rank:
			out[row] = rank
		default:
			out[row] = dense
		}
	}
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.AppendValues(out, nil)
	return b.NewArray()
}

// fill takes, for every row, the row whose value it gets (itself when
// valid, the nearest valid one in the direction, or none).
func fill(col array.Array, order []int64, parts []bool, backward bool) (array.Array, error) {
	src := make([]int64, len(order))
	valid := make([]bool, len(order))
	last := int64(-1)
	step := func(k int) {
		row := order[k]
		if col.IsValid(int(row)) {
			last = row
		}
		if last >= 0 {
			src[row], valid[row] = last, true
		}
	}
	if !backward {
		for k := range order {
			if parts[k] {
				last = -1
			}
			step(k)
		}
	} else {
		for k := len(order) - 1; k >= 0; k-- {
			step(k)
			if parts[k] {
				last = -1
			}
		}
	}
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.AppendValues(src, valid)
	out, err := compute.Take(col, b.NewArray())
	if err != nil {
		return nil, fmt.Errorf("window: fill of %s: %w", col.DataType(), err)
	}
	return out, nil
}
