package parquet

// Decoding a row group: leaf columns read and decoded (in parallel), then
// assembled into the arrays of the top-level fields.

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/shred"
)

// rowGroupReader reads the planned fields of one row group batch by
// batch: each leaf column is opened once and read page after page.
type rowGroupReader struct {
	f         *File
	g         int
	rg        *format.RowGroup
	plans     []*fieldPlan
	schema    *alkaid.Schema // of the records
	parallel  int
	sel       []rowRange   // with a page selection: the rows read
	have      [][]rowRange // rows decoded of each field, with sel
	fieldJobs [][]*job
	jobs      []*job
	order     []int // fields, the biggest first
	left      int64 // rows not yet read
	filter    *filterPlan
}

// openRowGroup prepares the reading of the planned fields of row group
// gp.index; with gp.sel, only those rows (see groupPlan), in one batch.
func (f *File) openRowGroup(gp *groupPlan, p *readPlan, parallel int, b *budget, st *ReadStats) (*rowGroupReader, error) {
	g, plans, sel := gp.index, p.fields, gp.sel
	n := len(plans)
	r := &rowGroupReader{f: f, g: g, rg: &f.meta.RowGroups[g], plans: plans, schema: p.schema, parallel: parallel,
		sel: sel, have: gp.have, fieldJobs: make([][]*job, n), order: make([]int, n), filter: p.filter}
	if r.filter != nil {
		r.plans = slices.Clone(plans) // may change, see below
	}
	r.left = r.rg.NumRows
	if sel != nil {
		r.left = rowCount(sel)
	}
	sizes := make([]int64, n) // uncompressed bytes of each field
	fetched := f.prefetch(g, r.rg, plans)
	for i, fp := range plans {
		var pis []*pageIndex
		if sel != nil {
			pis = gp.pages[i]
		}
		for j, lp := range fp.leaves {
			jb := &job{leafPlan: lp}
			if pis != nil {
				jb.keep, _ = keptPages(pis[j], r.have[i])
				if st != nil {
					atomic.AddInt64(&st.PagesPruned, int64(countFalse(jb.keep)))
				}
				jb.locs = pis[j].off.PageLocations
			}
			if err := f.openColumn(g, r.rg, jb, b, fetched[lp.leaf.column]); err != nil {
				return nil, err
			}
			if alt := r.dictPlan(i); alt != nil && jb.cr.allDictionary() {
				// Under a row filter, a flat field whose chunk is all
				// dictionary-encoded keeps its indices until filtered.
				r.plans[i], jb.leafPlan = alt, alt.leaves[0]
				jb.cr.defBits, jb.cr.spread, jb.cr.scratchIdx = jb.bits, jb.spread, true
				if err := jb.cr.open(jb.cr.data, true); err != nil {
					return nil, err
				}
			}
			// A field read for the row filter alone is dropped once the
			// filter has run: its values go into memory reused after
			// the row group (see release).
			jb.cr.scratch = i >= p.schema.NumFields()
			r.jobs = append(r.jobs, jb)
			r.fieldJobs[i] = append(r.fieldJobs[i], jb)
			if md := r.rg.Columns[lp.leaf.column].MetaData; md != nil {
				sizes[i] += md.TotalUncompressedSize
			}
		}
	}
	for i := range r.order {
		r.order[i] = i
	}
	sort.SliceStable(r.order, func(a, b int) bool { return sizes[r.order[a]] > sizes[r.order[b]] })
	return r, nil
}

// dictPlan is the plan reading field i as a dictionary under the row
// filter, or nil.
func (r *rowGroupReader) dictPlan(i int) *fieldPlan {
	if r.filter == nil || i >= len(r.filter.asDict) {
		return nil // no filter, or a field read for the filter alone
	}
	return r.filter.asDict[i]
}

// release gives the memory the row group's column chunks were read into,
// the values of the fields read for the row filter alone, and the
// dictionaries no batch holds, back for reuse, once every batch of the row group is read. A reader
// left before its end (an error, a consumer that stopped) keeps it for
// the garbage collector.
func (r *rowGroupReader) release() {
	for _, jb := range r.jobs {
		if jb.cr == nil {
			continue
		}
		if jb.cr.owned != nil {
			putPageBuffer(jb.cr.owned)
			jb.cr.owned, jb.cr.data = nil, nil
		}
		for _, b := range jb.cr.lent {
			putPageBuffer(b)
		}
		jb.cr.lent = nil
		if jb.cr.dictLent && jb.cr.dict != nil && jb.cr.dictArr == nil {
			putPageBuffer(jb.cr.dict.fixed)
			jb.cr.dict, jb.cr.dictLent = nil, false
		}
	}
}

