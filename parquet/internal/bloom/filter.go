package bloom

import (
	"encoding/binary"
	"math"
)

// BlockBytes is the size of one block.
const BlockBytes = 32

// MaxBytes is the largest filter New makes.
const MaxBytes = 128 << 20

var salt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// Filter is a split-block bloom filter: its bytes are the bitset as
// stored in a file (little-endian words).
type Filter []byte

// Bytes is the bitset size, a power of two of at least one block and at
// most MaxBytes, for ndv distinct values at false-positive rate fpp.
func Bytes(ndv int, fpp float64) int {
	bitsNeeded := -8 * float64(max(ndv, 1)) / math.Log(1-math.Pow(fpp, 1.0/8))
	n := BlockBytes
	for float64(n*8) < bitsNeeded && n < MaxBytes {
		n *= 2
	}
	return n
}

// New is an empty filter of n bytes (a positive multiple of BlockBytes).
func New(n int) Filter { return make(Filter, n) }

// block returns the byte offset of the block of hash h.
func (f Filter) block(h uint64) int {
	blocks := uint64(len(f) / BlockBytes)
	return int(((h>>32)*blocks)>>32) * BlockBytes
}

// Insert adds the value of hash h.
func (f Filter) Insert(h uint64) {
	at := f.block(h)
	key := uint32(h)
	for i, s := range salt {
		w := f[at+4*i:]
		binary.LittleEndian.PutUint32(w, binary.LittleEndian.Uint32(w)|1<<((key*s)>>27))
	}
}

// Check reports whether the value of hash h may have been inserted; a
// filter of no whole block says yes.
func (f Filter) Check(h uint64) bool {
	if len(f) < BlockBytes {
		return true
	}
	at := f.block(h)
	key := uint32(h)
	for i, s := range salt {
		if binary.LittleEndian.Uint32(f[at+4*i:])&(1<<((key*s)>>27)) == 0 {
			return false
		}
	}
	return true
}
