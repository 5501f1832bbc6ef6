package array

import "github.com/alkaid-go/alkaid/datatype"

// FixedWidthBytes returns the little-endian value bytes of the slots of a
// fixed-width array (every primitive type but bool, decimals, temporal
// types, fixed-size binary; an extension over one of these) and the width
// of one value. ok is false for other layouts. Null slots hold whatever
// their bytes hold. The result aliases the array's buffer.
func FixedWidthBytes(a Array) (b []byte, width int, ok bool) {
	d := a.Data()
	t := d.Type
	if t.Kind() == datatype.KindDictionary {
		return nil, 0, false
	}
	w := datatype.ByteWidth(t)
	if w == 0 || len(d.Buffers) < 2 || d.Buffers[1] == nil {
		return nil, 0, false
	}
	buf := d.Buffers[1].Bytes()
	lo, hi := d.Offset*w, (d.Offset+d.Length)*w
	if hi > len(buf) {
		return nil, 0, false
	}
	return buf[lo:hi], w, true
}
