package parquet

// Decoding a row group: leaf columns read and decoded (in parallel), then
// assembled into the arrays of the top-level fields.

import (
	"fmt"
	"sort"
	"sync"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/shred"
)

// readRowGroup decodes the given top-level fields of row group g; with
// sel, only the rows sel (see pageSelection).
func (f *File) readRowGroup(g int, fields []int, parallel int, asDict bool, sel []rowRange) (*alkaid.Record, error) {
	fieldOf := func(fi int) datatype.Field {
		fld := f.schema.Field(fi)
		if asDict {
			fld = dictionaryField(fld, f.root.children[fi])
		}
		return fld
	}
	rg := &f.meta.RowGroups[g]
	var jobs []job
	cols := make([][]shred.Column, len(fields))
	finals := make([]array.Array, len(fields))
	fieldJobs := make([][]job, len(fields))
	sizes := make([]int64, len(fields))     // uncompressed bytes of each field
	have := make([][]rowRange, len(fields)) // rows decoded of each field, with sel
	bitmaps := make([]defBitmap, len(fields))
	for i, fi := range fields {
		top := f.root.children[fi]
		var leaves []*node
		collectLeaves(top, &leaves)
		cols[i] = make([]shred.Column, len(leaves))
		var pis []*pageIndex
		if sel != nil {
			var err error
			if pis, have[i], err = f.fieldPages(g, leaves, sel); err != nil {
				return nil, err
			}
		}
		for j, l := range leaves {
			jb := job{leaf: l, out: &cols[i][j], dict: indexedDictionary(fieldOf(fi), top),
				spread: spreadable(fieldOf(fi), top), final: &finals[i]}
			if top.column >= 0 && top.maxDef == 1 && top.maxRep == 0 {
				jb.bits = &bitmaps[i]
			}
			if pis != nil {
				jb.keep, _ = keptPages(pis[j], have[i])
				jb.locs = pis[j].off.PageLocations
			}
			jobs = append(jobs, jb)
			fieldJobs[i] = append(fieldJobs[i], jb)
			if md := rg.Columns[l.column].MetaData; md != nil {
				sizes[i] += md.TotalUncompressedSize
			}
		}
	}
	schemaFields := make([]datatype.Field, len(fields))
	arrays := make([]array.Array, len(fields))
	assembleField := func(i int) error {
		fi := fields[i]
		fld := fieldOf(fi)
		schemaFields[i] = fld
		a := finals[i]
		if a == nil {
			var err error
			a, err = f.assemble(fld, f.root.children[fi], cols[i], &bitmaps[i])
			if err != nil {
				return fmt.Errorf("row group %d field %q: %w", g, fld.Name, err)
			}
		}
		if sel != nil {
			if int64(a.Len()) != rowCount(have[i]) {
				return invalidf("row group %d field %q: %d rows in pages of %d rows", g, fld.Name, a.Len(), rowCount(have[i]))
			}
			var err error
			if a, err = cutRows(a, have[i], sel); err != nil {
				return fmt.Errorf("parquet: row group %d field %q: %w", g, fld.Name, err)
			}
		} else if int64(a.Len()) != rg.NumRows {
			return invalidf("row group %d field %q: %d rows where the row group has %d", g, fld.Name, a.Len(), rg.NumRows)
		}
		arrays[i] = a
		return nil
	}
	var err error
	if len(fields) >= parallel || len(jobs) == len(fields) {
		// Enough fields to keep every goroutine busy: one job per field
		// (its leaves, then its array), the biggest first, with no wait
		// between decoding and assembling.
		order := make([]int, len(fields))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] > sizes[order[b]] })
		err = parallelDo(len(order), parallel, func(k int) error {
			i := order[k]
			for _, jb := range fieldJobs[i] {
				if err := f.readColumn(g, rg, jb); err != nil {
					return err
				}
			}
			return assembleField(i)
		})
	} else {
		// Few wide fields: leaves are decoded in parallel, then fields
		// assembled in parallel.
		err = parallelDo(len(jobs), parallel, func(k int) error {
			return f.readColumn(g, rg, jobs[k])
		})
		if err == nil {
			err = parallelDo(len(fields), parallel, assembleField)
		}
	}
	if err != nil {
		return nil, err
	}
	rows := rg.NumRows
	if sel != nil {
		rows = rowCount(sel)
	}
	return alkaid.NewRecord(alkaid.NewSchema(schemaFields, f.schema.Metadata()), arrays, int(rows))
}

