package compute

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Order is how one sort key orders its values. The zero value sorts
// ascending with nulls last. NaNs always come after every number (in
// both directions), and before the nulls when nulls are last.
type Order struct {
	// Descending sorts from the largest value to the smallest.
	Descending bool
	// NullsFirst puts the null slots before the values.
	NullsFirst bool
}

// SortKey is a column of a record or table, by name, and its order.
type SortKey struct {
	// Column is the field name.
	Column string
	Order
}

// SortIndices returns the positions of a's slots in sorted order. The
// sort is stable: equal values keep their relative order. Orderable
// types are the integers, floats (float16 included), decimals, booleans,
// dates, times, timestamps, durations, binary and strings of every
// layout, fixed-size binary, and dictionaries and run-end encoded arrays
// of those (by value); the rest give an ErrNotSupported error.
func SortIndices(a array.Array, o Order, opts ...Option) (*array.Int64, error) {
	return indicesOut(sortRows("SortIndices", opts, arrayKey(a, o)))
}

// SortIndicesChunked is [SortIndices] over the rows of a chunked column;
// positions count from the first chunk's first row.
func SortIndicesChunked(c *alkaid.Chunked, o Order, opts ...Option) (*array.Int64, error) {
	return indicesOut(sortRows("SortIndicesChunked", opts, chunkedKey(c, o)))
}

// SortIndicesRecord returns the positions of r's rows sorted by keys: by
// the first key, ties broken by the second, and so on, ties of all keys
// kept in row order. At least one key is needed.
func SortIndicesRecord(r *alkaid.Record, keys []SortKey, opts ...Option) (*array.Int64, error) {
	return indicesOut(sortRows("SortIndicesRecord", opts, recordKeys(r, keys)))
}

// SortIndicesTable is [SortIndicesRecord] over a table; positions count
// across chunks.
func SortIndicesTable(t *alkaid.Table, keys []SortKey, opts ...Option) (*array.Int64, error) {
	return indicesOut(sortRows("SortIndicesTable", opts, tableKeys(t, keys)))
}

// Sort returns a's values sorted (see [SortIndices]).
func Sort(a array.Array, o Order, opts ...Option) (array.Array, error) {
	idx, err := sortRows("Sort", opts, arrayKey(a, o))
	if err != nil {
		return nil, err
	}
	return takeArray(a, idx)
}

// SortChunked returns c's values sorted, in one chunk (see
// [SortIndices]).
func SortChunked(c *alkaid.Chunked, o Order, opts ...Option) (*alkaid.Chunked, error) {
	idx, err := sortRows("SortChunked", opts, chunkedKey(c, o))
	if err != nil {
		return nil, err
	}
	return takeChunked(c, idx)
}

// SortRecord returns r's rows sorted by keys (see [SortIndicesRecord]).
func SortRecord(r *alkaid.Record, keys []SortKey, opts ...Option) (*alkaid.Record, error) {
	idx, err := sortRows("SortRecord", opts, recordKeys(r, keys))
	if err != nil {
		return nil, err
	}
	return pickRecord(r, atPositions(idx))
}

// SortTable returns t's rows sorted by keys, one chunk per column (see
// [SortIndicesRecord]).
func SortTable(t *alkaid.Table, keys []SortKey, opts ...Option) (*alkaid.Table, error) {
	idx, err := sortRows("SortTable", opts, tableKeys(t, keys))
	if err != nil {
		return nil, err
	}
	return pickTable(t, atPositions(idx))
}

// keySet is the key columns of a sort, resolved from any form: one
// array and its order, or named columns of a record or table.
type keySet struct {
	cols   []array.Array
	orders []Order
	err    error
}

func arrayKey(a array.Array, o Order) keySet {
	return keySet{cols: []array.Array{a}, orders: []Order{o}}
}

func chunkedKey(c *alkaid.Chunked, o Order) keySet {
	a, err := flatten(c)
	return keySet{cols: []array.Array{a}, orders: []Order{o}, err: err}
}

func recordKeys(r *alkaid.Record, keys []SortKey) keySet {
	cols, orders, err := keyColumns(r.Schema(), keys, recordColumns(r))
	return keySet{cols, orders, err}
}

func tableKeys(t *alkaid.Table, keys []SortKey) keySet {
	cols, orders, err := keyColumns(t.Schema(), keys, tableColumns(t))
	if err == nil && cols[0].Len() != t.NumRows() {
		err = errf(ErrInvalid, "sort: column has %d rows, table %d", cols[0].Len(), t.NumRows())
	}
	return keySet{cols, orders, err}
}

// sortRows is the stable order of the rows of ks, for the function fn
// called with opts.
func sortRows(fn string, opts []Option, ks keySet) ([]int, error) {
	c, err := configure(fn, opts)
	if err != nil {
		return nil, err
	}
	if ks.err != nil {
		return nil, ks.err
	}
	return sortColumns(ks.cols, ks.orders, &c)
}

// indicesOut is idx as an Int64 array, or err.
func indicesOut(idx []int, err error) (*array.Int64, error) {
	if err != nil {
		return nil, err
	}
	return indicesArray(idx), nil
}

// keyColumns resolves sort keys to columns.
func keyColumns(s *alkaid.Schema, keys []SortKey, col func(int) (array.Array, error)) ([]array.Array, []Order, error) {
	if len(keys) == 0 {
		return nil, nil, errf(ErrInvalid, "sort: no sort key")
	}
	cols := make([]array.Array, len(keys))
	orders := make([]Order, len(keys))
	for k, key := range keys {
		i, err := fieldIndex(s, key.Column)
		if err != nil {
			return nil, nil, err
		}
		if cols[k], err = col(i); err != nil {
			return nil, nil, err
		}
		orders[k] = key.Order
	}
	return cols, orders, nil
}

