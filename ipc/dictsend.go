package ipc

import (
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// nestedDicts lists the dictionaries that d's values use, in the order
// the writer numbers them (depth first, not entering a dictionary's own
// values): what unloading d finds, without unloading it.
func nestedDicts(d *array.Data, out []*array.Data) []*array.Data {
	if datatype.StorageOf(d.Type).Kind() == datatype.KindDictionary {
		return append(out, d.Dictionary)
	}
	for _, c := range d.Children {
		out = nestedDicts(c, out)
	}
	return out
}

// extends reports whether d's first prev.Length values equal prev's. A
// d that shares prev's memory (a longer slice of the same array, as a
// growing dictionary usually is) is known to, without reading values;
// otherwise they are compared.
func extends(prev, d *array.Data) bool {
	if d.Length < prev.Length {
		return false
	}
	return sharesPrefix(prev, d) || array.Equal(array.MustMake(prev), array.MustMake(d.Slice(0, prev.Length)))
}

// sharesPrefix reports whether prev reads the same memory as the start of
// d: same type and offset, each of prev's buffers starting where d's does
// and no longer, the same dictionary, and children that share their
// prefix in turn.
func sharesPrefix(prev, d *array.Data) bool {
	if prev.Offset != d.Offset || prev.Length > d.Length || prev.Dictionary != d.Dictionary ||
		len(prev.Buffers) > len(d.Buffers) || len(prev.Children) != len(d.Children) || !datatype.Equal(prev.Type, d.Type) {
		return false
	}
	for i, b := range prev.Buffers {
		c := d.Buffers[i]
		if b != c && (b == nil || c == nil || unsafe.SliceData(b.Bytes()) != unsafe.SliceData(c.Bytes()) || b.Len() > c.Len()) {
			return false
		}
	}
	for i, c := range prev.Children {
		if !sharesPrefix(c, d.Children[i]) {
			return false
		}
	}
	return true
}
