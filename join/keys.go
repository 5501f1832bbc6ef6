package join

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// keyClass is what two key columns must share to be compared: the type
// after unwrapping extensions and dictionaries, with the string layouts
// (string, large string, string view) as one class and the binary
// layouts as another.
func keyClass(t datatype.DataType) (datatype.DataType, error) {
	t = datatype.StorageOf(t)
	if d, ok := t.(*datatype.DictionaryType); ok {
		t = datatype.StorageOf(d.Value)
	}
	switch t.Kind() {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		return datatype.String, nil
	case datatype.KindBinary, datatype.KindLargeBinary, datatype.KindBinaryView:
		return datatype.Binary, nil
	case datatype.KindBool:
		return t, nil
	}
	if !datatype.IsFixedWidth(t) || t.Kind() == datatype.KindNull {
		return nil, fmt.Errorf("type %s: %w (keys are numbers, decimals, temporal values, booleans, strings, binary and dictionaries of them)", t, datatype.ErrNotSupported)
	}
	return t, nil
}

// fixedKey reports whether a key of class t fits a uint64 (one column of
// at most 8 bytes), which selects the integer hash table.
func fixedKey(t datatype.DataType) bool {
	return t.Kind() == datatype.KindBool || datatype.IsFixedWidth(t) && datatype.ByteWidth(t) <= 8
}

// keyBatch is the encoded keys of a batch of rows: for the integer table
// one uint64 per row, otherwise the bytes of each row's key in arena
// between offs[i] and offs[i+1] with their hashes. null[i] is true when
// the key holds a null and nulls do not match.
type keyBatch struct {
	fixed []uint64
	arena []byte
	offs  []int
	hash  []uint64
	null  []bool
	nulls int // number of true slots of null
}

func (k *keyBatch) reset(n int, fixed bool) {
	if fixed {
		k.fixed = grow(k.fixed, n)
	} else {
		k.arena = k.arena[:0]
		k.offs = append(k.offs[:0], 0)
		k.hash = grow(k.hash, n)
	}
	k.null = grow(k.null, n)
	clear(k.null)
	k.nulls = 0
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// encodeFixed encodes one key column of at most 8 bytes. A null key is
// marked in k.null; nullsEqual keeps it as a key of its own (the table
// chains null keys apart).
func encodeFixed(k *keyBatch, a array.Array) error {
	n := a.Len()
	k.reset(n, true)
	if n == 0 {
		return nil
	}
	if d, ok := a.(*array.Dictionary); ok {
		var dict keyBatch
		if err := encodeFixed(&dict, d.Dictionary()); err != nil {
			return err
		}
		for i := range n {
			if d.IsNull(i) {
				k.null[i] = true
				continue
			}
			j := d.ValueIndex(i)
			k.fixed[i], k.null[i] = dict.fixed[j], dict.null[j]
		}
		k.countNulls()
		return nil
	}
	if e, ok := a.(*array.Extension); ok {
		return encodeFixed(k, e.Storage())
	}
	if b, ok := a.(*array.Boolean); ok {
		for i := range n {
			if b.Value(i) {
				k.fixed[i] = 1
			} else {
				k.fixed[i] = 0
			}
		}
	} else {
		raw, w, ok := array.FixedWidthBytes(a)
		if !ok {
			return fmt.Errorf("key column of type %s: %w", a.DataType(), datatype.ErrNotSupported)
		}
		switch w {
		case 1:
			for i := range n {
				k.fixed[i] = uint64(raw[i])
			}
		case 2:
			for i := range n {
				k.fixed[i] = uint64(binary.LittleEndian.Uint16(raw[2*i:]))
			}
		case 4:
			for i := range n {
				k.fixed[i] = uint64(binary.LittleEndian.Uint32(raw[4*i:]))
			}
		case 8:
			raw = raw[:8*n]
			for i := range n {
				k.fixed[i] = binary.LittleEndian.Uint64(raw[8*i:])
			}
		default:
			for i := range n {
				var v uint64
				for j := w - 1; j >= 0; j-- {
					v = v<<8 | uint64(raw[i*w+j])
				}
				k.fixed[i] = v
			}
		}
		switch datatype.StorageOf(a.DataType()).Kind() {
		case datatype.KindFloat16:
			for i, v := range k.fixed {
				k.fixed[i] = normFloat16(v)
			}
		case datatype.KindFloat32:
			for i, v := range k.fixed {
				k.fixed[i] = normFloat32(v)
			}
		case datatype.KindFloat64:
			for i, v := range k.fixed {
				k.fixed[i] = normFloat64(v)
			}
		}
	}
	if a.NullN() > 0 {
		for i := range n {
			k.null[i] = a.IsNull(i)
		}
	}
	k.countNulls()
	return nil
}

func (k *keyBatch) countNulls() {
	c := 0
	for _, b := range k.null {
		if b {
			c++
		}
	}
	k.nulls = c
}

// Float keys compare as DuckDB compares them in joins: -0 equals 0 and
// every NaN equals every other NaN. The encodings fold -0 into 0 and
// every NaN into one quiet NaN.
func normFloat64(v uint64) uint64 {
	f := math.Float64frombits(v)
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7ff8000000000000
	}
	return v
}

