package thrift

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/alkaid-go/alkaid/datatype"
)

// ErrInvalid is datatype.ErrInvalid, wrapped by every decoding error.
var ErrInvalid = datatype.ErrInvalid

// Compact-protocol type codes.
const (
	typeStop   = 0
	typeTrue   = 1
	typeFalse  = 2
	typeByte   = 3
	typeI16    = 4
	typeI32    = 5
	typeI64    = 6
	typeDouble = 7
	typeBinary = 8
	typeList   = 9
	typeSet    = 10
	typeMap    = 11
	typeStruct = 12
)

// maxDepth bounds the nesting of structs and lists.
const maxDepth = 64

func invalidf(format string, args ...any) error {
	return fmt.Errorf("thrift: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

// reader reads compact-protocol primitives from a byte slice, and holds
// the blocks that decoded values are carved from (see alloc and shared).
type reader struct {
	buf []byte
	pos int

	words         []uint64 // for optional scalars
	strs          []string // for optional strings
	block         []byte   // for strings and byte slices
	nWords, nStrs int      // blocks allocated, of each
	nBlocks       int
}

func (r *reader) remaining() int { return len(r.buf) - r.pos }

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.buf) {
		return 0, invalidf("unexpected end of data at byte %d", r.pos)
	}
	b := r.buf[r.pos]
	r.pos++
	return b, nil
}

func (r *reader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.buf[r.pos:])
	if n <= 0 {
		return 0, invalidf("bad varint at byte %d", r.pos)
	}
	r.pos += n
	return v, nil
}

func (r *reader) varint() (int64, error) {
	u, err := r.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

func (r *reader) double() (float64, error) {
	if r.remaining() < 8 {
		return 0, invalidf("truncated double at byte %d", r.pos)
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.buf[r.pos:]))
	r.pos += 8
	return v, nil
}

func (r *reader) binary() ([]byte, error) {
	n, err := r.uvarint()
	if err != nil {
		return nil, err
	}
	if n > uint64(r.remaining()) {
		return nil, invalidf("binary of %d bytes at byte %d exceeds the %d bytes left", n, r.pos, r.remaining())
	}
	b := r.buf[r.pos : r.pos+int(n) : r.pos+int(n)]
	r.pos += int(n)
	return b, nil
}

// listHeader reads a list or set header: element type and size. The size
// is checked against the bytes left (every element takes at least one
// byte), so that callers may allocate it.
func (r *reader) listHeader() (elem byte, size int, err error) {
	h, err := r.byte()
	if err != nil {
		return 0, 0, err
	}
	elem = h & 0x0f
	n := uint64(h >> 4)
	if n == 15 {
		if n, err = r.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	if n > uint64(r.remaining()) {
		return 0, 0, invalidf("list of %d elements at byte %d exceeds the %d bytes left", n, r.pos, r.remaining())
	}
	return elem, int(n), nil
}

// mapHeader reads a map header: size, key and value types.
func (r *reader) mapHeader() (key, val byte, size int, err error) {
	n, err := r.uvarint()
	if err != nil {
		return 0, 0, 0, err
	}
	if n == 0 {
		return 0, 0, 0, nil
	}
	if n > uint64(r.remaining()) {
		return 0, 0, 0, invalidf("map of %d entries at byte %d exceeds the %d bytes left", n, r.pos, r.remaining())
	}
	kv, err := r.byte()
	if err != nil {
		return 0, 0, 0, err
	}
	return kv >> 4, kv & 0x0f, int(n), nil
}

// fieldHeader reads a field header; last is the previous field id of the
// same struct. It returns typ == typeStop at the end of the struct.
func (r *reader) fieldHeader(last int16) (id int16, typ byte, err error) {
	h, err := r.byte()
	if err != nil {
		return 0, 0, err
	}
	typ = h & 0x0f
	if typ == typeStop {
		return 0, typeStop, nil
	}
	if d := h >> 4; d != 0 {
		return last + int16(d), typ, nil
	}
	v, err := r.varint()
	if err != nil {
		return 0, 0, err
	}
	if v < math.MinInt16 || v > math.MaxInt16 {
		return 0, 0, invalidf("field id %d out of range at byte %d", v, r.pos)
	}
	return int16(v), typ, nil
}

// skip skips one value of type typ.
func (r *reader) skip(typ byte, depth int) error {
	if depth > maxDepth {
		return invalidf("nesting deeper than %d at byte %d", maxDepth, r.pos)
	}
	switch typ {
	case typeTrue, typeFalse:
		return nil
	case typeByte:
		_, err := r.byte()
		return err
	case typeI16, typeI32, typeI64:
		_, err := r.uvarint()
		return err
	case typeDouble:
		_, err := r.double()
		return err
	case typeBinary:
		_, err := r.binary()
		return err
	case typeList, typeSet:
		elem, n, err := r.listHeader()
		if err != nil {
			return err
		}
		for range n {
			if err := r.skipElem(elem, depth+1); err != nil {
				return err
			}
		}
		return nil
	case typeMap:
		k, v, n, err := r.mapHeader()
		if err != nil {
			return err
		}
		for range n {
			if err := r.skipElem(k, depth+1); err != nil {
				return err
			}
			if err := r.skipElem(v, depth+1); err != nil {
				return err
			}
		}
		return nil
	case typeStruct:
		var last int16
		for {
			id, t, err := r.fieldHeader(last)
			if err != nil {
				return err
			}
			if t == typeStop {
				return nil
			}
			if err := r.skip(t, depth+1); err != nil {
				return err
			}
			last = id
		}
	}
	return invalidf("unknown type code %d at byte %d", typ, r.pos)
}

// skipElem skips a list, set or map element; booleans take a byte there.
func (r *reader) skipElem(typ byte, depth int) error {
	if typ == typeTrue || typ == typeFalse {
		_, err := r.byte()
		return err
	}
	return r.skip(typ, depth)
}

// writer appends compact-protocol primitives to a byte slice.
type writer struct {
	buf []byte
}

func (w *writer) uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

func (w *writer) varint(v int64) { w.uvarint(uint64(v<<1) ^ uint64(v>>63)) }

func (w *writer) binary(b []byte) {
	w.uvarint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}

func (w *writer) fieldHeader(last, id int16, typ byte) {
	if d := id - last; d > 0 && d <= 15 {
		w.buf = append(w.buf, byte(d)<<4|typ)
		return
	}
	w.buf = append(w.buf, typ)
	w.varint(int64(id))
}

func (w *writer) listHeader(elem byte, n int) {
	if n < 15 {
		w.buf = append(w.buf, byte(n)<<4|elem)
		return
	}
	w.buf = append(w.buf, 0xf0|elem)
	w.uvarint(uint64(n))
}
