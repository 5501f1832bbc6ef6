package parquet

// The small readers a read plan is made of: per leaf column, one builder
// of a batch's values for its layout (required or nested, optional flat,
// spread, dictionary indices kept); per top-level field, one assembler of
// its array from the built leaves. The plan chooses them when the file is
// opened; a batch only runs them.

import (
	"errors"
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/shred"
)

// leafBuilder makes the values of a batch's chunk ch of a leaf column:
// the shredded column out, or, for a spread leaf, the field's array
// final; a leaf read with a definition bitmap gives it in bits.
type leafBuilder func(jb *job, ch *chunk, out *shred.Column, final *array.Array, bits *defBitmap) error

// valuesFunc makes the array of a chunk's values (without nulls).
type valuesFunc func(jb *job, ch *chunk) (array.Array, error)

// fieldAssembler makes the array of a top-level field from its leaves,
// converted to their shredded types; bits holds the definition bitmap of
// a leaf read with one.
type fieldAssembler func(fld datatype.Field, cols []shred.Column, bits *defBitmap) (array.Array, error)

// chooseBuilder is the builder of a leaf's layout.
func chooseBuilder(lp *leafPlan) leafBuilder {
	vals := plainValues
	if lp.dict != nil {
		vals = dictValues
	}
	switch {
	case lp.spread:
		return buildSpread
	case lp.bits:
		return buildOptionalFlat(vals)
	case lp.leaf.optionalKey:
		return buildOptionalKey(vals)
	default:
		return buildLeveled(vals)
	}
}

// chooseAssembler is the assembler of a field whose leaves are as
// planned.
func chooseAssembler(fld datatype.Field, leaves []*leafPlan) fieldAssembler {
	if len(leaves) != 1 {
		return assembleNested
	}
	lp := leaves[0]
	if lp.bits {
		return assembleOptionalFlat
	}
	if lp.maxRep == 0 && lp.maxDef <= 1 {
		return assembleFlat
	}
	if lt, ok := fld.Type.(*datatype.ListType); ok && lt.Kind() == datatype.KindList && lp.maxRep == 1 {
		return assembleList
	}
	return assembleNested
}

// column is the shredded column of a chunk's levels and values v.
func (lp *leafPlan) column(ch *chunk, v array.Array) shred.Column {
	return shred.Column{Path: lp.path, MaxRep: int(lp.leaf.maxRep), MaxDef: int(lp.leaf.maxDef), Rep: ch.rep, Def: ch.def, Values: v}
}

// buildLeveled builds a leaf whose levels are read as they are: a
// required flat leaf (no levels) or a nested one.
func buildLeveled(vals valuesFunc) leafBuilder {
	return func(jb *job, ch *chunk, out *shred.Column, _ *array.Array, _ *defBitmap) error {
		v, err := vals(jb, ch)
		if err != nil {
			return err
		}
		*out = jb.column(ch, v)
		return nil
	}
}

// buildOptionalKey builds the leaf of an optional map key: as
// buildLeveled, its levels then those of a required key (see
// foldOptionalKey).
func buildOptionalKey(vals valuesFunc) leafBuilder {
	return func(jb *job, ch *chunk, out *shred.Column, _ *array.Array, _ *defBitmap) error {
		v, err := vals(jb, ch)
		if err != nil {
			return err
		}
		*out = jb.column(ch, v)
		return foldOptionalKey(out, jb.cr.where)
	}
}

// buildOptionalFlat builds an optional leaf that is the whole field: its
// definition levels were read as a bitmap.
func buildOptionalFlat(vals valuesFunc) leafBuilder {
	return func(jb *job, ch *chunk, out *shred.Column, _ *array.Array, bits *defBitmap) error {
		growBits(&ch.valid, ch.slots) // a chunk of no values has no bitmap yet
		*bits = defBitmap{valid: ch.valid, n: ch.slots}
		v, err := vals(jb, ch)
		if err != nil {
			return err
		}
		*out = jb.column(ch, v)
		return nil
	}
}

// buildSpread builds the field's array of an optional leaf whose values
// were placed in their slots as pages were decoded.
func buildSpread(jb *job, ch *chunk, _ *shred.Column, final *array.Array, bits *defBitmap) error {
	growBits(&ch.valid, ch.slots)
	*bits = defBitmap{valid: ch.valid, n: ch.slots}
	a, err := spreadLeaf(jb.vt, ch, jb.cr.where)
	if err != nil {
		return err
	}
	*final = a
	return nil
}

// plainValues makes the array of a chunk's decoded values.
func plainValues(jb *job, ch *chunk) (array.Array, error) {
	return valueArray(jb.vt, jb.phys, &ch.vals, jb.cr.where)
}