func normFloat32(v uint64) uint64 {
	f := math.Float32frombits(uint32(v))
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7fc00000
	}
	return v
}

func normFloat16(v uint64) uint64 {
	switch {
	case v&0x7fff == 0:
		return 0
	case v&0x7c00 == 0x7c00 && v&0x03ff != 0:
		return 0x7e00
	}
	return v
}

// encodeBytes encodes several key columns (or one wider than 8 bytes or
// of variable width): each row's key is, per column, a marker byte (0
// null, 1 value) and the value's bytes, strings and binary prefixed with
// their length, so that keys are equal exactly when every column's
// values are.
func encodeBytes(k *keyBatch, cols []array.Array, n int, nullsEqual bool) error {
	k.reset(n, false)
	if n == 0 {
		return nil
	}
	encs := make([]func(dst []byte, i int) ([]byte, bool), len(cols))
	for c, a := range cols {
		e, err := valueEncoder(a)
		if err != nil {
			return err
		}
		encs[c] = e
	}
	for i := range n {
		null := false
		for _, e := range encs {
			var isNull bool
			k.arena, isNull = e(k.arena, i)
			null = null || isNull
		}
		if null && !nullsEqual {
			k.null[i] = true
			k.nulls++
		}
		k.offs = append(k.offs, len(k.arena))
	}
	for i := range n {
		k.hash[i] = hashBytes(k.arena[k.offs[i]:k.offs[i+1]])
	}
	return nil
}

// valueEncoder returns a function appending the marker and bytes of
// slot i of a, and whether the slot is null.
func valueEncoder(a array.Array) (func(dst []byte, i int) ([]byte, bool), error) {
	switch a := a.(type) {
	case *array.Extension:
		return valueEncoder(a.Storage())
	case *array.Dictionary:
		inner, err := valueEncoder(a.Dictionary())
		if err != nil {
			return nil, err
		}
		return func(dst []byte, i int) ([]byte, bool) {
			if a.IsNull(i) {
				return append(dst, 0), true
			}
			return inner(dst, a.ValueIndex(i))
		}, nil
	case *array.Binary[int32]:
		return bytesEncoder(a, a.Value), nil
	case *array.Binary[int64]:
		return bytesEncoder(a, a.Value), nil
	case *array.BinaryView:
		return bytesEncoder(a, a.Value), nil
	case *array.Boolean:
		return func(dst []byte, i int) ([]byte, bool) {
			if a.IsNull(i) {
				return append(dst, 0), true
			}
			if a.Value(i) {
				return append(dst, 1, 1), false
			}
			return append(dst, 1, 0), false
		}, nil
	}
	raw, w, ok := array.FixedWidthBytes(a)
	if !ok {
		return nil, fmt.Errorf("key column of type %s: %w", a.DataType(), datatype.ErrNotSupported)
	}
	var norm func(uint64) uint64
	switch datatype.StorageOf(a.DataType()).Kind() {
	case datatype.KindFloat16:
		norm = normFloat16
	case datatype.KindFloat32:
		norm = normFloat32
	case datatype.KindFloat64:
		norm = normFloat64
	}
	return func(dst []byte, i int) ([]byte, bool) {
		if a.IsNull(i) {
			return append(dst, 0), true
		}
		v := raw[i*w : (i+1)*w]
		if norm == nil {
			return append(append(dst, 1), v...), false
		}
		var x uint64
		for j := w - 1; j >= 0; j-- {
			x = x<<8 | uint64(v[j])
		}
		x = norm(x)
		dst = append(dst, 1)
		for range w {
			dst = append(dst, byte(x))
			x >>= 8
		}
		return dst, false
	}, nil
}

func bytesEncoder(a array.Array, value func(int) []byte) func(dst []byte, i int) ([]byte, bool) {
	return func(dst []byte, i int) ([]byte, bool) {
		if a.IsNull(i) {
			return append(dst, 0), true
		}
		v := value(i)
		dst = binary.AppendUvarint(append(dst, 1), uint64(len(v)))
		return append(dst, v...), false
	}
}
