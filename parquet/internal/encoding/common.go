package encoding

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
)

// ErrInvalid is datatype.ErrInvalid, wrapped by every decoding error.
var ErrInvalid = datatype.ErrInvalid

// ErrLimit is datatype.ErrLimit, wrapped when decoding would exceed a
// caller's size limit.
var ErrLimit = datatype.ErrLimit

func invalidf(format string, args ...any) error {
	return fmt.Errorf("parquet encoding: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Binary is a sequence of byte strings: value i is
// Data[Offsets[i]:Offsets[i+1]]. Offsets has one more entry than values.
type Binary struct {
	Offsets []int32
	Data    []byte
}

// Len returns the number of values.
func (b *Binary) Len() int {
	if len(b.Offsets) == 0 {
		return 0
	}
	return len(b.Offsets) - 1
}

// Value returns value i.
func (b *Binary) Value(i int) []byte { return b.Data[b.Offsets[i]:b.Offsets[i+1]] }

// Append adds one value.
func (b *Binary) Append(v []byte) {
	if len(b.Offsets) == 0 {
		b.Offsets = append(b.Offsets, 0)
	}
	b.Data = append(b.Data, v...)
	b.Offsets = append(b.Offsets, int32(len(b.Data)))
}

// BitWidth returns the number of bits needed for values up to max.
func BitWidth(max uint64) int {
	n := 0
	for max != 0 {
		n++
		max >>= 1
	}
	return n
}