// dictValues makes the array of a chunk of a leaf read as a dictionary:
// a dictionary array of its indices when its pages were all
// dictionary-encoded, its decoded values otherwise.
func dictValues(jb *job, ch *chunk) (array.Array, error) {
	cr := jb.cr
	if !ch.vals.keepIdx || cr.dict == nil {
		return plainValues(jb, ch)
	}
	if cr.dictArr == nil {
		var err error
		if cr.dictArr, err = valueArray(jb.vt, jb.phys, cr.dict, cr.where); err != nil {
			return nil, err
		}
	}
	return dictionaryArray(jb.dict, cr.dictArr, ch.vals.idx, cr.where)
}

// foldOptionalKey makes the levels of an optional map key those of a
// required one: the level of a present key drops by one; a null key (the
// level below) is an error.
func foldOptionalKey(c *shred.Column, where string) error {
	top := int16(c.MaxDef)
	def := make([]int16, len(c.Def)) // the chunk's levels stay as read
	for i, d := range c.Def {
		switch d {
		case top:
			def[i] = top - 1
		case top - 1:
			return invalidf("%s: a null map key at entry %d", where, i)
		default:
			def[i] = d
		}
	}
	c.Def = def
	c.MaxDef--
	return nil
}

// assemble turns the built leaves of the field into its array: the
// leaves the plan converts are converted, then the field's assembler
// runs.
func (fp *fieldPlan) assemble(cols []shred.Column, bits *defBitmap) (array.Array, error) {
	for _, i := range fp.convert {
		if _, kept := cols[i].Values.(*array.Dictionary); kept {
			continue // dictionary indices kept: the field's own type
		}
		lp := fp.leaves[i]
		v, err := convertLeaf(cols[i].Values, lp.want)
		if err != nil {
			return nil, wrapf(err, "column %q", pathString(lp.path))
		}
		cols[i].Values = v
	}
	if fp.err != nil {
		return nil, fp.err
	}
	return fp.asm(fp.field, cols, bits)
}

// assembleOptionalFlat builds an optional leaf field from its values and
// definition bitmap.
func assembleOptionalFlat(fld datatype.Field, cols []shred.Column, bits *defBitmap) (array.Array, error) {
	if bits.valid == nil {
		return assembleFlat(fld, cols, bits)
	}
	if a, ok := flatLeafValid(fld, cols[0].Values, bits.valid, bits.n); ok {
		return a, nil
	}
	cols[0].Def = bits.levels()
	return assembleNested(fld, cols, bits)
}

// assembleFlat builds a field of one leaf, without repetition and of at
// most one definition level.
func assembleFlat(fld datatype.Field, cols []shred.Column, bits *defBitmap) (array.Array, error) {
	if a, ok := flatLeaf(fld, cols); ok {
		return a, nil
	}
	return assembleNested(fld, cols, bits)
}

// assembleList builds a list field of one leaf.
func assembleList(fld datatype.Field, cols []shred.Column, bits *defBitmap) (array.Array, error) {
	if a, ok := flatList(fld, cols); ok {
		return a, nil
	}
	return assembleNested(fld, cols, bits)
}

// assembleNested builds any field by the general assembly of its levels.
func assembleNested(fld datatype.Field, cols []shred.Column, _ *defBitmap) (array.Array, error) {
	a, err := shred.Assemble(fld, cols)
	if errors.Is(err, shred.ErrLimit) {
		return nil, limitf("%v (a smaller batch size gives a batch fewer distinct values)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %v", ErrInvalid, err)
	}
	return a, nil
}

// dictionaryArray builds a dictionary array of type dt (int32 indices)
// from a chunk's dictionary values dv and indices.
func dictionaryArray(dt *datatype.DictionaryType, dv array.Array, idx []int32, where string) (array.Array, error) {
	d := array.NewData(dt, len(idx), []*memory.Buffer{nil, memory.FromSlice(idx)}, nil, 0, 0)
	d.Dictionary = dv.Data()
	a, err := array.Make(d)
	if err != nil {
		return nil, invalidf("%s: %v", where, err)
	}
	return a, nil
}

// spreadLeaf builds the array of a chunk read with spread values.
func spreadLeaf(t datatype.DataType, ch *chunk, where string) (array.Array, error) {
	n := ch.slots
	if len(ch.vals.fixed) != n*ch.vals.width {
		return nil, invalidf("%s: %d bytes of values for %d slots", where, len(ch.vals.fixed), n)
	}
	present := bitutil.CountSetBits(ch.valid, 0, n)
	var vbuf *memory.Buffer
	if present < n {
		vbuf = memory.NewBuffer(ch.valid[:(n+7)/8])
	}
	a, err := array.Make(array.NewData(t, n, []*memory.Buffer{vbuf, memory.NewBuffer(ch.vals.fixed)}, nil, n-present, 0))
	if err != nil {
		return nil, invalidf("%s: %v", where, err)
	}
	return a, nil
}