// countFalse counts the false values of bs.
func countFalse(bs []bool) int {
	n := 0
	for _, b := range bs {
		if !b {
			n++
		}
	}
	return n
}

// next reads the next batch of at most rows rows; nil after the last.
func (r *rowGroupReader) next(rows int64) (*alkaid.Record, error) {
	if r.left <= 0 {
		return nil, nil
	}
	if r.sel != nil {
		rows = r.left // the selected rows come in one batch
	}
	rows = min(rows, r.left)
	g, rg, fields := r.g, r.rg, r.plans
	want := rows // rows each field decodes to
	cols := make([][]shred.Column, len(fields))
	finals := make([]array.Array, len(fields))
	bitmaps := make([]defBitmap, len(fields))
	for i := range fields {
		cols[i] = make([]shred.Column, len(r.fieldJobs[i]))
	}
	arrays := make([]array.Array, len(fields))
	read := func(i, j int) error {
		n := want
		if r.sel != nil {
			n = rowCount(r.have[i])
		}
		return r.f.readColumn(r.fieldJobs[i][j], n, &cols[i][j], &finals[i], &bitmaps[i])
	}
	assembleField := func(i int) error {
		for _, jb := range r.fieldJobs[i] {
			if jb.cr.cut {
				return nil // built once the batch's rows are known
			}
		}
		fld := r.plans[i].field
		a := finals[i]
		if a == nil {
			var err error
			a, err = fields[i].assemble(cols[i], &bitmaps[i])
			if err != nil {
				return wrapf(err, "row group %d field %q", g, fld.Name)
			}
		}
		if r.sel != nil {
			if int64(a.Len()) != rowCount(r.have[i]) {
				return invalidf("row group %d field %q: %d rows in pages of %d rows", g, fld.Name, a.Len(), rowCount(r.have[i]))
			}
			var err error
			if a, err = cutRows(a, r.have[i], r.sel); err != nil {
				return wrapf(err, "row group %d field %q", g, fld.Name)
			}
		} else if int64(a.Len()) != want {
			return invalidf("row group %d field %q: %d rows from row %d where the row group has %d", g, fld.Name, a.Len(), rg.NumRows-r.left, rg.NumRows)
		}
		arrays[i] = a
		return nil
	}
	var err error
	if len(fields) >= r.parallel || len(r.jobs) == len(fields) {
		// Enough fields to keep every goroutine busy: one job per field
		// (its leaves, then its array), the biggest first, with no wait
		// between decoding and assembling.
		err = parallelDo(len(r.order), r.parallel, func(k int) error {
			i := r.order[k]
			for j := range r.fieldJobs[i] {
				if err := read(i, j); err != nil {
					return err
				}
			}
			return assembleField(i)
		})
	} else {
		// Few wide fields: leaves are decoded in parallel, then fields
		// assembled in parallel.
		var at [][2]int
		for i := range fields {
			for j := range r.fieldJobs[i] {
				at = append(at, [2]int{i, j})
			}
		}
		err = parallelDo(len(at), r.parallel, func(k int) error { return read(at[k][0], at[k][1]) })
		if err == nil {
			err = parallelDo(len(fields), r.parallel, assembleField)
		}
	}
	if err != nil {
		return nil, err
	}
	if k := r.fewest(want); k < want {
		// A column's byte arrays filled the batch before its rows did:
		// every column gives back the rows from k on.
		if r.sel != nil {
			return nil, limitf("row group %d: the selected rows' byte arrays of one column exceed %d bytes", g, maxBatchBytes)
		}
		for _, jb := range r.jobs {
			if jb.rows > k {
				if err := jb.cr.unread(jb.ch, k); err != nil {
					return nil, err
				}
				jb.rows = k
			}
			jb.cr.cut = false
		}
		want, rows = k, k
		err = parallelDo(len(fields), r.parallel, func(i int) error {
			finals[i], bitmaps[i] = nil, defBitmap{}
			for j, jb := range r.fieldJobs[i] {
				if err := jb.build(jb, jb.ch, &cols[i][j], &finals[i], &bitmaps[i]); err != nil {
					return err
				}
			}
			return assembleField(i)
		})
		if err != nil {
			return nil, err
		}
	}
	r.left -= rows
	if r.left == 0 {
		for _, jb := range r.jobs {
			// The pages a selection passes over need not be read.
			if jb.cr.spilled() > 0 || (r.sel == nil && !jb.cr.done()) {
				return nil, invalidf("%s: more rows than the row group's %d", jb.cr.where, rg.NumRows)
			}
		}
	}
	n := int(rows)
	if r.filter != nil {
		if arrays, n, err = r.filterRows(arrays, n); err != nil {
			return nil, err
		}
	}
	return alkaid.NewRecord(r.schema, arrays, n)
}

