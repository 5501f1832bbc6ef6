package window

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
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

// Call is one function of an Eval: Func over Column, its result the
// column Name.
type Call struct {
	Func Func
	// Column is the column Func reads; the ranking functions read none
	// (leave it "").
	Column string
	// Name is the result column's name; "" names it after the function
	// and its column, as "rank" or "cumulative_sum(x)".
	Name string
}

// Eval returns a reader of the records of r, each with one more column
// per call at its end: the call's function over the rows of r in the
// window s. The result is the same however r splits its rows into
// batches: partitions, the sort order and ties span batches, as if the
// batches were one record. Close closes r.
//
// Memory: with no PartitionBy and no OrderBy, and no FillBackward among
// the calls, the functions run batch by batch, carrying their state (a
// running sum, the last value seen, a row count) from one batch to the
// next, so only a batch is held at a time. Any other window needs the
// whole input before its first result, as in DuckDB: the first record
// the reader yields comes after r is read to its end, and r's batches
// (plus, when there are several, one concatenated copy of the columns
// the window and the calls read) stay in memory until the last one is
// yielded.
//
// The calls are checked against r's schema here: an error names a column
// that does not exist, one of a type the function does not take, or a
// result name that is taken.
func Eval(r alkaid.RecordReader, s Spec, calls ...Call) (alkaid.RecordReader, error) {
	if r == nil {
		return nil, fmt.Errorf("window: a nil reader: %w", datatype.ErrInvalid)
	}
	b, err := bind(r.Schema(), s, calls)
	if err != nil {
		return nil, err
	}
	if b.streams() {
		return alkaid.NewRecordReader(b.out, b.stream(r), r.Close), nil
	}
	return alkaid.NewRecordReader(b.out, b.whole(r), r.Close), nil
}

// bound is an Eval's window and calls checked against the input schema.
type bound struct {
	spec  Spec
	calls []Call // with their names filled in
	out   *alkaid.Schema
	read  []int // the input columns the window and the calls read, in schema order
}

func bind(in *alkaid.Schema, s Spec, calls []Call) (*bound, error) {
	if len(calls) == 0 {
		return nil, fmt.Errorf("window: no function to compute: %w", datatype.ErrInvalid)
	}
	b := &bound{spec: s, calls: append([]Call(nil), calls...)}
	reads := map[int]bool{}
	for _, name := range s.PartitionBy {
		i, err := columnIndex(in, name, "PartitionBy")
		if err != nil {
			return nil, err
		}
		reads[i] = true
	}
	for _, k := range s.OrderBy {
		i, err := columnIndex(in, k.Column, "OrderBy")
		if err != nil {
			return nil, err
		}
		reads[i] = true
	}
	fields := in.Fields()
	taken := map[string]bool{}
	for _, f := range fields {
		taken[f.Name] = true
	}
	for k := range b.calls {
		c := &b.calls[k]
		f, err := c.result(in)
		if err != nil {
			return nil, err
		}
		if c.Func >= CumSum {
			reads[in.FieldIndex(c.Column)] = true
		}
		if taken[f.Name] {
			return nil, fmt.Errorf("window: %s: result column %q: the name is taken: %w", c.Func, f.Name, datatype.ErrInvalid)
		}
		taken[f.Name] = true
		c.Name = f.Name
		fields = append(fields, f)
	}
	for i := range in.NumFields() {
		if reads[i] {
			b.read = append(b.read, i)
		}
	}
	b.out = alkaid.NewSchema(fields, in.Metadata())
	return b, nil
}

// result checks c against the input schema and returns its result field.
func (c Call) result(in *alkaid.Schema) (datatype.Field, error) {
	f := c.Func
	if f < 0 || int(f) >= len(funcNames) {
		return datatype.Field{}, fmt.Errorf("window: unknown function %s: %w", f, datatype.ErrInvalid)
	}
	name := c.Name
	if f < CumSum {
		if c.Column != "" {
			return datatype.Field{}, fmt.Errorf("window: %s takes no column, got %q: %w", f, c.Column, datatype.ErrInvalid)
		}
		if name == "" {
			name = f.String()
		}
		return datatype.Field{Name: name, Type: datatype.Int64}, nil
	}
	i, err := columnIndex(in, c.Column, f.String())
	if err != nil {
		return datatype.Field{}, err
	}
	if name == "" {
		name = f.String() + "(" + c.Column + ")"
	}
	t := in.Field(i).Type
	if f <= CumMax {
		switch k := t.Kind(); {
		case f == CumSum && k.IsSignedInteger():
			t = datatype.Int64
		case f == CumSum && k.IsInteger():
			t = datatype.Uint64
		case f == CumSum && (k == datatype.KindFloat32 || k == datatype.KindFloat64):
			t = datatype.Float64
		case k.IsInteger() || k == datatype.KindFloat32 || k == datatype.KindFloat64:
		default:
			return datatype.Field{}, fmt.Errorf("window: %s of %q (%s): needs integers or floats: %w", f, c.Column, t, datatype.ErrInvalid)
		}
	}
	return datatype.Field{Name: name, Type: t, Nullable: true}, nil
}

// columnIndex is the index of the column name of s; what says what
// names it (a function, PartitionBy, OrderBy).
func columnIndex(s *alkaid.Schema, name, what string) (int, error) {
	idx := s.FieldIndices(name)
	switch len(idx) {
	case 1:
		return idx[0], nil
	case 0:
		return 0, fmt.Errorf("window: %s: no column %q: %w", what, name, datatype.ErrInvalid)
	}
	return 0, fmt.Errorf("window: %s: column name %q is ambiguous: %w", what, name, datatype.ErrInvalid)
}
