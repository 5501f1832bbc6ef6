package parquet

// Filtering rows as they are read (WithRowFilter): the filter's fields
// are decoded, the keep function run over them, and every field of the
// batch cut to the rows it keeps. A flat field whose chunk is all
// dictionary-encoded is read as dictionary indices until then, so that
// only the kept rows' values are gathered.

import (
	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// rowFilter is what WithRowFilter gave.
type rowFilter struct {
	columns []string
	keep    func(*alkaid.Record) (*array.Boolean, error)
}

// filterPlan is the row filter as planned: the positions of its fields
// among the read's (those the read does not select come after the
// selected ones, read for the filter alone), the schema of the record
// keep gets, and for each selected field the plan reading it as a
// dictionary (nil when it is not read so).
type filterPlan struct {
	keep   func(*alkaid.Record) (*array.Boolean, error)
	fields []int
	schema *alkaid.Schema
	asDict []*fieldPlan
}

// planFilter plans the File's row filter over the fields p reads, adding
// the filter's fields p does not select.
func (f *File) planFilter(p *readPlan) error {
	rf := f.cfg.filter
	if rf == nil {
		return nil
	}
	fp := &filterPlan{keep: rf.keep}
	out := len(p.fields)
	isFilter := make([]bool, out)
	var fields []datatype.Field
	for _, name := range rf.columns {
		at := -1
		for i, pf := range p.fields {
			if pf.field.Name == name {
				at = i
			}
		}
		if at < 0 {
			fi := f.schema.FieldIndex(name)
			if fi < 0 {
				return invalidf("WithRowFilter: no column %q", name)
			}
			pf, err := f.planField(fi, f.schema.Field(fi))
			if err != nil {
				return err
			}
			p.fields = append(p.fields, pf)
			at = len(p.fields) - 1
		}
		if at < out {
			isFilter[at] = true
		}
		fp.fields = append(fp.fields, at)
		fields = append(fields, p.fields[at].field)
	}
	fp.schema = alkaid.NewSchema(fields, datatype.Metadata{})
	fp.asDict = make([]*fieldPlan, out)
	for i, pf := range p.fields[:out] {
		if isFilter[i] {
			continue
		}
		var err error
		if fp.asDict[i], err = f.dictPlan(pf); err != nil {
			return err
		}
	}
	p.filter = fp
	return nil
}

// dictPlan is the plan reading the field of pf as dictionary<int32, its
// type> from its column's dictionary indices, or nil when pf is not a
// flat column of a type read as it is stored (ints, floats, strings and
// binary).
func (f *File) dictPlan(pf *fieldPlan) (*fieldPlan, error) {
	if len(pf.leaves) != 1 || len(pf.convert) > 0 || pf.err != nil {
		return nil, nil
	}
	lp := pf.leaves[0]
	top := f.root.children[pf.index]
	if top.column < 0 || top.maxRep != 0 || lp.dict != nil || !datatype.Equal(lp.vt, pf.field.Type) {
		return nil, nil
	}
	switch pf.field.Type.Kind() {
	case datatype.KindInt32, datatype.KindInt64, datatype.KindFloat32, datatype.KindFloat64,
		datatype.KindString, datatype.KindBinary:
	default:
		return nil, nil
	}
	dt, err := datatype.NewDictionary(datatype.Int32, pf.field.Type, false)
	if err != nil {
		return nil, nil
	}
	fld := pf.field
	fld.Type = dt
	return f.planField(pf.index, fld)
}

// allDictionary reports whether every data page of the column chunk cr
// reads is dictionary-encoded: by the chunk's page encoding statistics
// when it has them, else by its encodings when they settle it (a
// dictionary encoding and no other value encoding), else by the page
// headers. A chunk that does not parse is not (its read reports why).
func (cr *columnReader) allDictionary() bool {
	m := cr.meta
	isDict := func(e format.Encoding) bool { return e == format.PlainDictionary || e == format.RLEDictionary }
	if len(m.EncodingStats) > 0 {
		data := false
		for _, st := range m.EncodingStats {
			if st.PageType != format.DataPage && st.PageType != format.DataPageV2 || st.Count == 0 {
				continue
			}
			if !isDict(st.Encoding) {
				return false
			}
			data = true
		}
		return data
	}
	dict, other := false, false
	for _, e := range m.Encodings {
		switch {
		case isDict(e):
			dict = true
		case e == format.RLE || e == format.BitPacked:
			// levels
		default:
			other = true // PLAIN may be the dictionary page's
		}
	}
	if !dict || !other {
		return dict
	}
	data := false
	for pos := 0; pos < len(cr.data); {
		var h format.PageHeader
		n, err := thrift.Unmarshal(cr.data[pos:], &h)
		if err != nil || n <= 0 || h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(cr.data)-pos-n {
			return false
		}
		pos += n + int(h.CompressedPageSize)
		switch {
		case h.Type == format.DataPage && h.DataPageHeader != nil:
			if !isDict(h.DataPageHeader.Encoding) {
				return false
			}
		case h.Type == format.DataPageV2 && h.DataPageHeaderV2 != nil:
			if !isDict(h.DataPageHeaderV2.Encoding) {
				return false
			}
		case h.Type == format.DataPage || h.Type == format.DataPageV2:
			return false
		default:
			continue
		}
		data = true
	}
	return data
}

// filterRows runs the row filter over the batch's arrays (rows rows;
// after the selected fields' come those read for the filter alone) and
// returns the selected fields' cut to the rows it keeps, those read as
// dictionaries decoded to their types, and the number of rows kept.
func (r *rowGroupReader) filterRows(arrays []array.Array, rows int) ([]array.Array, int, error) {
	fp := r.filter
	in := make([]array.Array, len(fp.fields))
	for k, i := range fp.fields {
		in[k] = arrays[i]
	}
	rec, err := alkaid.NewRecord(fp.schema, in, rows)
	if err != nil {
		return nil, 0, wrapf(err, "row group %d: WithRowFilter", r.g)
	}
	keep, err := fp.keep(rec)
	if err != nil {
		return nil, 0, err // the caller's own error, as it gave it
	}
	if keep == nil || keep.Len() != rows {
		n := -1
		if keep != nil {
			n = keep.Len()
		}
		return nil, 0, invalidf("WithRowFilter: keep returned %d values for %d rows", n, rows)
	}
	// The fields read as dictionaries are filtered as their indices,
	// then their kept values taken from the dictionary.
	n := r.schema.NumFields()
	fields := make([]datatype.Field, n)
	cut := make([]array.Array, n)
	for i, a := range arrays[:n] {
		cut[i] = a
		if d, ok := a.(*array.Dictionary); ok && !datatype.Equal(a.DataType(), r.schema.Field(i).Type) {
			cut[i] = d.Indices()
		}
		fields[i] = datatype.Field{Name: r.schema.Field(i).Name, Type: cut[i].DataType(), Nullable: true}
	}
	all, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cut, rows)
	if err == nil {
		all, err = compute.FilterRecord(all, keep)
	}
	if err != nil {
		return nil, 0, wrapf(err, "row group %d: WithRowFilter", r.g)
	}
	out := make([]array.Array, n)
	for i := range out {
		out[i] = all.Column(i)
		if d, ok := arrays[i].(*array.Dictionary); ok && cut[i] != arrays[i] {
			if out[i], err = takeDictionary(d.Dictionary(), out[i]); err != nil {
				return nil, 0, wrapf(err, "row group %d field %q", r.g, r.schema.Field(i).Name)
			}
		}
	}
	return out, all.NumRows(), nil
}