// job is the decoding of one leaf column of a row group.
type job struct {
	leaf *node
	out  *shred.Column
	dict *datatype.DictionaryType // read as dictionary indices when set
	// bits, when set, receives the definition levels as a bitmap: the
	// leaf is the whole field and its maximum level is 1.
	bits *defBitmap
	// spread (with bits): readColumn builds the field's array in final
	// (see spreadable).
	spread bool
	final  *array.Array
	// keep, when set, marks the data pages to decode; locs is the offset
	// index.
	keep []bool
	locs []format.PageLocation
}

// spreadable reports whether a top-level field is one optional leaf of
// 4- or 8-byte values that PLAIN Parquet values give as they are (its
// array's values buffer is the decoded values placed in their slots).
func spreadable(fld datatype.Field, top *node) bool {
	if top.column < 0 || top.maxRep != 0 || top.maxDef != 1 || top.elem.Type == nil {
		return false
	}
	switch *top.elem.Type {
	case format.Int32, format.Int64, format.Float, format.Double:
	default:
		return false
	}
	vt, err := leafType(top.elem)
	if err != nil || !datatype.Equal(vt, fld.Type) {
		return false
	}
	w := datatype.ByteWidth(vt)
	return w == physicalWidth(top.elem) && fld.Type.Kind() != datatype.KindExtension
}

// dictionaryField gives a top-level string or binary field whose column
// is the field itself a dictionary<int32, _> type (WithDictionaryArrays).
func dictionaryField(fld datatype.Field, top *node) datatype.Field {
	k := fld.Type.Kind()
	if top.column < 0 || top.maxRep != 0 || (k != datatype.KindString && k != datatype.KindBinary) {
		return fld
	}
	dt, err := datatype.NewDictionary(datatype.Int32, fld.Type, false)
	if err != nil {
		return fld
	}
	fld.Type = dt
	return fld
}

// indexedDictionary returns the type of a top-level field stored as a
// dictionary of int32 indices whose column is the field itself: such a
// column can keep its Parquet dictionary indices.
func indexedDictionary(fld datatype.Field, top *node) *datatype.DictionaryType {
	dt, ok := fld.Type.(*datatype.DictionaryType)
	if !ok || top.column < 0 || top.maxRep != 0 || dt.Index.Kind() != datatype.KindInt32 {
		return nil
	}
	return dt
}

