package compute

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/memory"
)

// Errors a caller can branch on with errors.Is. Every error of this
// package wraps one of them and starts with "compute: ". The finer kinds
// (overflow, division by zero, an index out of bounds) are also
// [datatype.ErrInvalid]: errors.Is(err, ErrInvalid) holds for them too.
var (
	// ErrInvalid is datatype.ErrInvalid: the inputs do not fit together
	// (different lengths, different types, a mask that is not the array's
	// length, …).
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: the operation is not
	// defined for the type.
	ErrNotSupported = datatype.ErrNotSupported
	// ErrOverflow: a checked operation overflowed its integer type, or a
	// result does not fit the type it must be stored in (offsets, run ends).
	ErrOverflow = datatype.Refine(datatype.ErrInvalid, "overflow")
	// ErrDivideByZero: an integer (or, checked, a float) division by zero.
	ErrDivideByZero = datatype.Refine(datatype.ErrInvalid, "division by zero")
	// ErrIndexOutOfBounds: a Take index outside [0, length).
	ErrIndexOutOfBounds = datatype.Refine(datatype.ErrInvalid, "index out of bounds")
)

func errf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("compute: %w: "+format, append([]any{sentinel}, args...)...)
}

// within puts the error err of this package in context: "compute: " and
// the context, then err's message without its own prefix. It wraps err.
func within(err error, format string, args ...any) error {
	return fmt.Errorf("compute: "+format+": %w", append(args, quoted{err})...)
}

// quoted is an error of this package quoted in another's message.
type quoted struct{ err error }

func (q quoted) Error() string { return strings.TrimPrefix(q.err.Error(), "compute: ") }
func (q quoted) Unwrap() error { return q.err }

// bitmapOf returns the validity bitmap of d and the bit of slot 0, or nil
// when no slot is null (or the layout has no bitmap).
func bitmapOf(d *array.Data) ([]byte, int) { return d.ValidityBitmap() }

// andValidity returns the AND of the validity bitmaps of ds (all of length
// n) as a new bitmap from bit 0, and its null count; nil when no slot is
// null.
func andValidity(n int, ds ...*array.Data) (*memory.Buffer, int) {
	type bm struct {
		b   []byte
		off int
	}
	var in []bm
	for _, d := range ds {
		if b, off := bitmapOf(d); b != nil {
			in = append(in, bm{b, off})
		}
	}
	if len(in) == 0 || n == 0 {
		return nil, 0
	}
	buf := memory.Allocate(nil, bitutil.BytesForBits(n))
	out := buf.Bytes()
	if len(in) == 1 {
		bitutil.CopyBits(out, 0, in[0].b, in[0].off, n)
	} else {
		bitutil.And(out, 0, in[0].b, in[0].off, in[1].b, in[1].off, n)
		for _, x := range in[2:] {
			bitutil.And(out, 0, out, 0, x.b, x.off, n)
		}
	}
	nulls := n - bitutil.CountSetBits(out, 0, n)
	if nulls == 0 {
		return nil, 0
	}
	return buf, nulls
}

// loadBits returns the m (1..64) bits of b from bit off in the low bits of
// a word, the rest zero.
func loadBits(b []byte, off, m int) uint64 {
	i, r := off>>3, uint(off&7)
	var w uint64
	if i+8 <= len(b) {
		w = binary.LittleEndian.Uint64(b[i:]) >> r
		if r != 0 && m > 64-int(r) {
			w |= uint64(b[i+8]) << (64 - r)
		}
	} else {
		for j := (off + m - 1) >> 3; j >= i; j-- {
			w = w<<8 | uint64(b[j])
		}
		w >>= r
	}
	if m < 64 {
		w &= 1<<uint(m) - 1
	}
	return w
}

// newValues allocates a values buffer of n elements of T.
func newValues[T any](n int) (*memory.Buffer, []T) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	// Not zeroed: every caller writes all n values.
	buf := memory.NewBuffer(rawmem.Fillable(n * size))
	if n == 0 {
		return buf, nil
	}
	return buf, memory.View[T](buf)[:n]
}

// primitiveOut wraps computed values as an array of type t.
func primitiveOut(t datatype.DataType, n int, valid *memory.Buffer, nulls int, vals *memory.Buffer) array.Array {
	return array.MustMake(array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, nulls, 0))
}

// checkSameLen reports an error unless a and b have equal lengths.
func checkSameLen(what string, a, b array.Array) error {
	if a.Len() != b.Len() {
		return errf(ErrInvalid, "%s: lengths %d and %d differ", what, a.Len(), b.Len())
	}
	return nil
}

// checkSameType reports an error unless a and b have the same type.
func checkSameType(what string, a, b array.Array) error {
	if !datatype.Equal(a.DataType(), b.DataType(), datatype.IgnoreMetadata()) {
		return errf(ErrInvalid, "%s: types %s and %s differ", what, a.DataType(), b.DataType())
	}
	return nil
}
