package array

import (
	"github.com/alkaid-go/alkaid/datatype"
)

// listGrower: offsets (n+1, from 0) into a growing child.
type listGrower[O Offset] struct {
	g     *Growable
	t     datatype.DataType
	offs  []O
	child *Growable
}

func newListGrower[O Offset](g *Growable, t datatype.DataType) (grower, error) {
	child, err := g.child(0, datatype.Children(t)[0].Type, 0)
	if err != nil {
		return nil, err
	}
	l := &listGrower[O]{g: g, t: t, offs: reserve[O](g.hint + 1), child: child}
	l.offs = append(l.offs, 0)
	return l, nil
}

// next returns the child length as an offset, false (and the error
// recorded) when it overflows.
func (l *listGrower[O]) next(more int64) bool {
	if int64(l.child.Len())+more > maxOffset[O]() {
		l.g.fail(l.t, "%d child values overflow the offsets", int64(l.child.Len())+more)
		return false
	}
	return true
}

func (l *listGrower[O]) extendRange(s, start, n int) {
	offs := Offsets[O](l.g.srcs[s])[start : start+n+1]
	first, last := offs[0], offs[n]
	if !l.next(int64(last - first)) {
		return
	}
	shift := O(l.child.Len()) - first
	l.child.ExtendRange(s, int(first), int(last-first))
	base := len(l.offs)
	l.offs = growBy(l.offs, n)
	for i, o := range offs[1:] {
		l.offs[base+i] = o + shift
	}
}

func (l *listGrower[O]) extendIndices(s int, idx []int) bool {
	offs := Offsets[O](l.g.srcs[s])
	var size int64
	neg := 0
	for _, j := range idx {
		neg |= j
		if j >= 0 {
			size += int64(offs[j+1] - offs[j])
		}
	}
	if !l.next(size) {
		return neg < 0
	}
	base, pos := len(l.offs), O(l.child.Len())
	l.offs = growBy(l.offs, len(idx))
	cidx := make([]int, 0, size)
	for i, j := range idx {
		if j >= 0 {
			for k := offs[j]; k < offs[j+1]; k++ {
				cidx = append(cidx, int(k))
			}
			pos += offs[j+1] - offs[j]
		}
		l.offs[base+i] = pos
	}
	l.child.ExtendIndices(s, cidx)
	return neg < 0
}

func (l *listGrower[O]) appendNulls(n int) {
	base := len(l.offs)
	l.offs = growBy(l.offs, n)
	for i := range n {
		l.offs[base+i] = l.offs[base-1]
	}
}

func (l *listGrower[O]) appendEmpty(n int) bool { l.appendNulls(n); return true }

func (l *listGrower[O]) finish(out *Data) error {
	child, err := l.child.Finish()
	if err != nil {
		return err
	}
	out.Buffers = append(out.Buffers, bytesOf(l.offs[l.g.from:]))
	out.Children = []*Data{child}
	return nil
}

// listViewGrower: offsets and sizes. With one source the child is shared
// and offsets and sizes are copied as they are; with more, each range
// brings the part of its source's child that its non-empty slots use.
type listViewGrower[O Offset] struct {
	g     *Growable
	t     datatype.DataType
	offs  []O
	sizes []O
	child *Growable // nil when shared
}

