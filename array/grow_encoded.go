package array

import (
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// sparseGrower: type codes, and every child grows with the union.
type sparseGrower struct {
	g        *Growable
	t        *datatype.UnionType
	codes    []int8
	children []*Growable
}

func newSparseGrower(g *Growable, t datatype.DataType) (grower, error) {
	ut := t.(*datatype.UnionType)
	u := &sparseGrower{g: g, t: ut, codes: reserve[int8](g.hint), children: make([]*Growable, ut.NumFields())}
	for i, f := range ut.Fields() {
		var err error
		if u.children[i], err = g.child(i, f.Type, g.hint); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// nullCode is the type code of a null slot: the first child's, which
// gets a null value. A union without children has no null slot.
func nullCode(g *Growable, t *datatype.UnionType) (int8, bool) {
	if t.NumFields() == 0 {
		g.unsupported(t, "a null slot in a union without children")
		return 0, false
	}
	return t.TypeCodes()[0], true
}

func (u *sparseGrower) extendRange(s, start, n int) {
	u.codes = append(growBy(u.codes, n)[:len(u.codes)], u.g.srcs[s].TypeCodes()[start:start+n]...)
	off := u.g.srcs[s].Offset
	for _, c := range u.children {
		c.ExtendRange(s, off+start, n)
	}
}

func (u *sparseGrower) extendIndices(s int, idx []int) bool {
	base := len(u.codes)
	u.codes = growBy(u.codes, len(idx))
	neg := gatherTyped(u.codes[base:], u.g.srcs[s].TypeCodes(), idx)
	if neg {
		first, _ := nullCode(u.g, u.t)
		for i, j := range idx {
			if j < 0 {
				u.codes[base+i] = first
			}
		}
	}
	moved := shifted(idx, u.g.srcs[s].Offset)
	for _, c := range u.children {
		c.ExtendIndices(s, moved)
	}
	return neg
}

func (u *sparseGrower) appendNulls(n int) {
	first, _ := nullCode(u.g, u.t)
	base := len(u.codes)
	u.codes = growBy(u.codes, n)
	for i := range n {
		u.codes[base+i] = first
	}
	for _, c := range u.children {
		c.AppendNulls(n)
	}
}

func (u *sparseGrower) appendEmpty(int) bool { return false }

func (u *sparseGrower) finish(out *Data) error {
	out.Buffers = []*memory.Buffer{bytesOf(u.codes)}
	return finishAll(out, u.children)
}

// finishAll finishes children into out.Children.
func finishAll(out *Data, children []*Growable) error {
	out.Children = make([]*Data, len(children))
	for i, c := range children {
		var err error
		if out.Children[i], err = c.Finish(); err != nil {
			return err
		}
	}
	return nil
}

// denseGrower: type codes and offsets; each range brings the part of
// each child its slots use, each index the one child value it selects.
type denseGrower struct {
	g        *Growable
	t        *datatype.UnionType
	index    [128]int
	codes    []int8
	offs     []int32
	children []*Growable
}

func newDenseGrower(g *Growable, t datatype.DataType) (grower, error) {
	ut := t.(*datatype.UnionType)
	u := &denseGrower{g: g, t: ut, index: ut.ChildIndex(), codes: reserve[int8](g.hint), offs: reserve[int32](g.hint), children: make([]*Growable, ut.NumFields())}
	for i, f := range ut.Fields() {
		var err error
		if u.children[i], err = g.child(i, f.Type, 0); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// fits reports whether child c can take n more values, recording the
// error when it cannot.
func (u *denseGrower) fits(c, n int) bool {
	if int64(u.children[c].Len())+int64(n) > math.MaxInt32 {
		u.g.fail(u.t, "child %d overflows the offsets", c)
		return false
	}
	return true
}

func (u *denseGrower) extendRange(s, start, n int) {
	d := u.g.srcs[s]
	codes, offs := d.TypeCodes()[start:start+n], d.UnionOffsets()[start:start+n]
	nc := len(u.children)
	lo, hi := make([]int32, nc), make([]int32, nc) // hi: one past the last used, 0 when unused
	for c := range lo {
		lo[c] = math.MaxInt32
	}
	for i, code := range codes {
		c := u.index[code]
		lo[c], hi[c] = min(lo[c], offs[i]), max(hi[c], offs[i]+1)
	}
	base := make([]int32, nc)
	for c := range lo {
		base[c] = int32(u.children[c].Len())
		if hi[c] == 0 || !u.fits(c, int(hi[c]-lo[c])) {
			continue
		}
		u.children[c].ExtendRange(s, int(lo[c]), int(hi[c]-lo[c]))
	}
	at := len(u.offs)
	u.codes = append(growBy(u.codes, n)[:len(u.codes)], codes...)
	u.offs = growBy(u.offs, n)
	for i, code := range codes {
		c := u.index[code]
		u.offs[at+i] = offs[i] - lo[c] + base[c]
	}
}

func (u *denseGrower) extendIndices(s int, idx []int) bool {
	d := u.g.srcs[s]
	codes, offs := d.TypeCodes(), d.UnionOffsets()
	picks := make([][]int, len(u.children))
	at := len(u.offs)
	u.codes, u.offs = growBy(u.codes, len(idx)), growBy(u.offs, len(idx))
	neg := 0
	for i, j := range idx {
		neg |= j
		code, child := int8(0), -1 // child value -1: null
		if j >= 0 {
			code, child = codes[j], int(offs[j])
		} else if first, ok := nullCode(u.g, u.t); ok {
			code = first
		} else {
			return true
		}
		c := u.index[code]
		u.codes[at+i] = code
		u.offs[at+i] = int32(u.children[c].Len() + len(picks[c]))
		picks[c] = append(picks[c], child)
	}
	for c, p := range picks {
		if len(p) > 0 && u.fits(c, len(p)) {
			u.children[c].ExtendIndices(s, p)
		}
	}
	return neg < 0
}

func (u *denseGrower) appendNulls(n int) {
	first, ok := nullCode(u.g, u.t)
	if !ok || !u.fits(0, n) {
		return
	}
	at, c0 := len(u.codes), u.children[0].Len()
	u.codes, u.offs = growBy(u.codes, n), growBy(u.offs, n)
	for i := range n {
		u.codes[at+i], u.offs[at+i] = first, int32(c0+i)
	}
	u.children[0].AppendNulls(n)
}

func (u *denseGrower) appendEmpty(int) bool { return false }

func (u *denseGrower) finish(out *Data) error {
	out.Buffers = []*memory.Buffer{bytesOf(u.codes), bytesOf(u.offs)}
	return finishAll(out, u.children)
}

// runsGrower: run ends and one value per run; neighbours picked from the
// same run (or both null) share a run.
type runsGrower struct {
	g      *Growable
	t      *datatype.RunEndEncodedType
	ends   []int64
	values *Growable
	n      int
	enc    []byte // the first done ends, encoded at the run ends' width
	done   int
	// the run of the last slot: its source and run, run -1 for a null
	// run, source -1 when the next slot starts a run anyway
	lastSrc, lastRun int
}

func newRunEndsGrower(g *Growable, t datatype.DataType) (grower, error) {
	rt := t.(*datatype.RunEndEncodedType)
	values, err := g.child(1, rt.Values().Type, 0)
	if err != nil {
		return nil, err
	}
	return &runsGrower{g: g, t: rt, values: values, lastSrc: -1}, nil
}

func (r *runsGrower) extendRange(s, start, n int) {
	d := r.g.srcs[s]
	first, last := d.PhysicalIndex(start), d.PhysicalIndex(start+n-1)
	r.values.ExtendRange(s, first, last-first+1)
	from := int64(d.Offset + start)
	for p := first; p <= last; p++ {
		r.ends = append(r.ends, int64(r.n)+min(d.RunEndAt(p)-from, int64(n)))
	}
	r.n += n
	r.lastSrc = -1
}

func (r *runsGrower) extendIndices(s int, idx []int) bool {
	d := r.g.srcs[s]
	ends := d.RunEnds()
	var picks []int
	prev := -2 // run of the previous index: -1 null, -2 none yet
	if r.lastSrc == s || r.lastSrc >= 0 && r.lastRun == -1 {
		prev = r.lastRun
	}
	neg := 0
	for _, j := range idx {
		neg |= j
		p := -1
		if j >= 0 {
			logical := int64(d.Offset + j)
			if prev >= 0 && ends[prev] > logical && (prev == 0 || ends[prev-1] <= logical) {
				p = prev
			} else {
				p = searchEnds(ends, int(logical))
			}
		}
		r.n++
		if p == prev && len(r.ends) > 0 {
			r.ends[len(r.ends)-1] = int64(r.n)
			continue
		}
		r.ends = append(r.ends, int64(r.n))
		picks = append(picks, p)
		prev = p
	}
	r.values.ExtendIndices(s, picks)
	r.lastSrc, r.lastRun = s, prev
	return neg < 0
}

func (r *runsGrower) appendNulls(n int) {
	r.n += n
	if r.lastSrc >= 0 && r.lastRun == -1 && len(r.ends) > 0 {
		r.ends[len(r.ends)-1] = int64(r.n)
		return
	}
	r.values.AppendNulls(1)
	r.ends = append(r.ends, int64(r.n))
	r.lastSrc, r.lastRun = 0, -1
}

func (r *runsGrower) appendEmpty(int) bool { return false }

// addSource: the source replaced, the next slot starts a run.
func (r *runsGrower) addSource(*Data) error { r.lastSrc = -1; return nil }

func (r *runsGrower) finish(out *Data) error {
	rt := r.t.RunEnds().Type
	w := datatype.ByteWidth(rt)
	limit := int64(math.MaxInt64)
	switch w {
	case 2:
		limit = math.MaxInt16
	case 4:
		limit = math.MaxInt32
	}
	if int64(r.n) > limit {
		return &GrowError{Type: r.g.typ, Msg: fmt.Sprintf("length %d overflows the run ends", r.n), Err: ErrInvalid}
	}
	// Encode the ends not encoded yet; in place, the runs handed out are
	// never extended (the next slot starts a run).
	at := len(r.enc)
	r.enc = growBy(r.enc, (len(r.ends)-r.done)*w)
	add := r.enc[at:]
	for i, e := range r.ends[r.done:] {
		switch w {
		case 2:
			memory.ViewBytes[int16](add)[i] = int16(e)
		case 4:
			memory.ViewBytes[int32](add)[i] = int32(e)
		default:
			memory.ViewBytes[int64](add)[i] = e
		}
	}
	r.done, r.lastSrc = len(r.ends), -1
	values, err := r.values.Finish()
	if err != nil {
		return err
	}
	out.Children = []*Data{NewData(rt, len(r.ends), []*memory.Buffer{nil, memory.NewBuffer(capped(r.enc))}, nil, 0, 0), values}
	return nil
}
