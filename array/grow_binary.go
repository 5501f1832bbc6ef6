package array

import (
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// binaryGrower: offsets (n+1, from 0) and the bytes they delimit.
type binaryGrower[O Offset] struct {
	g     *Growable
	t     datatype.DataType
	offs  []O
	data  []byte
	total int64 // bytes appended, which may exceed what O holds
}

func newBinaryGrower[O Offset](g *Growable, t datatype.DataType) (grower, error) {
	b := &binaryGrower[O]{g: g, t: t, offs: reserve[O](g.hint + 1)}
	b.offs = append(b.offs, 0)
	return b, nil
}

// add accounts for n more bytes; false (and the error recorded) when the
// offsets cannot address them.
func (b *binaryGrower[O]) add(n int64) bool {
	b.total += n
	if b.total > maxOffset[O]() {
		b.g.fail(b.t, "%d bytes overflow the offsets", b.total)
		return false
	}
	return true
}

func (b *binaryGrower[O]) extendRange(s, start, n int) {
	d := b.g.srcs[s]
	offs := Offsets[O](d)[start : start+n+1]
	first, last := offs[0], offs[n]
	if !b.add(int64(last - first)) {
		return
	}
	shift := O(len(b.data)) - first
	base := len(b.offs)
	b.offs = growBy(b.offs, n)
	for i, o := range offs[1:] {
		b.offs[base+i] = o + shift
	}
	b.data = append(growBy(b.data, int(last-first))[:len(b.data)], d.BinaryBytes()[first:last]...)
}

func (b *binaryGrower[O]) extendIndices(s int, idx []int) bool {
	d := b.g.srcs[s]
	offs := Offsets[O](d)
	var size int64
	neg := 0
	for _, j := range idx {
		neg |= j
		if j >= 0 {
			size += int64(offs[j+1] - offs[j])
		}
	}
	if !b.add(size) {
		return neg < 0
	}
	src := d.BinaryBytes()
	base, pos := len(b.offs), len(b.data)
	b.offs = growBy(b.offs, len(idx))
	b.data = growBy(b.data, int(size))
	dst, newOffs := b.data, b.offs[base:]
	for i, j := range idx {
		if j >= 0 {
			pos += copy(dst[pos:], src[offs[j]:offs[j+1]])
		}
		newOffs[i] = O(pos)
	}
	return neg < 0
}

func (b *binaryGrower[O]) appendNulls(n int) {
	base := len(b.offs)
	b.offs = growBy(b.offs, n)
	last := b.offs[base-1]
	for i := range n {
		b.offs[base+i] = last
	}
}

func (b *binaryGrower[O]) appendEmpty(n int) bool { b.appendNulls(n); return true }

func (b *binaryGrower[O]) finish(out *Data) error {
	out.Buffers = append(out.Buffers, bytesOf(b.offs[b.g.from:]), memory.NewBuffer(capped(b.data)))
	return nil
}

// viewGrower: 16-byte views (copied as two words); the sources' data
// buffers are shared, every source's appended once in source order, and
// long views moved past the buffers of the sources before theirs. In
// place, where sources keep coming, long values are copied into one data
// buffer of the grower's instead (see viewsOwned).
type viewGrower struct {
	g     *Growable
	src   [][][2]uint64
	shift []uint32 // per source: index of its first data buffer in the result
	views [][2]uint64
	data  []*memory.Buffer
	own   *viewsOwned // in place
}

func newViewGrower(g *Growable, _ datatype.DataType) (grower, error) {
	v := &viewGrower{g: g, src: make([][][2]uint64, len(g.srcs)), shift: make([]uint32, len(g.srcs)), views: reserve[[2]uint64](g.hint)}
	if g.inPlace {
		v.own = &viewsOwned{}
	}
	for i, s := range g.srcs {
		v.src[i] = memory.ViewBytes[[2]uint64](s.Views())
		v.shift[i] = uint32(len(v.data))
		v.data = append(v.data, s.ViewDataBuffers()...)
	}
	return v, nil
}

// move shifts the buffer index of the long views among vs.
func move(vs [][2]uint64, shift uint32) {
	if shift == 0 {
		return
	}
	for k := range vs {
		b := memory.BytesOf(vs[k : k+1])
		if int32(binary.LittleEndian.Uint32(b)) > ViewInlineMax {
			binary.LittleEndian.PutUint32(b[8:], binary.LittleEndian.Uint32(b[8:])+shift)
		}
	}
}

func (v *viewGrower) extendRange(s, start, n int) {
	base := len(v.views)
	v.views = append(growBy(v.views, n)[:base], v.src[s][start:start+n]...)
	v.place(s, base)
}

// place makes the long views from base on, of source s, point into the
// result's data buffers.
func (v *viewGrower) place(s, base int) {
	if v.own != nil {
		v.own.copyLong(v.g, v.views[base:], s)
		return
	}
	move(v.views[base:], v.shift[s])
}

func (v *viewGrower) extendIndices(s int, idx []int) bool {
	base := len(v.views)
	v.views = growBy(v.views, len(idx))
	neg := gatherTyped(v.views[base:], v.src[s], idx)
	v.place(s, base) // null slots are empty views: unmoved
	return neg
}

func (v *viewGrower) appendNulls(n int)      { v.views = growBy(v.views, n) }
func (v *viewGrower) appendEmpty(n int) bool { v.appendNulls(n); return true }

func (v *viewGrower) addSource(d *Data) error {
	v.src = append(v.src[:0], memory.ViewBytes[[2]uint64](d.Views()))
	v.own.bufs = append(v.own.bufs[:0], d.ViewDataBuffers())
	return nil
}

func (v *viewGrower) finish(out *Data) error {
	out.Buffers = append(out.Buffers, bytesOf(v.views[v.g.from:]))
	if v.own != nil {
		out.Buffers = append(out.Buffers, memory.NewBuffer(capped(v.own.data)))
		return nil
	}
	out.Buffers = append(out.Buffers, v.data...)
	return nil
}

// viewsOwned is the one data buffer of an in-place view grower: sharing
// every source's buffers would make each Data handed out list the data
// buffers of every array appended so far.
type viewsOwned struct {
	bufs [][]*memory.Buffer // per source, its data buffers
	data []byte
}

// copyLong copies the long values of views, of source s, into o.data
// and points the views at them.
func (o *viewsOwned) copyLong(g *Growable, views [][2]uint64, s int) {
	for k := range views {
		b := memory.BytesOf(views[k : k+1])
		if int32(binary.LittleEndian.Uint32(b)) <= ViewInlineMax {
			continue
		}
		val, ok := CheckedViewValue(b, o.bufs[s])
		if !ok || int64(len(o.data))+int64(len(val)) > math.MaxInt32 {
			g.fail(g.typ, "view %d of source %d does not fit the data buffer", k, s)
			return
		}
		binary.LittleEndian.PutUint32(b[8:], 0)
		binary.LittleEndian.PutUint32(b[12:], uint32(len(o.data)))
		o.data = append(growBy(o.data, len(val))[:len(o.data)], val...)
	}
}