func newListViewGrower[O Offset](g *Growable, t datatype.DataType) (grower, error) {
	l := &listViewGrower[O]{g: g, t: t, offs: reserve[O](g.hint), sizes: reserve[O](g.hint)}
	if len(g.srcs) > 1 || g.inPlace {
		var err error
		if l.child, err = g.child(0, datatype.Children(t)[0].Type, 0); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (l *listViewGrower[O]) extendRange(s, start, n int) {
	d := l.g.srcs[s]
	offs, sizes := ListViewSpans[O](d)
	offs, sizes = offs[start:start+n], sizes[start:start+n]
	base := len(l.offs)
	l.offs, l.sizes = growBy(l.offs, n), growBy(l.sizes, n)
	if l.child == nil {
		copy(l.offs[base:], offs)
		copy(l.sizes[base:], sizes)
		return
	}
	lo, hi := d.Child(0).Length, 0
	for i, sz := range sizes {
		if sz > 0 && d.IsValid(start+i) {
			lo, hi = min(lo, int(offs[i])), max(hi, int(offs[i]+sz))
		}
	}
	if lo >= hi {
		return // every slot (0, 0)
	}
	at := int64(l.child.Len())
	if at+int64(hi-lo) > maxOffset[O]() {
		l.g.fail(l.t, "child values overflow the offsets")
		return
	}
	l.child.ExtendRange(s, lo, hi-lo)
	for i, sz := range sizes {
		if sz > 0 && d.IsValid(start+i) {
			l.offs[base+i], l.sizes[base+i] = O(at)+offs[i]-O(lo), sz
		}
	}
}

func (l *listViewGrower[O]) extendIndices(s int, idx []int) bool {
	d := l.g.srcs[s]
	offs, sizes := ListViewSpans[O](d)
	base := len(l.offs)
	l.offs, l.sizes = growBy(l.offs, len(idx)), growBy(l.sizes, len(idx))
	if l.child == nil {
		gatherTyped(l.offs[base:], offs, idx)
		return gatherTyped(l.sizes[base:], sizes, idx)
	}
	neg := 0
	for i, j := range idx {
		neg |= j
		if j < 0 || sizes[j] == 0 || d.IsNull(j) {
			continue
		}
		at := int64(l.child.Len())
		if at+int64(sizes[j]) > maxOffset[O]() {
			l.g.fail(l.t, "child values overflow the offsets")
			break
		}
		l.child.ExtendRange(s, int(offs[j]), int(sizes[j]))
		l.offs[base+i], l.sizes[base+i] = O(at), sizes[j]
	}
	return neg < 0
}

func (l *listViewGrower[O]) appendNulls(n int) {
	l.offs, l.sizes = growBy(l.offs, n), growBy(l.sizes, n)
}

func (l *listViewGrower[O]) appendEmpty(n int) bool { l.appendNulls(n); return true }

func (l *listViewGrower[O]) finish(out *Data) error {
	out.Buffers = append(out.Buffers, bytesOf(l.offs[l.g.from:]), bytesOf(l.sizes[l.g.from:]))
	if l.child == nil {
		if len(l.g.srcs) == 0 {
			return invalidf("growable %s: no source for the child", l.t)
		}
		out.Children = []*Data{l.g.srcs[0].Child(0)}
		return nil
	}
	child, err := l.child.Finish()
	out.Children = []*Data{child}
	return err
}

// fixedSizeListGrower: size child values per slot.
type fixedSizeListGrower struct {
	g     *Growable
	size  int
	child *Growable
}

func newFixedSizeListGrower(g *Growable, t datatype.DataType) (grower, error) {
	size := int(t.(*datatype.ListType).Size())
	child, err := g.child(0, datatype.Children(t)[0].Type, g.hint*size)
	if err != nil {
		return nil, err
	}
	return &fixedSizeListGrower{g: g, size: size, child: child}, nil
}

func (f *fixedSizeListGrower) extendRange(s, start, n int) {
	off := f.g.srcs[s].Offset
	f.child.ExtendRange(s, (off+start)*f.size, n*f.size)
}

func (f *fixedSizeListGrower) extendIndices(s int, idx []int) bool {
	off, size := f.g.srcs[s].Offset, f.size
	cidx := make([]int, len(idx)*size)
	neg := 0
	for i, j := range idx {
		neg |= j
		for k := range size {
			if j < 0 {
				cidx[i*size+k] = -1
			} else {
				cidx[i*size+k] = (off+j)*size + k
			}
		}
	}
	f.child.ExtendIndices(s, cidx)
	return neg < 0
}

func (f *fixedSizeListGrower) appendNulls(n int) { f.child.AppendNulls(n * f.size) }

func (f *fixedSizeListGrower) appendEmpty(n int) bool {
	f.child.AppendEmpty(n * f.size)
	return true
}

func (f *fixedSizeListGrower) finish(out *Data) error {
	child, err := f.child.Finish()
	out.Children = []*Data{child}
	return err
}

// structGrower: each field grows with the struct, read from the struct's
// offset.
type structGrower struct {
	g        *Growable
	children []*Growable
}

func newStructGrower(g *Growable, t datatype.DataType) (grower, error) {
	fields := datatype.Children(t)
	st := &structGrower{g: g, children: make([]*Growable, len(fields))}
	for i, f := range fields {
		var err error
		if st.children[i], err = g.child(i, f.Type, g.hint); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// shifted returns idx moved by off, negative indices kept.
func shifted(idx []int, off int) []int {
	if off == 0 {
		return idx
	}
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = j
		if j >= 0 {
			out[i] = j + off
		}
	}
	return out
}

func (st *structGrower) extendRange(s, start, n int) {
	off := st.g.srcs[s].Offset
	for _, c := range st.children {
		c.ExtendRange(s, off+start, n)
	}
}

func (st *structGrower) extendIndices(s int, idx []int) bool {
	moved := shifted(idx, st.g.srcs[s].Offset)
	for _, c := range st.children {
		c.ExtendIndices(s, moved)
	}
	return hasNegative(idx)
}

func hasNegative(idx []int) bool {
	neg := 0
	for _, j := range idx {
		neg |= j
	}
	return neg < 0
}

func (st *structGrower) appendNulls(n int) {
	for _, c := range st.children {
		c.AppendNulls(n)
	}
}

func (st *structGrower) appendEmpty(n int) bool {
	for _, c := range st.children {
		c.AppendEmpty(n)
	}
	return true
}

func (st *structGrower) finish(out *Data) error {
	lead := -1
	if st.g.led {
		lead = st.g.at // the children are read from the struct's offset
	}
	out.Children = make([]*Data, len(st.children))
	for i, c := range st.children {
		var err error
		if out.Children[i], err = c.finish(lead); err != nil {
			return err
		}
	}
	return nil
}
