package parquet

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// dictSegment converts a top-level dictionary field without going
// through its values: the segment keeps the dictionary's physical values
// and the index of every non-null slot, for encodeChunk to write as the
// chunk's dictionary when it can (see dictChunk). ok is false when the
// dictionary itself holds nulls or its values are not a flat type.
func dictSegment(l *wleaf, f datatype.Field, a *array.Dictionary) (segment, bool, error) {
	dict := a.Dictionary()
	if dict.NullN() > 0 || !flatWritable(dict.DataType()) {
		return segment{}, false, nil
	}
	dv, err := physicalOf(l, dict)
	if err != nil {
		return segment{}, false, err
	}
	n := a.Len()
	s := segment{n: n, dict: dv}
	if !f.Nullable && a.NullN() > 0 {
		return segment{}, false, nil
	}
	if f.Nullable {
		s.maxDef = 1
		s.def = make([]int16, n)
	}
	s.idx = make([]int32, 0, n-a.NullN())
	raw, w, fast := array.FixedWidthBytes(a.Indices())
	fast = fast && w == 4 && a.Indices().DataType().Kind() == datatype.KindInt32
	for i := range n {
		if a.NullN() > 0 && !a.IsValid(i) {
			continue
		}
		var x int
		if fast {
			x = int(int32(binary.LittleEndian.Uint32(raw[4*i:])))
		} else {
			x = a.ValueIndex(i)
		}
		if x < 0 || x >= dv.n {
			return segment{}, false, invalidf("field %q: dictionary index %d at slot %d out of range [0, %d)", f.Name, x, i, dv.n)
		}
		if s.def != nil {
			s.def[i] = 1
		}
		s.idx = append(s.idx, int32(x))
	}
	s.vals = nil
	return s, true, nil
}

// gatherValues returns the values of d at the indices idx (all in range).
func gatherValues(d *values, idx []int32) *values {
	out := &values{width: d.width, n: len(idx)}
	switch {
	case d.bools != nil:
		out.bools = make([]byte, len(idx))
		for i, x := range idx {
			out.bools[i] = d.bools[x]
		}
	case d.width > 0:
		w := d.width
		out.fixed = make([]byte, len(idx)*w)
		for i, x := range idx {
			copy(out.fixed[i*w:(i+1)*w], d.fixed[int(x)*w:int(x+1)*w])
		}
	default:
		total := 0
		for _, x := range idx {
			total += int(d.bin.Offsets[x+1] - d.bin.Offsets[x])
		}
		out.bin.Offsets = make([]int32, 1, len(idx)+1)
		out.bin.Data = make([]byte, 0, total)
		for _, x := range idx {
			out.bin.Data = append(out.bin.Data, d.bin.Value(int(x))...)
			out.bin.Offsets = append(out.bin.Offsets, int32(len(out.bin.Data)))
		}
	}
	return out
}

// dictChunk reports whether a chunk of segments keeps the dictionary
// of its one dictionary segment: dictionary encoding on, no other
// encoding asked for, and a dictionary page within the limit. Otherwise
// dictionary segments are turned into values.
func (w *Writer) dictChunk(l *wleaf, segs []segment, name string) bool {
	_, forced := w.cfg.colEncoding[name]
	if len(segs) == 1 && segs[0].dict != nil && w.cfg.dict && !forced && l.phys != format.Boolean &&
		valueBytes(segs[0].dict, 0, segs[0].dict.n) <= w.cfg.dictLimit {
		return true
	}
	for i := range segs {
		if s := &segs[i]; s.dict != nil {
			s.vals = gatherValues(s.dict, s.idx)
			s.dict, s.idx = nil, nil
		}
	}
	return false
}

// usedValues returns each dictionary value that idx names, once (the
// values the chunk's statistics cover).
func usedValues(d *values, idx []int32) *values {
	used := make([]bool, d.n)
	var keep []int32
	for _, x := range idx {
		if !used[x] {
			used[x] = true
			keep = append(keep, x)
		}
	}
	return gatherValues(d, keep)
}
