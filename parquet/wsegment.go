package parquet

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/shred"
)

// segment is one record's share of a column chunk: levels of every entry
// and the physical values of the present ones.
type segment struct {
	maxDef, maxRep int16
	def, rep       []int16
	vals           *values
	n              int
	// A dictionary segment (see dictSegment) has dict and idx instead
	// of vals.
	dict *values
	idx  []int32
}

// bytes estimates the size of the segment's levels and values, the work
// of encoding it.
func (s *segment) bytes() int {
	n := 2*len(s.def) + 2*len(s.rep) + 4*len(s.idx)
	if v := s.vals; v != nil {
		n += len(v.fixed) + len(v.bools) + len(v.bin.Data) + 4*len(v.bin.Offsets)
	}
	return n
}

// segments returns the segments of the leaves of top-level field f whose
// first leaf is w.leaves[first]. A flat field (a leaf of a plain type)
// is converted directly; others are shredded.
func (w *Writer) segments(f datatype.Field, a array.Array, first int) ([]segment, error) {
	// Date64 checks every value it converts: null slots may hold anything,
	// so those go through shredding, which keeps the valid values only.
	if flatWritable(f.Type) && first < len(w.leaves) && (a.NullN() == 0 || secondsFactor(f.Type) >= 0) {
		s, err := flatSegment(w.leaves[first], f, a)
		if err != nil {
			return nil, err
		}
		return []segment{s}, nil
	}
	if first < len(w.leaves) && f.Type.Kind() == datatype.KindList {
		s, ok, err := flatListSegment(w.leaves[first], f, a)
		if err != nil {
			return nil, err
		}
		if ok {
			return []segment{s}, nil
		}
	}
	if d, ok := a.(*array.Dictionary); ok && first < len(w.leaves) && f.Type.Kind() == datatype.KindDictionary {
		s, ok, err := dictSegment(w.leaves[first], f, d)
		if err != nil {
			return nil, err
		}
		if ok {
			return []segment{s}, nil
		}
	}
	cols, err := shred.ShredField(f, a)
	if err != nil {
		return nil, wrapf(err, "field %q", f.Name)
	}
	out := make([]segment, len(cols))
	for i, c := range cols {
		if first+i >= len(w.leaves) {
			return nil, invalidf("more shredded columns than the %d leaves", len(w.leaves))
		}
		v, err := physicalOf(w.leaves[first+i], c.Values)
		if err != nil {
			return nil, err
		}
		out[i] = segment{maxDef: int16(c.MaxDef), maxRep: int16(c.MaxRep), def: c.Def, rep: c.Rep, vals: v, n: c.Len()}
	}
	return out, nil
}

// flatWritable reports whether a top-level field of type t is one leaf
// column whose array holds its values directly.
func flatWritable(t datatype.DataType) bool {
	k := t.Kind()
	return k != datatype.KindNull && !k.IsListLike() && k != datatype.KindStruct && k != datatype.KindDictionary &&
		k != datatype.KindRunEndEncoded && k != datatype.KindExtension && k != datatype.KindSparseUnion && k != datatype.KindDenseUnion
}

// flatSegment converts a flat field's array: definition levels from its
// validity, physical values of its non-null slots.
func flatSegment(l *wleaf, f datatype.Field, a array.Array) (segment, error) {
	n := a.Len()
	s := segment{n: n}
	v, err := physicalOf(l, a)
	if err != nil {
		return segment{}, err
	}
	if !f.Nullable {
		if a.NullN() > 0 {
			return segment{}, invalidf("field %q is not nullable but holds %d nulls", f.Name, a.NullN())
		}
		s.vals = v
		return s, nil
	}
	s.maxDef = 1
	s.def = make([]int16, n)
	if a.NullN() == 0 {
		for i := range s.def {
			s.def[i] = 1
		}
		s.vals = v
		return s, nil
	}
	present := 0
	for i := range n {
		if a.IsValid(i) {
			s.def[i] = 1
			present++
		}
	}
	s.vals = compactValues(l, v, s.def, present)
	return s, nil
}

// compactValues returns the values of v whose keep entry is 1 (present of
// them), in new memory (v may alias an array).
func compactValues(l *wleaf, v *values, keep []int16, present int) *values {
	n := len(keep)
	// Keep the values of the valid slots (into new memory: v may alias a).
	out := &values{width: v.width, n: present}
	switch {
	case l.phys == format.Boolean:
		out.bools = make([]byte, 0, present)
		for i, d := range keep {
			if d == 1 {
				out.bools = append(out.bools, v.bools[i])
			}
		}
	case l.phys == format.ByteArray:
		out.bin.Offsets = make([]int32, 1, present+1)
		out.bin.Data = make([]byte, 0, int(v.bin.Offsets[n]-v.bin.Offsets[0]))
		for i, d := range keep {
			if d == 1 {
				out.bin.Data = append(out.bin.Data, v.bin.Value(i)...)
				out.bin.Offsets = append(out.bin.Offsets, int32(len(out.bin.Data)))
			}
		}
	default:
		w := v.width
		out.fixed = make([]byte, 0, present*w)
		// Copy runs of valid slots at once.
		for i := 0; i < n; {
			if keep[i] != 1 {
				i++
				continue
			}
			j := i + 1
			for j < n && keep[j] == 1 {
				j++
			}
			out.fixed = append(out.fixed, v.fixed[i*w:j*w]...)
			i = j
		}
	}
	return out
}
