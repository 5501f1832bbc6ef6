package compute

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// AggFunc is an aggregate function of [GroupBy].
type AggFunc uint8

// The aggregate functions. Every one but AggCount of no column skips
// nulls; a group with no non-null value gets a null result, except for
// the counts (0).
const (
	// AggCount counts the non-null values of the column, or the rows
	// when the column is "".
	AggCount AggFunc = iota
	// AggCountDistinct counts the distinct non-null values (as [Unique]
	// tells values apart).
	AggCountDistinct
	// AggSum adds numbers: signed integers into an int64 and unsigned ones
	// into a uint64 (both wrapping on overflow), floats into a float64,
	// decimals exactly into a wider decimal (as [Sum] does).
	AggSum
	// AggMean is the float64 mean of integers (of their exact sum) and
	// floats; the mean of decimals is of their type (as [Mean] says).
	AggMean
	// AggMin and AggMax take the least and greatest value of any
	// orderable type (see [SortIndices]); NaNs only when a group has
	// nothing else, and -0 orders before +0.
	AggMin
	AggMax
	// AggFirst and AggLast take the first and last non-null value, in row
	// order, of any type.
	AggFirst
	AggLast
	// AggAny and AggAll are the OR and AND of booleans.
	AggAny
	AggAll
)

var aggNames = [...]string{"count", "count_distinct", "sum", "mean", "min", "max", "first", "last", "any", "all"}

// String is the function's name: "count", "sum", …
func (f AggFunc) String() string {
	if int(f) < len(aggNames) {
		return aggNames[f]
	}
	return fmt.Sprintf("AggFunc(%d)", f)
}

// Aggregate is one output column of [GroupBy]: a function of a column.
type Aggregate struct {
	Func AggFunc
	// Column is the input field's name ("" only for AggCount: rows).
	Column string
	// Name is the output field's name; "" makes it "func(column)".
	Name string
}

// GroupBy groups r's rows by the values of the key columns (null keys
// form a group of their own; keys compare as [Unique] does, so any type
// can be a key) and returns one row per group, in order of each group's
// first row: the key columns first, then one column per aggregate. With
// no keys, all rows form one group.
func GroupBy(r *alkaid.Record, keys []string, aggs []Aggregate, opts ...Option) (*alkaid.Record, error) {
	c, err := configure("GroupBy", opts)
	if err != nil {
		return nil, err
	}
	return groupBy(r.Schema(), r.NumRows(), recordColumns(r), keys, aggs, &c)
}

// GroupByTable is [GroupBy] over a table's rows, every chunk of them.
func GroupByTable(t *alkaid.Table, keys []string, aggs []Aggregate, opts ...Option) (*alkaid.Record, error) {
	c, err := configure("GroupByTable", opts)
	if err != nil {
		return nil, err
	}
	return groupBy(t.Schema(), t.NumRows(), tableColumns(t), keys, aggs, &c)
}

func groupBy(s *alkaid.Schema, n int, col func(int) (array.Array, error), keys []string, aggs []Aggregate, c *config) (*alkaid.Record, error) {
	var g *groups
	var fields []datatype.Field
	var cols []array.Array
	keyCols := make([]array.Array, len(keys))
	for k, name := range keys {
		i, err := fieldIndex(s, name)
		if err != nil {
			return nil, err
		}
		if keyCols[k], err = col(i); err != nil {
			return nil, err
		}
		kg := groupOf(keyCols[k], c)
		if g == nil {
			g = kg
		} else {
			g = combine(g, kg)
		}
		fields = append(fields, s.Field(i))
	}
	if g == nil {
		g = &groups{ids: make([]int32, n), null: -1}
		if n > 0 {
			g.firsts = []int{0}
		}
	}
	for _, kc := range keyCols {
		out, err := takeArray(kc, g.firsts)
		if err != nil {
			return nil, err
		}
		cols = append(cols, out)
	}
	for _, ag := range aggs {
		var in array.Array
		if ag.Column != "" {
			i, err := fieldIndex(s, ag.Column)
			if err != nil {
				return nil, err
			}
			if in, err = col(i); err != nil {
				return nil, err
			}
		} else if ag.Func != AggCount {
			return nil, errf(ErrInvalid, "group by: %s needs a column", ag.Func)
		}
		out, err := aggregate(ag.Func, in, g, c)
		if err != nil {
			return nil, within(err, "group by: %s(%s)", ag.Func, ag.Column)
		}
		name := ag.Name
		if name == "" {
			name = ag.Func.String() + "(" + ag.Column + ")"
		}
		fields = append(fields, datatype.Field{Name: name, Type: out.DataType(), Nullable: out.NullN() > 0 || ag.Func > AggCountDistinct})
		cols = append(cols, out)
	}
	return newRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, g.n())
}

