package array

import (
	"encoding/binary"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// This file answers, for other packages, what the buffers of each layout
// mean. Every slot number is relative to the Data (slot 0 is the one at
// Offset), and every accessor expects data that passed [Validate] unless
// it says otherwise.

// IsNull reports whether slot i is null by the validity bitmap. Every slot
// of a null array is null; unions and run-end encoded arrays have no
// bitmap, so their slots are never null here (their children say).
func (d *Data) IsNull(i int) bool {
	if d.NullCount == 0 {
		return false
	}
	if len(d.Buffers) == 0 || d.Buffers[0] == nil {
		return datatype.StorageOf(d.Type).Kind() == datatype.KindNull
	}
	return !bitutil.GetBit(d.Buffers[0].Bytes(), d.Offset+i)
}

// IsValid reports whether slot i holds a value: !d.IsNull(i).
func (d *Data) IsValid(i int) bool { return !d.IsNull(i) }

// ValidityBitmap returns the validity bitmap and the bit of slot 0, or nil
// when no slot is null (or the layout has no bitmap).
//
//	bitmap  [. . . 1 0 1 1 ...]   bit (off+i) is slot i's, 1 = valid
func (d *Data) ValidityBitmap() (bits []byte, off int) {
	if d.NullCount == 0 || len(d.Buffers) == 0 || d.Buffers[0] == nil {
		return nil, 0
	}
	return d.Buffers[0].Bytes(), d.Offset
}

// BoolBits returns the value bitmap of boolean data and the bit of slot 0.
func (d *Data) BoolBits() (bits []byte, off int) {
	return d.Buffers[1].Bytes(), d.Offset
}

// ValueBytes returns the bytes of the Length fixed-width values of d from
// slot 0 (width bytes each, width being the storage type's byte width):
// primitives, decimals, intervals, fixed-size binary and dictionary
// indices. It is nil for zero-width or empty data.
func (d *Data) ValueBytes() []byte {
	w := d.valueWidth()
	if w == 0 || d.Length == 0 {
		return nil
	}
	return d.Buffers[1].Bytes()[d.Offset*w : (d.Offset+d.Length)*w]
}

// ValueBuffer returns the buffer of fixed-width values (or dictionary
// indices) whole, from the first byte (not from slot 0): for producers
// that share it rather than copy it.
func (d *Data) ValueBuffer() *memory.Buffer { return d.Buffers[1] }

// valueWidth is the byte width of one fixed-width value or index.
func (d *Data) valueWidth() int {
	t := datatype.StorageOf(d.Type)
	if dt, ok := t.(*datatype.DictionaryType); ok {
		return datatype.ByteWidth(dt.Index)
	}
	return datatype.ByteWidth(t)
}

// Values returns the Length fixed-width values of d from slot 0 as a
// slice of T, sharing d's memory. T must have the storage type's width
// (e.g. int32 for int32, date32 or dictionary indices of int32).
func Values[T FixedWidth](d *Data) []T {
	if d.Length == 0 {
		return nil
	}
	return memory.View[T](d.Buffers[1])[d.Offset : d.Offset+d.Length]
}

// Offsets returns the Length+1 offsets of binary, string, list or map
// data (O is int32, or int64 for the large types), not rebased to zero.
// An empty array that comes without offsets gets one zero offset.
//
//	offsets  [0 3 3 7]   slot i spans [offsets[i], offsets[i+1])
func Offsets[O Offset](d *Data) []O { return offsetsOf[O](d) }

// BinaryBytes returns the whole data buffer of binary or string data,
// which its offsets index.
func (d *Data) BinaryBytes() []byte { return d.Buffers[2].Bytes() }

// ListViewSpans returns the Length offsets and sizes of list-view data
// from slot 0: slot i spans child values [offs[i], offs[i]+sizes[i]).
func ListViewSpans[O Offset](d *Data) (offs, sizes []O) {
	if d.Length == 0 {
		return nil, nil
	}
	return memory.View[O](d.Buffers[1])[d.Offset : d.Offset+d.Length],
		memory.View[O](d.Buffers[2])[d.Offset : d.Offset+d.Length]
}

// Views returns the 16-byte views of binary-view data from slot 0
// (16*Length bytes); see [BinaryView] for their layout.
func (d *Data) Views() []byte {
	if d.Length == 0 {
		return nil
	}
	return d.Buffers[1].Bytes()[16*d.Offset : 16*(d.Offset+d.Length)]
}

// ViewDataBuffers returns the variadic data buffers of binary-view data,
// which long views index.
func (d *Data) ViewDataBuffers() []*memory.Buffer { return d.Buffers[2:] }

// ViewValue returns the bytes of slot i of binary-view data, inline or in
// a data buffer, without copying.
func (d *Data) ViewValue(i int) []byte {
	v := d.Buffers[1].Bytes()[16*(d.Offset+i) : 16*(d.Offset+i)+16]
	return viewValue(v, d.Buffers[2:])
}

// viewValue resolves view v against data buffers.
func viewValue(v []byte, data []*memory.Buffer) []byte {
	n := int(int32(binary.LittleEndian.Uint32(v)))
	if n <= ViewInlineMax {
		return v[4 : 4+n : 4+n]
	}
	buf := binary.LittleEndian.Uint32(v[8:])
	off := int(binary.LittleEndian.Uint32(v[12:]))
	return data[buf].Bytes()[off : off+n : off+n]
}

// CheckedViewValue is [Data.ViewValue] for a view whose buffer index,
// offset and length have not been checked: false when the view points
// outside the data buffers.
func CheckedViewValue(v []byte, data []*memory.Buffer) ([]byte, bool) {
	n := int64(int32(binary.LittleEndian.Uint32(v)))
	if n < 0 {
		return nil, false
	}
	if n <= ViewInlineMax {
		return v[4 : 4+n : 4+n], true
	}
	buf := int64(int32(binary.LittleEndian.Uint32(v[8:])))
	off := int64(int32(binary.LittleEndian.Uint32(v[12:])))
	if buf < 0 || buf >= int64(len(data)) || off < 0 || off+n > int64(data[buf].Len()) {
		return nil, false
	}
	return data[buf].Bytes()[off : off+n : off+n], true
}

// TypeCodes returns the Length type codes of union data from slot 0.
func (d *Data) TypeCodes() []int8 {
	if d.Length == 0 {
		return nil
	}
	return memory.View[int8](d.Buffers[0])[d.Offset : d.Offset+d.Length]
}

// UnionOffsets returns the Length offsets of dense union data from slot
// 0: slot i is value offs[i] of the child its type code selects.
func (d *Data) UnionOffsets() []int32 {
	if d.Length == 0 {
		return nil
	}
	return memory.View[int32](d.Buffers[1])[d.Offset : d.Offset+d.Length]
}

// Child returns child i (a list's values, a struct's field i, a union's
// member i, a run-end encoded array's run ends (0) or values (1)).
func (d *Data) Child(i int) *Data { return d.Children[i] }

// RunEnds returns the run ends of run-end encoded data (the physical run
// ends of its first child, of any width) as int64, copied. They are not
// cut to d's slice: slot i of d is in the first run whose end exceeds
// d.Offset+i.
func (d *Data) RunEnds() []int64 {
	e := d.Children[0]
	out := make([]int64, e.Length)
	switch datatype.ByteWidth(e.Type) {
	case 2:
		for i, v := range memory.View[int16](e.Buffers[1])[e.Offset : e.Offset+e.Length] {
			out[i] = int64(v)
		}
	case 4:
		for i, v := range memory.View[int32](e.Buffers[1])[e.Offset : e.Offset+e.Length] {
			out[i] = int64(v)
		}
	default:
		copy(out, memory.View[int64](e.Buffers[1])[e.Offset:e.Offset+e.Length])
	}
	return out
}

// RunEndAt returns run end i (of the physical run ends, as [Data.RunEnds]
// numbers them) of run-end encoded data, without copying them all.
func (d *Data) RunEndAt(i int) int64 {
	e := d.Children[0]
	switch datatype.ByteWidth(e.Type) {
	case 2:
		return int64(memory.View[int16](e.Buffers[1])[e.Offset+i])
	case 4:
		return int64(memory.View[int32](e.Buffers[1])[e.Offset+i])
	}
	return memory.View[int64](e.Buffers[1])[e.Offset+i]
}

// PhysicalIndex returns the run of run-end encoded data that holds slot
// i (binary search of the run ends).
func (d *Data) PhysicalIndex(i int) int {
	lo, hi := 0, d.Children[0].Length
	target := int64(d.Offset + i)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.RunEndAt(m) > target {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// LogicalRuns returns the run ends and values of run-end encoded data cut
// to its own slots: the runs that cover slots [0, Length), their ends
// counted from slot 0 and the last one cut to Length. Data that is not a
// slice comes back as it is, sharing everything; a slice gets new run
// ends and a slice of the values.
func (d *Data) LogicalRuns() (ends, values *Data) {
	ends, values = d.Children[0], d.Children[1]
	if d.Length == 0 {
		return ends.Slice(0, 0), values.Slice(0, 0)
	}
	if d.Offset == 0 && d.RunEndAt(ends.Length-1) == int64(d.Length) {
		return ends, values
	}
	first, last := d.PhysicalIndex(0), max(d.PhysicalIndex(d.Length-1), d.PhysicalIndex(0))
	runs := last - first + 1
	w := datatype.ByteWidth(ends.Type)
	buf := memory.Allocate(nil, runs*w)
	lo, hi := int64(d.Offset), int64(d.Offset+d.Length)
	for i := range runs {
		e := min(d.RunEndAt(first+i), hi) - lo
		switch w {
		case 2:
			memory.View[int16](buf)[i] = int16(e)
		case 4:
			memory.View[int32](buf)[i] = int32(e)
		default:
			memory.View[int64](buf)[i] = e
		}
	}
	return NewData(ends.Type, runs, []*memory.Buffer{nil, buf}, nil, 0, 0), values.Slice(first, first+runs)
}

// ValidityBuffer returns the validity bitmap buffer whole (bit Offset is
// slot 0's), or nil when there is none: for producers that share it.
func (d *Data) ValidityBuffer() *memory.Buffer {
	if len(d.Buffers) == 0 {
		return nil
	}
	return d.Buffers[0]
}

// WithValues returns a copy of fixed-width or dictionary data d whose
// values (or indices) are buf, read from the same Offset; everything else
// is shared.
func (d *Data) WithValues(buf *memory.Buffer) *Data {
	out := *d
	out.Buffers = append([]*memory.Buffer(nil), d.Buffers...)
	out.Buffers[1] = buf
	return &out
}
