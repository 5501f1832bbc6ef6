//go:build amd64 && !noasm

package simd

// unpackTable is what unpack32AVX2 needs for one bit width: the byte
// shuffle that brings each value's four bytes into its 32-bit lane (the
// upper 128-bit lane loaded from byte hi), the right shift of each lane,
// and the value mask.
type unpackTable struct {
	shuffle [32]byte
	shift   [8]uint32
	mask    [8]uint32
	hi      int
}

// unpackTables holds the table of each bit width, index bw.
var unpackTables = func() (t [MaxUnpackBits + 1]unpackTable) {
	for bw := 1; bw <= MaxUnpackBits; bw++ {
		tab := &t[bw]
		tab.hi = 4 * bw / 8
		for i := range 8 {
			rel := i * bw
			if i >= 4 {
				rel -= 8 * tab.hi
			}
			for k := range 4 {
				tab.shuffle[4*i+k] = byte(rel>>3 + k)
			}
			tab.shift[i] = uint32(rel & 7)
			tab.mask[i] = 1<<bw - 1
		}
	}
	return t
}()

// unpack32AVX2 unpacks groups groups of eight bw-bit values from src
// (each group's reach readable) into dst with tab's shuffle.
//
//go:noescape
func unpack32AVX2(dst *uint32, src *byte, groups, bw int, tab *unpackTable)

func unpack32Vector(dst []uint32, src []byte, bw int) {
	unpack32AVX2(&dst[0], &src[0], len(dst)/8, bw, &unpackTables[bw])
}
