package array

import (
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// nullGrower: no buffers, every slot null.
type nullGrower struct{ g *Growable }

func newNullGrower(g *Growable, _ datatype.DataType) (grower, error) { return nullGrower{g}, nil }

func (nullGrower) extendRange(int, int, int)     {}
func (nullGrower) extendIndices(int, []int) bool { return false }
func (nullGrower) appendNulls(int)               {}
func (nullGrower) appendEmpty(int) bool          { return false }
func (r nullGrower) finish(out *Data) error      { out.NullCount = out.Length; return nil }

// boolGrower: values one bit per slot.
type boolGrower struct {
	g     *Growable
	bits  []byte
	n     int
	shift shiftCopies // in place
}

func newBoolGrower(g *Growable, _ datatype.DataType) (grower, error) {
	return &boolGrower{g: g, bits: reserve[byte](bitutil.BytesForBits(g.hint))}, nil
}

func (b *boolGrower) room(n int) {
	if need := bitutil.BytesForBits(b.n + n); need > len(b.bits) {
		b.bits = growBy(b.bits, need-len(b.bits))
	}
}

func (b *boolGrower) extendRange(s, start, n int) {
	b.room(n)
	src, off := b.g.srcs[s].BoolBits()
	bitutil.CopyBits(b.bits, b.n, src, off+start, n)
	b.n += n
}

func (b *boolGrower) extendIndices(s int, idx []int) bool {
	b.room(len(idx))
	src, off := b.g.srcs[s].BoolBits()
	neg := 0
	for i, j := range idx {
		neg |= j
		if j >= 0 && bitutil.GetBit(src, off+j) {
			p := b.n + i
			b.bits[p>>3] |= 1 << (p & 7)
		}
	}
	b.n += len(idx)
	return neg < 0
}

func (b *boolGrower) appendNulls(n int)      { b.room(n); b.n += n }
func (b *boolGrower) appendEmpty(n int) bool { b.appendNulls(n); return true }

func (b *boolGrower) finish(out *Data) error {
	b.room(0)
	bits := b.bits[:bitutil.BytesForBits(b.n)]
	if b.g.inPlace {
		bits, _ = b.shift.view(b.bits, b.n)
	}
	out.Buffers = append(out.Buffers, memory.NewBuffer(bits))
	return nil
}

// newFixedGrower picks the fixed-width grower of the type's width: a
// typed one for the widths of Go values, bytes for the others (fixed-size
// binary of any width).
func newFixedGrower(g *Growable, t datatype.DataType) (grower, error) {
	switch w := datatype.ByteWidth(t); w {
	case 1:
		return newTypedGrower[uint8](g), nil
	case 2:
		return newTypedGrower[uint16](g), nil
	case 4:
		return newTypedGrower[uint32](g), nil
	case 8:
		return newTypedGrower[uint64](g), nil
	case 16:
		return newTypedGrower[[2]uint64](g), nil
	case 32:
		return newTypedGrower[[4]uint64](g), nil
	default:
		return &bytesGrower{g: g, w: w, vals: reserve[byte](g.hint * w)}, nil
	}
}

// typedGrower: one T per slot. Null slots hold zero.
type typedGrower[T any] struct {
	g    *Growable
	src  [][]T // each source's values from its slot 0
	vals []T
}

func newTypedGrower[T any](g *Growable) *typedGrower[T] {
	f := &typedGrower[T]{g: g, src: make([][]T, len(g.srcs)), vals: reserve[T](g.hint)}
	for i, s := range g.srcs {
		f.src[i] = memory.ViewBytes[T](s.ValueBytes())
	}
	return f
}

func (f *typedGrower[T]) extendRange(s, start, n int) {
	f.vals = append(growBy(f.vals, n)[:len(f.vals)], f.src[s][start:start+n]...)
}

func (f *typedGrower[T]) extendIndices(s int, idx []int) bool {
	base := len(f.vals)
	f.vals = growBy(f.vals, len(idx))
	return gatherTyped(f.vals[base:], f.src[s], idx)
}

// gatherTyped sets dst[i] to src[idx[i]], leaving dst[i] (zero) for
// negative indices, and reports whether there was one.
func gatherTyped[T any](dst, src []T, idx []int) bool {
	dst = dst[:len(idx)]
	neg := 0
	for i, j := range idx {
		if j >= 0 {
			dst[i] = src[j]
		}
		neg |= j
	}
	return neg < 0
}

func (f *typedGrower[T]) appendNulls(n int)      { f.vals = growBy(f.vals, n) }
func (f *typedGrower[T]) appendEmpty(n int) bool { f.appendNulls(n); return true }

func (f *typedGrower[T]) addSource(d *Data) error {
	f.src = append(f.src[:0], memory.ViewBytes[T](d.ValueBytes()))
	return nil
}

func (f *typedGrower[T]) finish(out *Data) error {
	out.Buffers = append(out.Buffers, bytesOf(f.vals[f.g.from:]))
	return nil
}

// bytesGrower: w bytes per slot, for widths that are no Go value's.
type bytesGrower struct {
	g    *Growable
	w    int
	vals []byte
}

func (f *bytesGrower) extendRange(s, start, n int) {
	src := f.g.srcs[s].ValueBytes()
	f.vals = append(growBy(f.vals, n*f.w)[:len(f.vals)], src[start*f.w:(start+n)*f.w]...)
}

func (f *bytesGrower) extendIndices(s int, idx []int) bool {
	src := f.g.srcs[s].ValueBytes()
	base := len(f.vals)
	f.vals = growBy(f.vals, len(idx)*f.w)
	dst, w := f.vals[base:], f.w
	neg := 0
	for i, j := range idx {
		neg |= j
		if j >= 0 {
			copy(dst[i*w:(i+1)*w], src[j*w:(j+1)*w])
		}
	}
	return neg < 0
}

func (f *bytesGrower) appendNulls(n int)      { f.vals = growBy(f.vals, n*f.w) }
func (f *bytesGrower) appendEmpty(n int) bool { f.appendNulls(n); return true }

func (f *bytesGrower) finish(out *Data) error {
	out.Buffers = append(out.Buffers, memory.NewBuffer(capped(f.vals[f.g.from*f.w:])))
	return nil
}
