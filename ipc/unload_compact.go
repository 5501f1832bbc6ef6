package ipc

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// The layouts below refer to their values by position rather than by
// range: views into data buffers, list views into a child, dense union
// slots into their children. A slice of such an array (a dictionary
// delta, a batch cut from a larger one) still refers to all of it, so the
// writer copies out what the slice uses when that saves bytes, and
// writes no more than the slice holds. Input that refers outside its
// buffers is written as it is, for the reader to report.

// views appends a view array's validity, views and data buffers.
func (u *unloaded) views(d *array.Data) {
	u.validity(d)
	views := d.Views()
	if out, data, ok := compactViews(d, views); ok {
		u.buffers = append(u.buffers, out)
		if data == nil {
			u.variadic = append(u.variadic, 0)
			return
		}
		u.buffers = append(u.buffers, data)
		u.variadic = append(u.variadic, 1)
		return
	}
	u.buffers = append(u.buffers, views)
	for _, b := range d.ViewDataBuffers() {
		u.buffers = append(u.buffers, b.Bytes())
	}
	u.variadic = append(u.variadic, int64(len(d.ViewDataBuffers())))
}

// compactViews copies the values that views refers to out of line into
// one new buffer, when they take under half of d's data buffers, and
// rewrites the views to point there (null slots become empty views).
func compactViews(d *array.Data, views []byte) (out, data []byte, ok bool) {
	total, used := 0, 0
	for _, b := range d.ViewDataBuffers() {
		total += b.Len()
	}
	for i := 0; i < len(views); i += 16 {
		n := int32(binary.LittleEndian.Uint32(views[i:]))
		if n <= array.ViewInlineMax || d.IsNull(i/16) {
			continue
		}
		if _, ok := array.CheckedViewValue(views[i:i+16], d.ViewDataBuffers()); !ok {
			return nil, nil, false
		}
		used += int(n)
	}
	if 2*used >= total {
		return nil, nil, false
	}
	out = make([]byte, len(views))
	if used > 0 {
		data = make([]byte, 0, used)
	}
	for i := 0; i < len(views); i += 16 {
		if d.IsNull(i / 16) {
			continue
		}
		v := out[i : i+16]
		copy(v, views[i:i+16])
		if int32(binary.LittleEndian.Uint32(v)) > array.ViewInlineMax {
			src, _ := array.CheckedViewValue(v, d.ViewDataBuffers())
			binary.LittleEndian.PutUint32(v[8:], 0)
			binary.LittleEndian.PutUint32(v[12:], uint32(len(data)))
			data = append(data, src...)
		}
	}
	return out, data, true
}

// listView appends a list view array's validity, offsets, sizes and the
// part of the child its non-empty slots use, the offsets rebased to it;
// null and empty slots become (0, 0). That part is the span from the
// first element used to the last, or, when the slots use under half of
// it, their elements gathered one slot after the other.
func listView[O int32 | int64](u *unloaded, d *array.Data) {
	u.validity(d)
	child := d.Children[0]
	offs, sizes := array.ListViewSpans[O](d)
	lo, hi, used := child.Length, 0, 0
	for i, o := range offs {
		s := sizes[i]
		if s == 0 || d.IsNull(i) {
			continue
		}
		if o < 0 || s < 0 || int64(o) > int64(child.Length)-int64(s) {
			lo, hi, used = 0, child.Length, child.Length // refers outside: as it is
			break
		}
		lo, hi, used = min(lo, int(o)), max(hi, int(o+s)), used+int(s)
	}
	if lo >= hi {
		lo, hi = 0, 0
	}
	var gathered *array.Data
	if 2*used < hi-lo {
		gathered = gatherSlots(child, offs, sizes, d)
	}
	if gathered == nil && lo == 0 && hi == child.Length {
		u.buffers = append(u.buffers, memory.BytesOf(offs), memory.BytesOf(sizes))
		u.data(child)
		return
	}
	newOffs, newSizes := make([]O, len(offs)), make([]O, len(offs))
	next := O(0)
	for i, o := range offs {
		s := sizes[i]
		if s == 0 || d.IsNull(i) {
			continue
		}
		newSizes[i] = s
		if gathered == nil {
			newOffs[i] = o - O(lo)
		} else {
			newOffs[i], next = next, next+s
		}
	}
	u.buffers = append(u.buffers, memory.BytesOf(newOffs), memory.BytesOf(newSizes))
	if gathered == nil {
		gathered = child.Slice(lo, hi)
	}
	u.data(gathered)
}

// gatherSlots concatenates the elements of d's non-empty slots (whose
// offsets and sizes are in range), nil when that fails (it could only
// overflow 32-bit offsets in a child).
func gatherSlots[O int32 | int64](child *array.Data, offs, sizes []O, d *array.Data) *array.Data {
	var parts []array.Array
	for i, o := range offs {
		if s := sizes[i]; s != 0 && d.IsValid(i) {
			parts = append(parts, array.MustMake(child.Slice(int(o), int(o+s))))
		}
	}
	a, err := array.Concatenate(parts...)
	if err != nil {
		return nil
	}
	return a.Data()
}

// denseUnion appends a dense union's type ids, offsets and the part of
// each child its slots use, the offsets rebased to it.
func (u *unloaded) denseUnion(d *array.Data, t *datatype.UnionType) {
	codes := memory.BytesOf(d.TypeCodes())
	offs := d.UnionOffsets()
	u.buffers = append(u.buffers, codes)
	index := t.ChildIndex()
	lo, hi := make([]int, len(d.Children)), make([]int, len(d.Children))
	for c, ch := range d.Children {
		lo[c] = ch.Length
	}
	ok := true
	for i, code := range codes {
		c := -1
		if int8(code) >= 0 {
			c = index[code]
		}
		if c < 0 || c >= len(d.Children) || offs[i] < 0 || int(offs[i]) >= d.Children[c].Length {
			ok = false
			break
		}
		lo[c], hi[c] = min(lo[c], int(offs[i])), max(hi[c], int(offs[i])+1)
	}
	shrinks := false
	for c, ch := range d.Children {
		if lo[c] >= hi[c] {
			lo[c], hi[c] = 0, 0
		}
		shrinks = shrinks || lo[c] > 0 || hi[c] < ch.Length
	}
	if !ok || !shrinks {
		u.buffers = append(u.buffers, memory.BytesOf(offs))
		for _, c := range d.Children {
			u.data(c)
		}
		return
	}
	newOffs := make([]int32, len(offs))
	for i, code := range codes {
		newOffs[i] = offs[i] - int32(lo[index[code]])
	}
	u.buffers = append(u.buffers, memory.BytesOf(newOffs))
	for c, ch := range d.Children {
		u.data(ch.Slice(lo[c], hi[c]))
	}
}
