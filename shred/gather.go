package shred

import (
	"bytes"

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
// and that the selected slots are valid. It runs on the array package's
// growable engine: runs of consecutive slots are copied as ranges, the
// rest gathered. Binary-view data buffers are shared with src; everything
// else is copied.
func gather(src array.Array, idx []int, path []string) (array.Array, error) {
	d := src.Data()
	t := d.Type
	n := len(idx)
	if datatype.StorageOf(t).Kind() == datatype.KindNull {
		return array.Make(&array.Data{Type: t, Length: n, NullCount: n})
	}
	g, err := array.NewGrowable(t, []*array.Data{d}, n)
	if err != nil {
		return nil, errorf(ErrNotSupported, path, "no leaf kernel for %s", t)
	}
	start := 0 // of the indices not yet appended
	flush := func(end int) {
		if end > start {
			g.ExtendIndices(0, idx[start:end])
		}
	}
	for k := 0; k < n; {
		i := idx[k]
		switch {
		case i == emptySlot:
			m := 1
			for k+m < n && idx[k+m] == emptySlot {
				m++
			}
			flush(k)
			g.AppendEmpty(m)
			k += m
			start = k
		case i >= 0:
			m := 1
			for k+m < n && idx[k+m] == i+m {
				m++
			}
			if m >= minRange {
				flush(k)
				g.ExtendRange(0, i, m)
				start = k + m
			}
			k += m
		default: // a null slot, gathered with its neighbours
			k++
		}
	}
	flush(n)
	out, err := g.Finish()
	if err != nil {
		return nil, errorf(ErrInvalid, path, "%v", err)
	}
	a, err := array.Make(out)
	if err != nil {
		return nil, errorf(ErrInvalid, path, "%v", err)
	}
	return a, nil
}

// minRange is the shortest run of consecutive slots that gather copies as
// one range rather than index by index.
const minRange = 8

// sameSlots reports whether slots i and j of a plain leaf array hold the
// same value (two nulls are the same).
func sameSlots(d *array.Data, i, j int) bool {
	vi, vj := slotValid(d, i), slotValid(d, j)
	if vi != vj || !vi {
		return vi == vj
	}
	storage := datatype.StorageOf(d.Type)
	if storage.Kind() == datatype.KindBool {
		b, off := d.BoolBits()
		return bitutil.GetBit(b, off+i) == bitutil.GetBit(b, off+j)
	}
	return bytes.Equal(slotBytes(d, storage, i), slotBytes(d, storage, j))
}

func slotValid(d *array.Data, i int) bool { return d.IsValid(i) }

// slotBytes returns the bytes of a valid slot of a fixed-width, binary or
// view array.
func slotBytes(d *array.Data, storage datatype.DataType, i int) []byte {
	switch storage.Kind() {
	case datatype.KindBinary, datatype.KindString:
		o := array.Offsets[int32](d)
		return d.BinaryBytes()[o[i]:o[i+1]]
	case datatype.KindLargeBinary, datatype.KindLargeString:
		o := array.Offsets[int64](d)
		return d.BinaryBytes()[o[i]:o[i+1]]
	case datatype.KindBinaryView, datatype.KindStringView:
		return d.ViewValue(i)
	}
	w := datatype.ByteWidth(storage)
	return d.ValueBytes()[i*w : i*w+w]
}