// dictionaryArray builds a dictionary array of type dt (int32 indices)
// from a chunk's dictionary values (of type vt) and its indices.
func dictionaryArray(dt *datatype.DictionaryType, vt datatype.DataType, phys format.Type, dict *values, idx []int32, where string) (array.Array, error) {
	dv, err := valueArray(vt, phys, dict, where)
	if err != nil {
		return nil, err
	}
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

// parallelDo runs do(0) .. do(n-1) on up to parallel goroutines and
// returns the error of the lowest index that failed.
func parallelDo(n, parallel int, do func(int) error) error {
	if parallel < 1 {
		parallel = 1
	}
	if parallel == 1 || n <= 1 {
		for i := range n {
			if err := do(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, parallel)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = do(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func collectLeaves(n *node, out *[]*node) {
	if n.column >= 0 {
		*out = append(*out, n)
		return
	}
	for _, c := range n.children {
		collectLeaves(c, out)
	}
}

// assemble turns the decoded leaves of a top-level field into an array;
// bits holds the definition levels of a leaf decoded as a bitmap.
func (f *File) assemble(fld datatype.Field, top *node, cols []shred.Column, bits *defBitmap) (array.Array, error) {
	leaves, err := shred.Leaves(fld)
	if err != nil {
		return nil, unsupportedf("%v", err)
	}
	if len(leaves) != len(cols) {
		return nil, unsupportedf("%d shredded leaves for %d Parquet columns", len(leaves), len(cols))
	}
	for i := range cols {
		l := leaves[i]
		if l.MaxDef != cols[i].MaxDef || l.MaxRep != cols[i].MaxRep {
			return nil, unsupportedf("column %q: levels (rep %d, def %d) unlike the type's (%d, %d)",
				pathString(cols[i].Path), cols[i].MaxRep, cols[i].MaxDef, l.MaxRep, l.MaxDef)
		}
		cols[i].Path = l.Path
		if _, kept := cols[i].Values.(*array.Dictionary); kept && len(cols) == 1 && datatype.Equal(cols[i].Values.DataType(), fld.Type) {
			// Dictionary indices kept by readColumn: flatLeaf places them.
			continue
		}
		if !datatype.Equal(cols[i].Values.DataType(), l.Type) {
			v, err := convertLeaf(cols[i].Values, l.Type)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", pathString(l.Path), err)
			}
			cols[i].Values = v
		}
	}
	if bits != nil && bits.valid != nil && len(cols) == 1 {
		if a, ok := flatLeafValid(fld, cols[0].Values, bits.valid, bits.n); ok {
			return a, nil
		}
		cols[0].Def = bits.levels()
	}
	if a, ok := flatLeaf(fld, cols); ok {
		return a, nil
	}
	if a, ok := flatList(fld, cols); ok {
		return a, nil
	}
	a, err := shred.Assemble(fld, cols)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w: %v", ErrInvalid, err)
	}
	return a, nil
}

// readColumn reads and decodes one column chunk of row group g into
// jb.out; with jb.dict, a chunk whose pages are all dictionary-encoded
// gives a dictionary array of that type; with jb.spread, the field's
// array is built in *jb.final.
func (f *File) readColumn(g int, rg *format.RowGroup, jb job) error {
	leaf, out, dict := jb.leaf, jb.out, jb.dict
	cc := &rg.Columns[leaf.column]
	where := fmt.Sprintf("row group %d column %q", g, pathString(leaf.path))
	if f.dec != nil && f.dec.locked[g][leaf.column] != nil {
		return f.dec.locked[g][leaf.column]
	}
	var data []byte
	if cc.MetaData.NumValues > 0 {
		start, n, err := f.chunkRange(cc, where)
		if err != nil {
			return err
		}
		if f.data != nil {
			data = f.data[start : start+n]
		} else {
			data = make([]byte, n)
			if _, err := f.r.ReadAt(data, start); err != nil {
				return fmt.Errorf("parquet: %s: reading %d bytes at %d: %w", where, n, start, err)
			}
		}
		if c := f.chunkCryptor(g, leaf.column); c != nil {
			dictFirst := cc.MetaData.DictionaryPageOffset != nil && *cc.MetaData.DictionaryPageOffset > 0
			if data, err = f.dec.decryptChunk(c, g, leaf.column, data, cc.MetaData.NumValues, dictFirst, where); err != nil {
				return err
			}
		}
	}
	vt, err := leafType(leaf.elem)
	if err != nil {
		return err
	}
	if dict != nil && !datatype.Equal(dict.Value, vt) {
		dict = nil
	}
	cr := &columnReader{leaf: leaf, meta: cc.MetaData, limits: f.cfg.limits, where: where, defBits: jb.bits != nil,
		spread: jb.bits != nil && jb.spread && dict == nil, keep: jb.keep, locs: jb.locs}
	if cr.keep != nil {
		cr.start, _, _ = f.chunkRange(cc, where)
	}
	ch, err := cr.readChunk(data, dict != nil)
	if err != nil {
		return err
	}
	if jb.bits != nil {
		// A chunk of no values has no bitmap yet.
		growBits(&ch.valid, ch.slots)
		*jb.bits = defBitmap{valid: ch.valid, n: ch.slots}
	}
	if cr.spread {
		a, err := spreadLeaf(vt, ch, where)
		if err != nil {
			return err
		}
		*jb.final = a
		return nil
	}
	var vals array.Array
	if ch.vals.keepIdx && cr.dict != nil {
		vals, err = dictionaryArray(dict, vt, *leaf.elem.Type, cr.dict, ch.vals.idx, where)
	} else {
		vals, err = valueArray(vt, *leaf.elem.Type, &ch.vals, where)
	}
	if err != nil {
		return err
	}
	*out = shred.Column{Path: leaf.path, MaxRep: int(leaf.maxRep), MaxDef: int(leaf.maxDef), Rep: ch.rep, Def: ch.def, Values: vals}
	if leaf.optionalKey {
		return foldOptionalKey(out, where)
	}
	return nil
}

// foldOptionalKey makes the levels of an optional map key those of a
// required one: the level of a present key drops by one; a null key (the
// level below) is an error.
func foldOptionalKey(c *shred.Column, where string) error {
	top := int16(c.MaxDef)
	for i, d := range c.Def {
		switch d {
		case top:
			c.Def[i] = top - 1
		case top - 1:
			return invalidf("%s: a null map key at entry %d", where, i)
		}
	}
	c.MaxDef--
	return nil
}