// takeDictionary is the values of the dictionary dv at the indices idx
// (null where an index is): 4- and 8-byte values gathered word by word,
// others by compute.Take.
func takeDictionary(dv, idx array.Array) (array.Array, error) {
	raw, w, ok := array.FixedWidthBytes(dv)
	xi, isInt32 := idx.(*array.Int32)
	if !ok || !isInt32 || dv.NullN() > 0 || (w != 4 && w != 8) {
		return compute.Take(dv, idx)
	}
	xs := xi.Values()
	out := rawmem.Fillable(len(xs) * w)
	var bad int
	if w == 8 {
		bad = gatherChecked(memory.ViewBytes[uint64](out), memory.ViewBytes[uint64](raw)[:dv.Len()], xs, xi)
	} else {
		bad = gatherChecked(memory.ViewBytes[uint32](out), memory.ViewBytes[uint32](raw)[:dv.Len()], xs, xi)
	}
	if bad >= 0 {
		return nil, invalidf("dictionary index %d at value %d out of range [0, %d)", xs[bad], bad, dv.Len())
	}
	var valid *memory.Buffer
	nulls := idx.NullN()
	if nulls > 0 {
		bits, off := idx.Data().ValidityBitmap()
		b := make([]byte, bitutil.BytesForBits(len(xs)))
		bitutil.CopyBits(b, 0, bits, off, len(xs))
		valid = memory.NewBuffer(b)
	}
	return array.Make(array.NewData(dv.DataType(), len(xs), []*memory.Buffer{valid, memory.NewBuffer(out)}, nil, nulls, 0))
}

// gatherChecked sets out[i] to dict[xs[i]], zero where idx is null and
// the index out of range; it returns the first slot whose non-null index
// is out of range, or -1.
func gatherChecked[T uint32 | uint64](out, dict []T, xs []int32, idx *array.Int32) int {
	out = out[:len(xs)]
	for i, x := range xs {
		if uint32(x) < uint32(len(dict)) {
			out[i] = dict[x]
			continue
		}
		if idx.IsValid(i) {
			return i
		}
		out[i] = 0
	}
	return -1
}
