package array

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/datatype"
)

// Concatenate returns one new array holding the slots of arrs in order.
// The arrays must have the same type (as [Equal] compares types; the
// result has the first one's) and may be slices at any offset. The result
// has offset 0 and fresh buffers, except that binary views keep pointing
// into the inputs' data buffers (appended, with view buffer indexes
// shifted), a dictionary shared by every input is reused and a single
// list-view input keeps its child (see [Growable]). Inputs with
// different dictionaries get one dictionary: the first input's followed by
// the values of the others it lacks, with indices remapped; it is an error
// when that dictionary has more values than the index type can address.
// It is also an error when offsets or run ends would overflow their type.
//
// The inputs must be valid as [ValidateSafe] checks (arrays from this
// package's builders and from the IPC readers are): Concatenate follows
// their offsets, views, type codes and run ends without checking them
// again, and may panic on data that only passed [Validate].
func Concatenate(arrs ...Array) (Array, error) {
	if len(arrs) == 0 {
		return nil, invalidf("concatenate: no arrays")
	}
	ds := make([]*Data, len(arrs))
	for i, a := range arrs {
		if a == nil {
			return nil, invalidf("concatenate: array %d is nil", i)
		}
		if !datatype.Equal(arrs[0].DataType(), a.DataType(), datatype.IgnoreMetadata()) {
			return nil, invalidf("concatenate: array %d has type %s, want %s", i, a.DataType(), arrs[0].DataType())
		}
		ds[i] = a.Data()
	}
	d, err := concatData(ds)
	if err != nil {
		return nil, err
	}
	return makeArray(d), nil
}

// concatData concatenates structurally valid data of one type on a
// [Growable]; its errors read "array: concatenate <type>: …".
func concatData(ds []*Data) (*Data, error) {
	total := 0
	for _, d := range ds {
		if d.Length > maxLen-total {
			return nil, fmt.Errorf("array: concatenate %s: %w: total length overflows", ds[0].Type, datatype.ErrLimit)
		}
		total += d.Length
	}
	g, err := newGrowable(ds[0].Type, ds, total)
	if err == nil {
		for i, d := range ds {
			g.ExtendRange(i, 0, d.Length)
		}
		var out *Data
		if out, err = g.Finish(); err == nil {
			return out, nil
		}
	}
	var ge *GrowError
	if errors.As(err, &ge) {
		// Reworded, still wrapping the sentinel.
		return nil, &reworded{msg: fmt.Sprintf("array: concatenate %s: %s", ge.Type, ge.Msg), err: ge.Err}
	}
	return nil, fmt.Errorf("array: concatenate %s: %w", ds[0].Type, err)
}

// reworded is an error with a message of its own wrapping a sentinel.
type reworded struct {
	msg string
	err error
}

func (e *reworded) Error() string { return e.msg }
func (e *reworded) Unwrap() error { return e.err }

func maxOffset[O Offset]() int64 {
	if sizeOf[O]() == 4 {
		return math.MaxInt32
	}
	return math.MaxInt64
}

// searchEnds returns the first run whose end is beyond logical slot i.
func searchEnds[T ~int16 | ~int32 | ~int64](e []T, i int) int {
	lo, hi := 0, len(e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int64(e[m]) > int64(i) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

func maxIndex(k datatype.Kind) uint64 {
	switch k {
	case datatype.KindInt8:
		return math.MaxInt8
	case datatype.KindInt16:
		return math.MaxInt16
	case datatype.KindInt32:
		return math.MaxInt32
	case datatype.KindUint8:
		return math.MaxUint8
	case datatype.KindUint16:
		return math.MaxUint16
	case datatype.KindUint32:
		return math.MaxUint32
	}
	return math.MaxInt64
}

// appendKey appends an encoding of slot i of a such that two slots with
// the same encoding hold equal values (nulls included). Floats are
// encoded by their bits, so 0 and -0 (or NaNs with different payloads)
// get different keys.
func appendKey(dst []byte, a Array, i int) []byte {
	if a.IsNull(i) {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	switch a := a.(type) {
	case *Boolean:
		if a.Value(i) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case *Binary[int32]:
		return appendBytesKey(dst, a.Value(i))
	case *Binary[int64]:
		return appendBytesKey(dst, a.Value(i))
	case *BinaryView:
		return appendBytesKey(dst, a.Value(i))
	case *FixedSizeBinary:
		return append(dst, a.Value(i)...)
	case ListLike:
		s, e := a.ValueOffsets(i)
		dst = binary.AppendUvarint(dst, uint64(e-s))
		for j := s; j < e; j++ {
			dst = appendKey(dst, a.ListValues(), j)
		}
		return dst
	case *Struct:
		for f := range a.fields {
			dst = appendKey(dst, a.fields[f], i)
		}
		return dst
	case *Union:
		c := a.codes[i]
		return appendKey(append(dst, byte(c)), a.children[a.index[c]], a.ValueOffset(i))
	case *Dictionary:
		// By value: a slot whose dictionary value is null is null.
		return appendKey(dst[:len(dst)-1], a.dict, a.ValueIndex(i))
	case *RunEndEncoded:
		return appendKey(dst[:len(dst)-1], a.values, a.PhysicalIndex(i))
	case *Extension:
		return appendKey(dst[:len(dst)-1], a.storage, i)
	}
	d := a.Data()
	w := datatype.ByteWidth(datatype.StorageOf(d.Type))
	return append(dst, d.Buffers[1].Bytes()[(d.Offset+i)*w:(d.Offset+i+1)*w]...)
}

func appendBytesKey(dst, v []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(v))), v...)
}
