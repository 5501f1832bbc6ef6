package window

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Spec is the window: the partition keys and the order within each
// partition.
type Spec struct {
	// PartitionBy names the key columns; rows with equal keys (nulls
	// equal to each other) form a partition.
	PartitionBy []string
	// OrderBy orders the rows of each partition.
	OrderBy []compute.SortKey
}

// Func is a window function.
type Func int

// The window functions.
const (
	// RowNumber numbers the rows of each partition from 1 in order.
	RowNumber Func = iota
	// Rank is 1 plus the number of rows of the partition before the row
	// that do not tie with it on the OrderBy keys (gaps after ties);
	// without OrderBy every row ties, so every rank is 1.
	Rank
	// DenseRank is the number of distinct OrderBy key values of the
	// partition up to the row (no gaps).
	DenseRank
	// CumSum is the running sum of the column: int64 for signed
	// integers, uint64 for unsigned, float64 for floats.
	CumSum
	// CumMin is the running minimum of the column, of its type.
	CumMin
	// CumMax is the running maximum of the column, of its type.
	CumMax
	// FillForward replaces each null by the last value before it.
	FillForward
	// FillBackward replaces each null by the next value after it.
	FillBackward
)

var funcNames = [...]string{"row_number", "rank", "dense_rank", "cumulative_sum", "cumulative_min",
	"cumulative_max", "fill_forward", "fill_backward"}

// String is the function's name, as DuckDB or Arrow names it.
func (f Func) String() string {
	if f < 0 || int(f) >= len(funcNames) {
		return fmt.Sprintf("Func(%d)", int(f))
	}
	return funcNames[f]
}

// Eval computes f over the rows of r in the window s. column is the
// column f reads; the ranking functions read none (pass "").
func Eval(r *alkaid.Record, s Spec, f Func, column string) (array.Array, error) {
	if r == nil {
		return nil, fmt.Errorf("window: %s of a nil record: %w", f, datatype.ErrInvalid)
	}
	if f < 0 || int(f) >= len(funcNames) {
		return nil, fmt.Errorf("window: unknown function %s: %w", f, datatype.ErrInvalid)
	}
	var col array.Array
	if f >= CumSum {
		i, err := columnIndex(r, column, f)
		if err != nil {
			return nil, err
		}
		col = r.Column(i)
	} else if column != "" {
		return nil, fmt.Errorf("window: %s takes no column, got %q: %w", f, column, datatype.ErrInvalid)
	}
	order, parts, ties, err := layout(r, s, f <= DenseRank)
	if err != nil {
		return nil, err
	}
	switch f {
	case RowNumber, Rank, DenseRank:
		return ranks(f, order, parts, ties), nil
	case FillForward, FillBackward:
		return fill(col, order, parts, f == FillBackward)
	}
	return cumulative(f, col, order, parts)
}

func columnIndex(r *alkaid.Record, name string, f Func) (int, error) {
	idx := r.Schema().FieldIndices(name)
	switch len(idx) {
	case 1:
		return idx[0], nil
	case 0:
		return 0, fmt.Errorf("window: %s: no column %q: %w", f, name, datatype.ErrInvalid)
	}
	return 0, fmt.Errorf("window: %s: column name %q is ambiguous: %w", f, name, datatype.ErrInvalid)
}

// layout sorts the rows: order lists them by partition, then by the
// OrderBy keys; parts[k] is true where order[k] starts a partition and
// ties[k] (when wanted) where order[k] ties with order[k-1] on every
// OrderBy key within a partition.
func layout(r *alkaid.Record, s Spec, wantTies bool) (order []int64, parts, ties []bool, err error) {
	keys := make([]compute.SortKey, 0, len(s.PartitionBy)+len(s.OrderBy))
	var partEq, orderEq []func(i, j int) bool
	for _, name := range s.PartitionBy {
		i, err := columnIndex(r, name, -1)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("window: PartitionBy: %w", err)
		}
		keys = append(keys, compute.SortKey{Column: name})
		partEq = append(partEq, equalRows(r.Column(i)))
	}
	for _, k := range s.OrderBy {
		i, err := columnIndex(r, k.Column, -1)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("window: OrderBy: %w", err)
		}
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
	if wantTies {
		ties = make([]bool, n)
	}
	for k := range n {
		if k == 0 {
			parts[0] = true
			continue
		}
		i, j := int(order[k-1]), int(order[k])
		parts[k] = !all(partEq, i, j)
		if wantTies && !parts[k] {
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
