package compute

import (
	"errors"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
)

// Take returns the slots of a at the given indices, in order: slot i of
// the result is slot indices[i] of a, or null when indices[i] is null.
// indices is an array of any integer type; every non-null index must lie
// in [0, a.Len()), or the error wraps [ErrIndexOutOfBounds]. Indices may
// repeat and come in any order.
//
// Every type is supported, nested ones included: lists gather their
// child ranges, list views share their child and gather offsets, dense
// unions take the child values their slots select, structs and sparse
// unions take every child, dictionary
// arrays take their indices and keep the dictionary, run-end encoded
// arrays come out re-encoded (equal neighbours merged into runs),
// extension arrays take their storage. Binary views share their data
// buffers. The result is a new array at offset 0 (nested children may
// share memory with a).
//
// The input must be valid as [array.ValidateSafe] checks (arrays from
// this library's builders and IPC readers are).
func Take(a array.Array, indices array.Array) (array.Array, error) {
	idx, err := indexList(indices, a.Len())
	if err != nil {
		return nil, err
	}
	return takeArray(a, idx)
}

// TakeChunked takes the rows of c at indices, numbered across chunks
// (see [Take]). A column of several chunks is concatenated first, so the
// result has one chunk.
func TakeChunked(c *alkaid.Chunked, indices array.Array) (*alkaid.Chunked, error) {
	idx, err := indexList(indices, c.Len())
	if err != nil {
		return nil, err
	}
	return takeChunked(c, idx)
}

// TakeRecord takes the rows of r at indices (see [Take]) from every
// column.
func TakeRecord(r *alkaid.Record, indices array.Array) (*alkaid.Record, error) {
	idx, err := indexList(indices, r.NumRows())
	if err != nil {
		return nil, err
	}
	return pickRecord(r, atPositions(idx))
}

// TakeTable takes the rows of t at indices from every column (see
// [TakeChunked]).
func TakeTable(t *alkaid.Table, indices array.Array) (*alkaid.Table, error) {
	idx, err := indexList(indices, t.NumRows())
	if err != nil {
		return nil, err
	}
	return pickTable(t, atPositions(idx))
}

func takeChunked(c *alkaid.Chunked, idx []int) (*alkaid.Chunked, error) {
	chunks := c.Chunks()
	var whole array.Array
	switch len(chunks) {
	case 0:
		b, err := array.TryNewBuilder(c.DataType())
		if err != nil {
			return nil, errf(ErrNotSupported, "take %s: %v", c.DataType(), err)
		}
		whole = b.NewArray()
	case 1:
		whole = chunks[0]
	default:
		var err error
		if whole, err = array.Concatenate(chunks...); err != nil {
			return nil, errf(ErrInvalid, "take: %v", err)
		}
	}
	out, err := takeArray(whole, idx)
	if err != nil {
		return nil, err
	}
	return newChunked(c, []array.Array{out})
}

// takeArray takes the slots idx of a (-1 for a null slot).
func takeArray(a array.Array, idx []int) (array.Array, error) {
	d, err := takeData(a.Data(), idx)
	if err != nil {
		return nil, err
	}
	out, err := array.Make(d)
	if err != nil {
		return nil, errf(ErrInvalid, "take %s: %v", a.DataType(), err)
	}
	return out, nil
}

// indexList converts an integer index array into positions, -1 for a
// null index, checking every other index against n. The slice may share
// memory with indices (it is never written).
func indexList(indices array.Array, n int) ([]int, error) {
	valid, off := bitmapOf(indices.Data())
	switch x := indices.(type) {
	case *array.Int8:
		return toIndices(x.Values(), valid, off, n)
	case *array.Int16:
		return toIndices(x.Values(), valid, off, n)
	case *array.Int32:
		return toIndices(x.Values(), valid, off, n)
	case *array.Int64:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint8:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint16:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint32:
		return toIndices(x.Values(), valid, off, n)
	case *array.Uint64:
		return toIndices(x.Values(), valid, off, n)
	}
	return nil, errf(ErrInvalid, "take: indices of type %s, want an integer type", indices.DataType())
}

func toIndices[T Integer](v []T, valid []byte, off, n int) ([]int, error) {
	var zero T
	bad := func(i int) error {
		return errf(ErrIndexOutOfBounds, "take: index %v (slot %d) outside [0, %d)", v[i], i, n)
	}
	if valid == nil && unsafe.Sizeof(zero) == 8 && unsafe.Sizeof(int(0)) == 8 && zero-1 < 0 {
		// int64 indices without nulls serve as they are.
		for i, x := range v {
			if uint64(x) >= uint64(n) {
				return nil, bad(i)
			}
		}
		return castSlice[int](v), nil
	}
	out := make([]int, len(v))
	for i, x := range v {
		if valid != nil && !bitutil.GetBit(valid, off+i) {
			out[i] = -1
			continue
		}
		if uint64(x) >= uint64(n) || (zero-1 < 0 && x < 0) {
			return nil, bad(i)
		}
		out[i] = int(x)
	}
	return out, nil
}

// takeData gathers the slots idx of d (positions relative to d's first
// slot, -1 for a null slot) on the array package's growable engine.
func takeData(d *array.Data, idx []int) (*array.Data, error) {
	g, err := array.NewGrowable(d.Type, []*array.Data{d}, len(idx))
	if err != nil {
		return nil, errf(ErrNotSupported, "take %s", d.Type)
	}
	g.ExtendIndices(0, idx)
	out, err := g.Finish()
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, array.ErrNotSupported):
		return nil, errf(ErrNotSupported, "take: %v", err)
	}
	return nil, errf(ErrOverflow, "take: %v", err)
}
