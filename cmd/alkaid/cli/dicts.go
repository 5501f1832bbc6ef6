package cli

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// dictUnifier makes a sequence of record batches writable to the file
// format, where a dictionary may grow from batch to batch but never be
// replaced. A column whose dictionaries changed since the previous batch is
// re-encoded against the previous dictionary followed by the values it
// lacks (array.UnifyDictionaries), which the file writer sends as a delta.
// Values are unchanged; only indices move.
type dictUnifier struct {
	cols []int               // columns containing a dictionary
	prev map[int]array.Array // per column, an empty slice of the last written one
}

func newDictUnifier(s *alkaid.Schema) *dictUnifier {
	u := &dictUnifier{prev: map[int]array.Array{}}
	for i := range s.NumFields() {
		if array.HasDictionary(s.Field(i).Type) {
			u.cols = append(u.cols, i)
		}
	}
	if len(u.cols) == 0 {
		return nil
	}
	return u
}

func (u *dictUnifier) apply(rec *alkaid.Record) (*alkaid.Record, error) {
	var cols []array.Array
	for _, c := range u.cols {
		a := rec.Column(c)
		if p, ok := u.prev[c]; ok {
			merged, err := array.UnifyDictionaries(p, a)
			if err != nil {
				return nil, fmt.Errorf("column %d (%s): dictionary replaced, and merging it into one growing dictionary failed: %w", c, rec.ColumnName(c), err)
			}
			if merged != a {
				if cols == nil {
					cols = rec.Columns()
				}
				cols[c] = merged
				a = merged
			}
		}
		u.prev[c] = array.Slice(a, 0, 0)
	}
	if cols == nil {
		return rec, nil
	}
	return alkaid.NewRecord(rec.Schema(), cols, rec.NumRows())
}

// shareDictionaries returns cur re-pointed at the dictionaries of first
// (data of the same type): every dictionary node takes first's dictionary
// and its indices are reduced modulo that dictionary's length. gen uses it
// so that every generated batch shares the first batch's dictionaries,
// which keeps files valid (no replacement) and dictionaries small.
func shareDictionaries(first, cur *array.Data) *array.Data {
	out := *cur
	if cur.Dictionary != nil && first.Dictionary != nil {
		dt := datatype.StorageOf(cur.Type).(*datatype.DictionaryType)
		out = *cur.WithValues(remapIndices(cur.ValueBuffer(), datatype.ByteWidth(dt.Index), dt.Index.Kind().IsSignedInteger(), cur.Offset+cur.Length, first.Dictionary.Length))
		out.Dictionary = first.Dictionary
	}
	if len(cur.Children) > 0 {
		out.Children = make([]*array.Data, len(cur.Children))
		for i, c := range cur.Children {
			out.Children[i] = shareDictionaries(first.Children[i], c)
		}
	}
	return &out
}

// remapIndices copies the first n little-endian indices of width w, each
// taken modulo size (a negative signed index becomes 0).
func remapIndices(buf *memory.Buffer, w int, signed bool, n, size int) *memory.Buffer {
	src := buf.Bytes()[:n*w]
	dst := memory.DefaultAllocator.Allocate(n * w)
	for i := range n {
		var v uint64
		for k := range w {
			v |= uint64(src[i*w+k]) << (8 * k)
		}
		if signed && v>>(8*w-1) != 0 {
			v = 0
		}
		v %= uint64(max(size, 1))
		for k := range w {
			dst[i*w+k] = byte(v >> (8 * k))
		}
	}
	return memory.NewBuffer(dst)
}
