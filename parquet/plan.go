package parquet

// The read plan, made once for a File when it is opened (or selected
// from) or, when it reads the whole file, by its first read: the fields
// read and how each leaf column becomes values, the row groups
// read, and of each the rows that predicates leave by the page index.

import (
	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/shred"
)

// readPlan is what a File's Records reads.
type readPlan struct {
	fields []*fieldPlan
	schema *alkaid.Schema // of the records
	groups []*groupPlan
	filter *filterPlan // WithRowFilter's, or nil
}

// groupPlan is the reading of one row group: with sel, only the rows sel
// (the page index ruled the others out), and of each field the page
// indexes of its leaves (pages[i] nil: decoded whole) and the rows it
// decodes to cover sel (have[i]).
type groupPlan struct {
	index int
	sel   []rowRange
	pages [][]*pageIndex
	have  [][]rowRange
}

// makePlan plans the read the File's options ask for.
func (f *File) makePlan() (*readPlan, error) {
	cfg := &f.cfg
	fields, err := f.project(cfg.columns)
	if err != nil {
		return nil, err
	}
	p := &readPlan{}
	if p.fields, err = f.planFields(fields, cfg.asDict); err != nil {
		return nil, err
	}
	if cfg.columns == nil && !cfg.asDict {
		p.schema = f.schema // the fields planned are the file's
	} else {
		schema := make([]datatype.Field, len(p.fields))
		for i, fp := range p.fields {
			schema[i] = fp.field
		}
		p.schema = alkaid.NewSchema(schema, f.schema.Metadata())
	}
	if err := f.planFilter(p); err != nil {
		return nil, err
	}
	for _, pr := range cfg.preds {
		if f.leafByPath(pr.Column) < 0 {
			return nil, invalidf("WithPredicates: no column %q", pr.Column)
		}
	}
	groups := cfg.rowGroups
	if groups == nil {
		groups = make([]int, len(f.meta.RowGroups))
		for i := range groups {
			groups[i] = i
		}
	}
	for _, g := range groups {
		if g < 0 || g >= len(f.meta.RowGroups) {
			return nil, invalidf("WithRowGroups: row group %d out of range [0, %d)", g, len(f.meta.RowGroups))
		}
		gp := &groupPlan{index: g}
		if len(cfg.preds) > 0 {
			ok, err := f.rowGroupMayMatch(g, cfg.preds)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			sel, skip, err := f.pageSelection(g, cfg.preds)
			if err != nil {
				return nil, err
			}
			if skip {
				continue
			}
			if sel != nil {
				gp.sel = sel
				gp.pages, gp.have = make([][]*pageIndex, len(p.fields)), make([][]rowRange, len(p.fields))
				for i, fp := range p.fields {
					leaves := make([]*node, len(fp.leaves))
					for j, lp := range fp.leaves {
						leaves[j] = lp.leaf
					}
					if gp.pages[i], gp.have[i], err = f.fieldPages(g, leaves, sel); err != nil {
						return nil, err
					}
				}
			}
		}
		p.groups = append(p.groups, gp)
	}
	return p, nil
}

// project returns the indices of the top-level fields to read.
func (f *File) project(names []string) ([]int, error) {
	if names == nil {
		out := make([]int, f.schema.NumFields())
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	keep := make([]bool, f.schema.NumFields())
	for _, name := range names {
		found := false
		for i, c := range f.root.children {
			top := c.elem.Name
			if name == top || (len(name) > len(top) && name[:len(top)+1] == top+".") {
				keep[i], found = true, true
			}
		}
		if !found {
			return nil, invalidf("WithColumns: no column %q", name)
		}
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out, nil
}

// fieldPlan is how a top-level field is read: its type as read, a plan
// per leaf column, in column order, and the assembler of its array. The
// leaves of convert are converted to their shredded types before it
// runs; err, when set, is what assembling gives instead (a field whose
// leaves do not shred as its type says).
type fieldPlan struct {
	index   int // of the field in the file's schema
	field   datatype.Field
	leaves  []*leafPlan
	asm     fieldAssembler
	convert []int
	err     error
}

// leafPlan is how one leaf column becomes values of type vt (read from
// physical type phys): with dict, dictionary-encoded pages keep their
// indices for a dictionary array of that type; with bits (the leaf is the
// whole field, of maximum definition level 1), definition levels are read
// as a validity bitmap; with spread (and bits), values are placed in
// their slots as pages are decoded and become the field's array. build
// makes a batch's values by that layout. The leaf's shredded column is
// at path, of levels maxRep and maxDef (an optional map key's folded),
// its values of type want.
type leafPlan struct {
	leaf   *node
	vt     datatype.DataType
	phys   format.Type
	dict   *datatype.DictionaryType
	bits   bool
	spread bool
	build  leafBuilder
	path   []string
	want   datatype.DataType
	maxRep int
	maxDef int
}

// planFields makes the plans of the given top-level fields; asDict reads
// string and binary fields as dictionaries (WithDictionaryArrays).
func (f *File) planFields(fields []int, asDict bool) ([]*fieldPlan, error) {
	out := make([]*fieldPlan, len(fields))
	for i, fi := range fields {
		fld := f.schema.Field(fi)
		if asDict {
			fld = dictionaryField(fld, f.root.children[fi])
		}
		var err error
		if out[i], err = f.planField(fi, fld); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// planField makes the plan of top-level field fi read as fld.
func (f *File) planField(fi int, fld datatype.Field) (*fieldPlan, error) {
	top := f.root.children[fi]
	fp := &fieldPlan{index: fi, field: fld}
	var leaves []*node
	collectLeaves(top, &leaves)
	for _, l := range leaves {
		vt, err := leafType(l.elem)
		if err != nil {
			return nil, err
		}
		lp := &leafPlan{leaf: l, vt: vt, phys: *l.elem.Type, dict: indexedDictionary(fld, top),
			bits: top.column >= 0 && top.maxDef == 1 && top.maxRep == 0,
			path: l.path, maxRep: int(l.maxRep), maxDef: int(l.maxDef)}
		if lp.dict != nil && !datatype.Equal(lp.dict.Value, vt) {
			lp.dict = nil
		}
		lp.spread = lp.bits && lp.dict == nil && spreadable(fld, top)
		if l.optionalKey {
			lp.maxDef--
		}
		lp.build = chooseBuilder(lp)
		fp.leaves = append(fp.leaves, lp)
	}
	fp.shredded()
	return fp, nil
}

// shredded gives the field's leaves their shredded paths and types,
// marks those whose values need converting, and chooses the field's
// assembler; a field whose leaves do not shred as its type says gets the
// error assembling it gives.
func (fp *fieldPlan) shredded() {
	fp.asm = assembleNested
	sl, err := shred.Leaves(fp.field)
	if err != nil {
		fp.err = unsupportedf("%v", err)
		return
	}
	if len(sl) != len(fp.leaves) {
		fp.err = unsupportedf("%d shredded leaves for %d Parquet columns", len(sl), len(fp.leaves))
		return
	}
	for i, lp := range fp.leaves {
		l := sl[i]
		if l.MaxDef != lp.maxDef || l.MaxRep != lp.maxRep {
			fp.err = unsupportedf("column %q: levels (rep %d, def %d) unlike the type's (%d, %d)",
				pathString(lp.path), lp.maxRep, lp.maxDef, l.MaxRep, l.MaxDef)
			return
		}
		lp.path, lp.want = l.Path, l.Type
		if !datatype.Equal(lp.vt, l.Type) {
			fp.convert = append(fp.convert, i)
		}
	}
	fp.asm = chooseAssembler(fp.field, fp.leaves)
}
