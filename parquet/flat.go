package parquet

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/shred"
)

// flatLeaf builds the array of a top-level leaf field (no repetition, at
// most one definition level) directly from its levels and values, without
// the general assembly: byte strings keep their data buffer, other values
// are spread to their slots. ok is false for other fields.
func flatLeaf(f datatype.Field, cols []shred.Column) (array.Array, bool) {
	if len(cols) != 1 || cols[0].MaxRep != 0 || cols[0].MaxDef > 1 {
		return nil, false
	}
	c := cols[0]
	vals := c.Values
	if !datatype.Equal(vals.DataType(), f.Type) {
		return nil, false
	}
	if c.MaxDef == 0 {
		return vals, true
	}
	n := len(c.Def)
	valid := make([]byte, (n+7)/8)
	present := 0
	for i, d := range c.Def {
		if d == 1 {
			valid[i>>3] |= 1 << (i & 7)
			present++
		}
	}
	if present != vals.Len() {
		return nil, false
	}
	nulls := n - present
	vbuf := memory.NewBuffer(valid)
	switch v := vals.(type) {
	case *array.Binary[int32]:
		src := v.Offsets()
		offs := make([]int32, n+1)
		k := 0
		for i, d := range c.Def {
			offs[i] = src[k]
			if d == 1 {
				k++
			}
		}
		offs[n] = src[k]
		a, err := array.Make(array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.FromSlice(offs), memory.NewBuffer(v.ValueBytes())}, nil, nulls, 0))
		return a, err == nil
	case *array.Boolean:
		bits := make([]byte, (n+7)/8)
		k := 0
		for i, d := range c.Def {
			if d == 1 {
				if v.Value(k) {
					bits[i>>3] |= 1 << (i & 7)
				}
				k++
			}
		}
		a, err := array.Make(array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(bits)}, nil, nulls, 0))
		return a, err == nil
	}
	raw, w, ok := array.FixedWidthBytes(vals)
	if !ok {
		return nil, false
	}
	out := make([]byte, n*w)
	k := 0
	for i, d := range c.Def {
		if d == 1 {
			copy(out[i*w:(i+1)*w], raw[k*w:(k+1)*w])
			k++
		}
	}
	a, err := array.Make(array.NewData(f.Type, n, []*memory.Buffer{vbuf, memory.NewBuffer(out)}, nil, nulls, 0))
	return a, err == nil
}