// fewest is the fewest rows a column whose batch was cut short holds
// (want when none was).
func (r *rowGroupReader) fewest(want int64) int64 {
	k := want
	for _, jb := range r.jobs {
		if jb.cr.cut {
			k = min(k, jb.rows)
		}
	}
	return k
}

// job is the reading of one leaf column of a row group, as planned.
type job struct {
	*leafPlan
	// keep, when set, marks the data pages to decode; locs is the offset
	// index.
	keep []bool
	locs []format.PageLocation
	cr   *columnReader
	// ch is the chunk of the batch being read, of rows rows.
	ch   *chunk
	rows int64
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

// openColumn prepares the reading of one column chunk of row group g;
// fetch, when not nil, returns the chunk's bytes as a Prefetcher fetched
// them.
func (f *File) openColumn(g int, rg *format.RowGroup, jb *job, b *budget, fetch func() ([]byte, error)) error {
	leaf := jb.leaf
	cc := &rg.Columns[leaf.column]
	where := fmt.Sprintf("row group %d column %q", g, pathString(leaf.path))
	if f.dec != nil && f.dec.locked[g][leaf.column] != nil {
		return f.dec.locked[g][leaf.column]
	}
	var data, owned []byte
	if cc.MetaData.NumValues > 0 {
		start, n, err := f.chunkRange(cc, where)
		if err != nil {
			return err
		}
		if f.data != nil {
			data = f.data[start : start+n]
		} else {
			if b.used.Add(n) > b.limit {
				return limitf("%s: reading %d bytes: the read has taken more than %d times the file's %d bytes plus %d (Limits.MaxCompressionRatio)",
					where, n, b.ratio, b.size, expansionAllowance)
			}
			if fetch != nil {
				// The Prefetcher's memory, read in place and never
				// given back to the pool: decoded values never alias
				// the chunk's bytes, as with NewFileBytes.
				if data, err = fetch(); err != nil {
					return ioErr(err, "%s: reading %d bytes at %d", where, n, start)
				}
				if int64(len(data)) != n {
					return ioErr(io.ErrUnexpectedEOF, "%s: reading %d bytes at %d: the prefetch gave %d", where, n, start, len(data))
				}
			} else {
				// Pooled memory (see release).
				data = pageBuffer(int(n))[:n]
				if _, err := f.r.ReadAt(data, start); err != nil {
					putPageBuffer(data)
					return ioErr(err, "%s: reading %d bytes at %d", where, n, start)
				}
				owned = data
			}
		}
		if c := f.chunkCryptor(g, leaf.column); c != nil {
			dictFirst := cc.MetaData.DictionaryPageOffset != nil && *cc.MetaData.DictionaryPageOffset > 0
			plain, err := f.dec.decryptChunk(c, g, leaf.column, data, cc.MetaData.NumValues, dictFirst, where)
			if owned != nil {
				putPageBuffer(owned) // the ciphertext is spent either way
			}
			if err != nil {
				return err
			}
			data, owned = plain, plain
		}
	}
	cr := &columnReader{leaf: leaf, meta: cc.MetaData, limits: f.cfg.limits, checkCRC: f.cfg.checkCRC, where: where, defBits: jb.bits,
		spread: jb.spread, keep: jb.keep, locs: jb.locs, budget: b, owned: owned}
	if cr.keep != nil {
		cr.start, _, _ = f.chunkRange(cc, where)
	}
	jb.cr = cr
	return cr.open(data, jb.dict != nil)
}

// readColumn reads the entries of the next rows rows of a column chunk
// and builds them by the leaf's plan (see leafBuilder).
func (f *File) readColumn(jb *job, rows int64, out *shred.Column, final *array.Array, bits *defBitmap) error {
	ch, err := jb.cr.next(rows)
	if err != nil {
		return err
	}
	jb.ch, jb.rows = ch, rows
	if jb.cr.cut {
		jb.rows = jb.cr.chunkRows(ch)
		// A batch cut short (see fitBytes): the row group reader cuts
		// the others and builds the arrays after.
		return nil
	}
	return jb.build(jb, ch, out, final, bits)
}