// fieldIndex finds the field named name.
func fieldIndex(s *alkaid.Schema, name string) (int, error) {
	for i := range s.NumFields() {
		if s.Field(i).Name == name {
			return i, nil
		}
	}
	return 0, errf(ErrInvalid, "no column %q", name)
}

// flatten returns a chunked column as one array.
func flatten(c *alkaid.Chunked) (array.Array, error) {
	chunks := c.Chunks()
	switch len(chunks) {
	case 0:
		return emptyArray(c.DataType())
	case 1:
		return chunks[0], nil
	}
	a, err := array.Concatenate(chunks...)
	if err != nil {
		return nil, errf(ErrInvalid, "chunks of %s: %v", c.DataType(), err)
	}
	return a, nil
}

// emptyArray returns an array of t with no rows.
func emptyArray(t datatype.DataType) (array.Array, error) {
	b, err := array.TryNewBuilder(t)
	if err != nil {
		return nil, errf(ErrNotSupported, "empty %s: %v", t, err)
	}
	return b.NewArray(), nil
}

// indicesArray wraps positions as an Int64 array, without copying where
// int has 64 bits.
func indicesArray(idx []int) *array.Int64 {
	var v []int64
	if unsafe.Sizeof(int(0)) == 8 {
		v = unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(idx))), len(idx))
	} else {
		v = make([]int64, len(idx))
		for i, x := range idx {
			v[i] = int64(x)
		}
	}
	d := array.NewData(datatype.Int64, len(idx), []*memory.Buffer{nil, memory.FromSlice(v)}, nil, 0, 0)
	return array.MustMake(d).(*array.Int64)
}

// sortKey is one column prepared for sorting: its comparator and, when
// it has nulls or NaNs, each row's class (0 number, 1 NaN, 2 null).
type sortKey struct {
	cmp   cmpFn
	class []uint8
	Order
}

func prepareKey(a array.Array, o Order) (sortKey, error) {
	c, nan, err := orderOf(a)
	if err != nil {
		return sortKey{}, within(err, "sort")
	}
	k := sortKey{cmp: c, Order: o}
	isNull := nullFn(a)
	if isNull == nil && nan == nil {
		return k, nil
	}
	k.class = make([]uint8, a.Len())
	for i := range k.class {
		switch {
		case isNull != nil && isNull(i):
			k.class[i] = 2
		case nan != nil && nan(i):
			k.class[i] = 1
		}
	}
	return k, nil
}

// compare orders rows x and y by this key alone.
func (k *sortKey) compare(x, y int) int {
	if k.class != nil {
		cx, cy := k.class[x], k.class[y]
		if cx != cy || cx != 0 {
			switch {
			case cx == cy:
				return 0
			case cx == 2:
				return nullSide(k.NullsFirst)
			case cy == 2:
				return -nullSide(k.NullsFirst)
			}
			return cmp.Compare(cx, cy)
		}
	}
	c := k.cmp(x, y)
	if k.Descending {
		return -c
	}
	return c
}

func nullSide(first bool) int {
	if first {
		return -1
	}
	return 1
}

// nullFn returns the test for null slots, logical ones included (a
// dictionary slot whose value is null), or nil when no slot is null.
func nullFn(a array.Array) func(int) bool {
	switch x := a.(type) {
	case *array.Extension:
		return nullFn(x.Storage())
	case *array.Dictionary:
		inner := nullFn(x.Dictionary())
		if inner == nil {
			if x.NullN() == 0 {
				return nil
			}
			return x.IsNull
		}
		return func(i int) bool { return x.IsNull(i) || inner(x.ValueIndex(i)) }
	case *array.RunEndEncoded:
		inner := nullFn(x.Values())
		if inner == nil {
			return nil
		}
		return func(i int) bool { return inner(x.PhysicalIndex(i)) }
	case *array.Union:
		return x.IsNull
	case *array.Null:
		if x.Len() == 0 {
			return nil
		}
		return x.IsNull
	}
	if a.NullN() == 0 {
		return nil
	}
	return a.IsNull
}

// sortColumns returns the stable order of the rows of cols (of equal
// lengths) by the keys in turn.
func sortColumns(cols []array.Array, orders []Order, cfg *config) ([]int, error) {
	n := cols[0].Len()
	for _, c := range cols[1:] {
		if c.Len() != n {
			return nil, errf(ErrInvalid, "sort: key columns of %d and %d rows", n, c.Len())
		}
	}
	if len(cols) == 1 {
		if idx, ok := sortFast(cols[0], orders[0], cfg); ok {
			return idx, nil
		}
	}
	keys := make([]sortKey, len(cols))
	for k, c := range cols {
		var err error
		if keys[k], err = prepareKey(c, orders[k]); err != nil {
			return nil, err
		}
	}
	byAll := func(x, y int) int {
		for k := range keys {
			if c := keys[k].compare(x, y); c != 0 {
				return c
			}
		}
		return cmp.Compare(x, y)
	}
	// The first key by radix passes when its type allows; then each run
	// of rows equal in it is sorted by the other keys (and row order).
	if idx, ok := sortFast(cols[0], orders[0], cfg); len(keys) > 1 && ok {
		for s := 0; s < len(idx); {
			e := s + 1
			for e < len(idx) && keys[0].compare(idx[s], idx[e]) == 0 {
				e++
			}
			if e-s > 1 {
				slices.SortFunc(idx[s:e], byAll)
			}
			s = e
		}
		return idx, nil
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, byAll)
	return idx, nil
}