// aggregate computes one aggregate per group.
func aggregate(f AggFunc, a array.Array, g *groups, c *config) (array.Array, error) {
	ng := g.n()
	switch f {
	case AggCount:
		if a != nil && kernelsOf(a.DataType()).groupSum != nil {
			// A number column's counts come with its sums.
			if _, counts, err := g.sumsOf(a, c); err == nil {
				return int64Array(append([]int64(nil), counts...)), nil
			}
		}
		return int64Array(countGroups(a, g)), nil
	case AggCountDistinct:
		return int64Array(countDistinct(a, g, c)), nil
	case AggSum, AggMean:
		return sumGroups(f == AggMean, a, g, c)
	case AggMin, AggMax:
		if err := checkOrderable(a); err != nil {
			return nil, err
		}
		return takeArray(a, bestRows(a, g, f == AggMax))
	case AggFirst, AggLast:
		rows := make([]int, ng)
		for i := range rows {
			rows[i] = -1
		}
		isNull := nullFn(a)
		for i, id := range g.ids {
			if (isNull == nil || !isNull(i)) && (f == AggLast || rows[id] < 0) {
				rows[id] = i
			}
		}
		return takeArray(a, rows)
	case AggAny, AggAll:
		b, ok := a.(*array.Boolean)
		if !ok {
			return nil, errf(ErrNotSupported, "%s of %s", f, a.DataType())
		}
		return anyAll(f == AggAll, b, g), nil
	}
	return nil, errf(ErrInvalid, "aggregate function %d", f)
}

// countGroups counts each group's non-null values of a (rows when a is
// nil).
func countGroups(a array.Array, g *groups) []int64 {
	out := make([]int64, g.n())
	var isNull func(int) bool
	if a != nil {
		isNull = nullFn(a)
	}
	if isNull == nil {
		for _, id := range g.ids {
			out[id]++
		}
		return out
	}
	for i, id := range g.ids {
		if !isNull(i) {
			out[id]++
		}
	}
	return out
}

// countDistinct counts the distinct (group, value) pairs of each group.
func countDistinct(a array.Array, g *groups, c *config) []int64 {
	out := make([]int64, g.n())
	vg := groupOf(a, c)
	t := newBitsTable[uint64](g.n())
	added := false
	add := func() int32 { added = true; return 0 }
	for i, id := range g.ids {
		v := vg.ids[i]
		if v == vg.null {
			continue
		}
		added = false
		t.find(uint64(uint32(id))<<32|uint64(uint32(v)), add)
		if added {
			out[id]++
		}
	}
	return out
}

// bestRows returns each group's row holding its least (greatest when
// greatest) non-null value, -1 for a group without one.
func bestRows(a array.Array, g *groups, greatest bool) []int {
	rows := make([]int, g.n())
	for i := range rows {
		rows[i] = -1
	}
	c, nan, err := minMaxOrderOf(a)
	if err != nil {
		return rows
	}
	isNull := nullFn(a)
	for i, id := range g.ids {
		if isNull != nil && isNull(i) {
			continue
		}
		b := rows[id]
		switch {
		case b < 0:
		case nan != nil && nan(i):
			continue
		case nan != nil && nan(b):
		default:
			d := c(i, b)
			if greatest {
				d = -d
			}
			if d >= 0 {
				continue
			}
		}
		rows[id] = i
	}
	return rows
}

// checkOrderable reports an error for min and max of types without an
// order.
func checkOrderable(a array.Array) error {
	_, _, err := orderOf(a)
	return err
}

// anyAll is the OR (AND when all) of each group's non-null booleans.
func anyAll(all bool, a *array.Boolean, g *groups) array.Array {
	ng := g.n()
	seen := make([]bool, ng)
	res := make([]bool, ng)
	for i := range res {
		res[i] = all
	}
	isNull := nullFn(a)
	for i, id := range g.ids {
		if isNull != nil && isNull(i) {
			continue
		}
		seen[id] = true
		if v := a.Value(i); all && !v {
			res[id] = false
		} else if !all && v {
			res[id] = true
		}
	}
	b := array.NewBooleanBuilder(datatype.Bool)
	for i := range res {
		if seen[i] {
			b.Append(res[i])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray()
}

// validFromCounts returns the validity of per-group results: valid where
// the group had a non-null value.
func validFromCounts(counts []int64) (*memory.Buffer, int) {
	nulls := 0
	for _, c := range counts {
		if c == 0 {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	buf := memory.Allocate(nil, bitutil.BytesForBits(len(counts)))
	b := buf.Bytes()
	for i, c := range counts {
		if c > 0 {
			bitutil.SetBit(b, i)
		}
	}
	return buf, nulls
}
