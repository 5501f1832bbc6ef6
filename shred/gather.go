package shred

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Special indices of gather.
const (
	nullSlot  = -1 // a null slot
	emptySlot = -2 // a valid slot holding the type's empty value (0, "")
)

func alloc(n int) []byte { return memory.DefaultAllocator.Allocate(n) }

// gather returns an array of src's type (a leaf type without dictionary or
// run-end encoding) whose slot k is src's slot idx[k], or a null or empty
// slot for the special indices. The caller guarantees idx[k] < src.Len()
// and that the selected slots are valid. Binary-view data buffers are
// shared with src; everything else is copied.
func gather(src array.Array, idx []int, path []string) (array.Array, error) {
	d := src.Data()
	t := d.Type
	n := len(idx)
	var valid []byte
	nulls := 0
	for k, i := range idx {
		if i == nullSlot {
			if valid == nil {
				valid = alloc(bitutil.BytesForBits(n))
				bitutil.SetBitsTo(valid, 0, k, true)
			}
			nulls++
		} else if valid != nil {
			bitutil.SetBit(valid, k)
		}
	}
	var vbuf *memory.Buffer
	if nulls > 0 {
		vbuf = memory.NewBuffer(valid[:bitutil.BytesForBits(n)])
	}
	var bufs []*memory.Buffer
	storage := datatype.StorageOf(t)
	switch k := storage.Kind(); {
	case k == datatype.KindNull:
		return array.Make(&array.Data{Type: t, Length: n, NullCount: n})
	case k == datatype.KindBool:
		bits := d.Buffers[1].Bytes()
		out := alloc(bitutil.BytesForBits(n))
		for k, i := range idx {
			if i >= 0 && bitutil.GetBit(bits, d.Offset+i) {
				bitutil.SetBit(out, k)
			}
		}
		bufs = []*memory.Buffer{vbuf, memory.NewBuffer(out)}
	case datatype.IsFixedWidth(storage):
		w := datatype.ByteWidth(storage)
		out := alloc(n * w)
		if n > 0 && w > 0 {
			gatherFixed(out, d.Buffers[1].Bytes()[d.Offset*w:], w, idx)
		}
		bufs = []*memory.Buffer{vbuf, memory.NewBuffer(out[:n*w])}
	case k == datatype.KindBinary || k == datatype.KindString:
		ob, db, err := gatherBinary[int32](d, idx, path)
		if err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{vbuf, ob, db}
	case k == datatype.KindLargeBinary || k == datatype.KindLargeString:
		ob, db, err := gatherBinary[int64](d, idx, path)
		if err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{vbuf, ob, db}
	case k == datatype.KindBinaryView || k == datatype.KindStringView:
		out := alloc(16 * n)
		if n > 0 {
			views := d.Buffers[1].Bytes()[16*d.Offset:]
			for k, i := range idx {
				if i >= 0 {
					copy(out[16*k:16*k+16], views[16*i:16*i+16])
				}
			}
		}
		bufs = append([]*memory.Buffer{vbuf, memory.NewBuffer(out[:16*n])}, d.Buffers[2:]...)
	default:
		return nil, errorf(ErrNotSupported, path, "no leaf kernel for %s", t)
	}
	a, err := array.Make(array.NewData(t, n, bufs, nil, nulls, 0))
	if err != nil {
		return nil, errorf(ErrInvalid, path, "%v", err)
	}
	return a, nil
}

// gatherFixed copies w-byte values src[idx[k]] to dst[k], leaving the
// special indices zero.
func gatherFixed(dst, src []byte, w int, idx []int) {
	if len(idx) > 0 && idx[0] >= 0 && idx[len(idx)-1] == idx[0]+len(idx)-1 && consecutive(idx) {
		copy(dst, src[idx[0]*w:(idx[0]+len(idx))*w])
		return
	}
	switch w {
	case 1:
		gatherT(dst, src, idx)
	case 2:
		gatherT(memory.ViewBytes[uint16](dst), memory.ViewBytes[uint16](src), idx)
	case 4:
		gatherT(memory.ViewBytes[uint32](dst), memory.ViewBytes[uint32](src), idx)
	case 8:
		gatherT(memory.ViewBytes[uint64](dst), memory.ViewBytes[uint64](src), idx)
	case 16:
		gatherT(memory.ViewBytes[[2]uint64](dst), memory.ViewBytes[[2]uint64](src), idx)
	default:
		for k, i := range idx {
			if i >= 0 {
				copy(dst[k*w:k*w+w], src[i*w:i*w+w])
			}
		}
	}
}

