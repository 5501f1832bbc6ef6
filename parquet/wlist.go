package parquet

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// flatListSegment converts a top-level list<flat type> field straight
// from its offsets and validity, without the general shredding: one
// entry per null or empty list and per element, repetition 1 for each
// element after a list's first. ok is false for any other shape (and for
// nulls the schema does not allow, which shredding reports).
func flatListSegment(l *wleaf, f datatype.Field, a array.Array) (segment, bool, error) {
	lt, isList := f.Type.(*datatype.ListType)
	la, ok := a.(*array.List[int32])
	if !isList || !ok || lt.Kind() != datatype.KindList {
		return segment{}, false, nil
	}
	elem := lt.Elem()
	child := la.ListValues()
	if !flatWritable(elem.Type) || !datatype.Equal(child.DataType(), elem.Type) ||
		(!f.Nullable && a.NullN() > 0) || (!elem.Nullable && child.NullN() > 0) ||
		(child.NullN() > 0 && secondsFactor(elem.Type) < 0) {
		return segment{}, false, nil
	}
	v, err := physicalOf(l, child)
	if err != nil {
		return segment{}, false, err
	}
	listDef := int16(0)
	if f.Nullable {
		listDef = 1
	}
	maxDef := listDef + 1
	if elem.Nullable {
		maxDef++
	}
	n := a.Len()
	offs := la.Offsets()
	nullLists := a.NullN() > 0
	entries := 0
	for i := range n {
		if k := int(offs[i+1] - offs[i]); k > 0 && !(nullLists && a.IsNull(i)) {
			entries += k
		} else {
			entries++
		}
	}
	def := make([]int16, entries)
	rep := make([]int16, entries)
	keep := make([]int16, child.Len())
	nullElems := child.NullN() > 0
	present, e := 0, 0
	for i := range n {
		if nullLists && a.IsNull(i) {
			e++ // def 0, rep 0
			continue
		}
		s, t := int(offs[i]), int(offs[i+1])
		if s == t {
			def[e] = listDef
			e++
			continue
		}
		for j := s; j < t; j++ {
			if j > s {
				rep[e] = 1
			}
			if nullElems && child.IsNull(j) {
				def[e] = listDef + 1
			} else {
				def[e] = maxDef
				keep[j] = 1
				present++
			}
			e++
		}
	}
	return segment{maxDef: maxDef, maxRep: 1, def: def, rep: rep, n: entries,
		vals: compactValues(l, v, keep, present)}, true, nil
}
