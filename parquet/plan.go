package parquet

// The read plan: how each projected field and leaf column is read,
// decided once per read for every row group.

import "github.com/alkaid-go/alkaid/datatype"

// fieldPlan is how a top-level field is read: its type as read and a
// plan per leaf column, in column order.
type fieldPlan struct {
	index  int // of the field in the file's schema
	field  datatype.Field
	top    *node
	leaves []*leafPlan
}

// leafPlan is how one leaf column becomes values of type vt: with dict,
// dictionary-encoded pages keep their indices for a dictionary array of
// that type; with bits (the leaf is the whole field, of maximum
// definition level 1), definition levels are read as a validity bitmap;
// with spread (and bits), values are placed in their slots as pages are
// decoded and become the field's array.
type leafPlan struct {
	leaf   *node
	vt     datatype.DataType
	dict   *datatype.DictionaryType
	bits   bool
	spread bool
}

// plan makes the plans of the given top-level fields; asDict reads
// string and binary fields as dictionaries (WithDictionaryArrays).
func (f *File) plan(fields []int, asDict bool) ([]*fieldPlan, error) {
	out := make([]*fieldPlan, len(fields))
	for i, fi := range fields {
		top := f.root.children[fi]
		fld := f.schema.Field(fi)
		if asDict {
			fld = dictionaryField(fld, top)
		}
		fp := &fieldPlan{index: fi, field: fld, top: top}
		var leaves []*node
		collectLeaves(top, &leaves)
		for _, l := range leaves {
			vt, err := leafType(l.elem)
			if err != nil {
				return nil, err
			}
			lp := &leafPlan{leaf: l, vt: vt, dict: indexedDictionary(fld, top),
				bits: top.column >= 0 && top.maxDef == 1 && top.maxRep == 0}
			if lp.dict != nil && !datatype.Equal(lp.dict.Value, vt) {
				lp.dict = nil
			}
			lp.spread = lp.bits && lp.dict == nil && spreadable(fld, top)
			fp.leaves = append(fp.leaves, lp)
		}
		out[i] = fp
	}
	return out, nil
}