// consecutive reports whether idx counts up by one.
func consecutive(idx []int) bool {
	for k := 1; k < len(idx); k++ {
		if idx[k] != idx[k-1]+1 {
			return false
		}
	}
	return true
}

func gatherT[T any](dst, src []T, idx []int) {
	for k, i := range idx {
		if i >= 0 {
			dst[k] = src[i]
		}
	}
}

func gatherBinary[O int32 | int64](d *array.Data, idx []int, path []string) (*memory.Buffer, *memory.Buffer, error) {
	var offs []O
	var data []byte
	if d.Length > 0 {
		offs = memory.View[O](d.Buffers[1])[d.Offset:]
		data = d.Buffers[2].Bytes()
	}
	total := 0
	for _, i := range idx {
		if i >= 0 {
			total += int(offs[i+1] - offs[i])
		}
	}
	var zero O
	if _, is32 := any(zero).(int32); is32 && total > math.MaxInt32 {
		return nil, nil, errorf(ErrInvalid, path, "%d bytes of values overflow 32-bit offsets", total)
	}
	ob := alloc((len(idx) + 1) * int(binary.Size(zero)))
	out := memory.ViewBytes[O](ob)[:len(idx)+1]
	db := alloc(total)
	pos := 0
	for k := 0; k < len(idx); {
		i := idx[k]
		if i < 0 {
			out[k+1] = O(pos)
			k++
			continue
		}
		// Copy a run of consecutive slots at once.
		m := 1
		for k+m < len(idx) && idx[k+m] == i+m {
			m++
		}
		delta := O(pos) - offs[i]
		for j := 1; j <= m; j++ {
			out[k+j] = offs[i+j] + delta
		}
		pos += copy(db[pos:], data[offs[i]:offs[i+m]])
		k += m
	}
	return memory.NewBuffer(memory.BytesOf(out)), memory.NewBuffer(db[:total]), nil
}

// sameSlots reports whether slots i and j of a plain leaf array hold the
// same value (two nulls are the same).
func sameSlots(d *array.Data, i, j int) bool {
	vi, vj := slotValid(d, i), slotValid(d, j)
	if vi != vj || !vi {
		return vi == vj
	}
	storage := datatype.StorageOf(d.Type)
	if storage.Kind() == datatype.KindBool {
		b := d.Buffers[1].Bytes()
		return bitutil.GetBit(b, d.Offset+i) == bitutil.GetBit(b, d.Offset+j)
	}
	return bytes.Equal(slotBytes(d, storage, i), slotBytes(d, storage, j))
}

func slotValid(d *array.Data, i int) bool {
	if datatype.StorageOf(d.Type).Kind() == datatype.KindNull {
		return false
	}
	return d.NullCount == 0 || d.Buffers[0] == nil || bitutil.GetBit(d.Buffers[0].Bytes(), d.Offset+i)
}

// slotBytes returns the bytes of a valid slot of a fixed-width, binary or
// view array.
func slotBytes(d *array.Data, storage datatype.DataType, i int) []byte {
	i += d.Offset
	switch storage.Kind() {
	case datatype.KindBinary, datatype.KindString:
		o := memory.View[int32](d.Buffers[1])
		return d.Buffers[2].Bytes()[o[i]:o[i+1]]
	case datatype.KindLargeBinary, datatype.KindLargeString:
		o := memory.View[int64](d.Buffers[1])
		return d.Buffers[2].Bytes()[o[i]:o[i+1]]
	case datatype.KindBinaryView, datatype.KindStringView:
		v := d.Buffers[1].Bytes()[16*i : 16*i+16]
		n := int(int32(binary.LittleEndian.Uint32(v)))
		if n <= array.ViewInlineMax {
			return v[4 : 4+n]
		}
		buf := binary.LittleEndian.Uint32(v[8:])
		off := int(binary.LittleEndian.Uint32(v[12:]))
		return d.Buffers[2+buf].Bytes()[off : off+n]
	}
	w := datatype.ByteWidth(storage)
	return d.Buffers[1].Bytes()[i*w : i*w+w]
}
