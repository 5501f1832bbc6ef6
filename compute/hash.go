package compute

import (
	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Hashing works on every type: two slots are the same value when
// [array.AppendKey] encodes them alike — nulls equal each other, floats
// compare by their bits (so 0 and -0 differ, and a NaN equals a NaN of
// the same bits), dictionaries and run-end encoded arrays compare by
// value, and nested types element by element.

// Unique returns the distinct values of a in order of first occurrence,
// null included (once) when a has nulls.
func Unique(a array.Array, opts ...Option) (array.Array, error) { return unique("Unique", a, opts) }

// UniqueChunked is [Unique] over a chunked column.
func UniqueChunked(c *alkaid.Chunked, opts ...Option) (array.Array, error) {
	a, err := flatten(c)
	if err != nil {
		return nil, err
	}
	return unique("UniqueChunked", a, opts)
}

func unique(fn string, a array.Array, opts []Option) (array.Array, error) {
	c, err := configure(fn, opts)
	if err != nil {
		return nil, err
	}
	return takeArray(a, groupIDs(a, false, &c).firsts)
}

// ValueCounts returns the distinct values of a (as [Unique] does) and how
// many times each occurs.
func ValueCounts(a array.Array, opts ...Option) (values array.Array, counts *array.Int64, err error) {
	return valueCounts("ValueCounts", a, opts)
}

// ValueCountsChunked is [ValueCounts] over a chunked column.
func ValueCountsChunked(c *alkaid.Chunked, opts ...Option) (values array.Array, counts *array.Int64, err error) {
	a, err := flatten(c)
	if err != nil {
		return nil, nil, err
	}
	return valueCounts("ValueCountsChunked", a, opts)
}

func valueCounts(fn string, a array.Array, opts []Option) (values array.Array, counts *array.Int64, err error) {
	c, err := configure(fn, opts)
	if err != nil {
		return nil, nil, err
	}
	g := groupOf(a, &c)
	n := make([]int64, g.n())
	for _, id := range g.ids {
		n[id]++
	}
	values, err = takeArray(a, g.firsts)
	if err != nil {
		return nil, nil, err
	}
	return values, int64Array(n), nil
}

// CountDistinct returns the number of distinct non-null values of a.
func CountDistinct(a array.Array, opts ...Option) (int, error) {
	return distinctCount("CountDistinct", a, opts)
}

// CountDistinctChunked is [CountDistinct] over a chunked column.
func CountDistinctChunked(c *alkaid.Chunked, opts ...Option) (int, error) {
	a, err := flatten(c)
	if err != nil {
		return 0, err
	}
	return distinctCount("CountDistinctChunked", a, opts)
}

func distinctCount(fn string, a array.Array, opts []Option) (int, error) {
	c, err := configure(fn, opts)
	if err != nil {
		return 0, err
	}
	g := groupIDs(a, false, &c)
	if g.null >= 0 {
		return g.n() - 1, nil
	}
	return g.n(), nil
}

// DictionaryEncode returns a as a dictionary array with int32 indices:
// the dictionary holds the distinct non-null values in order of first
// occurrence, null slots have null indices. A dictionary array is
// returned as it is.
func DictionaryEncode(a array.Array, opts ...Option) (*array.Dictionary, error) {
	c, err := configure("DictionaryEncode", opts)
	if err != nil {
		return nil, err
	}
	if d, ok := a.(*array.Dictionary); ok {
		return d, nil
	}
	g := groupOf(a, &c)
	firsts := g.firsts
	if g.null >= 0 {
		firsts = append(append([]int(nil), firsts[:g.null]...), firsts[g.null+1:]...)
	}
	dict, err := takeArray(a, firsts)
	if err != nil {
		return nil, err
	}
	n := a.Len()
	vals, idx := newValues[int32](n)
	var valid *memory.Buffer
	nulls := 0
	if g.null >= 0 {
		valid = memory.Allocate(nil, bitutil.BytesForBits(n))
		vb := valid.Bytes()
		for i, id := range g.ids {
			switch {
			case id == g.null:
				idx[i] = 0
				nulls++
				continue
			case id > g.null:
				id--
			}
			idx[i] = id
			bitutil.SetBit(vb, i)
		}
	} else {
		copy(idx, g.ids)
	}
	indices := primitiveOut(datatype.Int32, n, valid, nulls, vals)
	t, err := datatype.NewDictionary(datatype.Int32, a.DataType(), false)
	if err != nil {
		return nil, errf(ErrNotSupported, "dictionary of %s: %v", a.DataType(), err)
	}
	d, err := array.NewDictionaryArray(t, indices, dict)
	if err != nil {
		return nil, errf(ErrInvalid, "dictionary of %s: %v", a.DataType(), err)
	}
	return d, nil
}

// lookup groups the rows of set followed by those of a (of the same
// type) and returns, for each row of a, the first row of set holding the
// same value, or -1.
func lookup(fn string, a, set array.Array, opts []Option) ([]int, error) {
	c, err := configure(fn, opts)
	if err != nil {
		return nil, err
	}
	if err := checkSameType("lookup", a, set); err != nil {
		return nil, err
	}
	both, err := array.Concatenate(set, a)
	if err != nil {
		return nil, errf(ErrInvalid, "lookup: %v", err)
	}
	g := groupOf(both, &c)
	m := set.Len()
	out := make([]int, a.Len())
	for i := range out {
		out[i] = g.firsts[g.ids[m+i]]
		if out[i] >= m {
			out[i] = -1
		}
	}
	return out, nil
}

// IsIn returns, for each slot of a, whether its value occurs in set (of
// the same type). A null slot is in set when set has a null. The result
// has no nulls.
func IsIn(a, set array.Array, opts ...Option) (*array.Boolean, error) {
	pos, err := lookup("IsIn", a, set, opts)
	if err != nil {
		return nil, err
	}
	n := len(pos)
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	vb := vals.Bytes()
	for i, p := range pos {
		if p >= 0 {
			bitutil.SetBit(vb, i)
		}
	}
	return boolOut(n, vals, nil, 0), nil
}

// IndexIn returns, for each slot of a, the position of the first slot of
// set (of the same type) holding its value, or null when there is none.
// A null slot matches set's first null.
func IndexIn(a, set array.Array, opts ...Option) (*array.Int32, error) {
	pos, err := lookup("IndexIn", a, set, opts)
	if err != nil {
		return nil, err
	}
	n := len(pos)
	vals, idx := newValues[int32](n)
	valid := memory.Allocate(nil, bitutil.BytesForBits(n))
	vb := valid.Bytes()
	nulls := 0
	for i, p := range pos {
		idx[i] = int32(max(p, 0))
		if p < 0 {
			nulls++
		} else {
			bitutil.SetBit(vb, i)
		}
	}
	return primitiveOut(datatype.Int32, n, valid, nulls, vals).(*array.Int32), nil
}

// int64Array wraps v as an Int64 array without nulls.
func int64Array(v []int64) *array.Int64 {
	d := array.NewData(datatype.Int64, len(v), []*memory.Buffer{nil, memory.FromSlice(v)}, nil, 0, 0)
	return array.MustMake(d).(*array.Int64)
}
