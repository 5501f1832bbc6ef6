package join

import (
	"bytes"
	"hash/maphash"
	"math"
	"math/bits"
)

var seed = maphash.MakeSeed()

func hashBytes(b []byte) uint64 { return maphash.Bytes(seed, b) }

// table is the build side's hash table: open addressing over slots that
// hold the first build row of each distinct key, the other rows of that
// key chained through next in ascending order (no allocation per row).
// Keys are the build side's keyBatch: one uint64 per row, or bytes with
// hashes.
type table struct {
	keys     *keyBatch
	fixed    bool
	slots    []int32  // the first row of a key; -1 for an empty slot
	fkeys    []uint64 // uint64 keys: each slot's key, empty for an empty slot
	empty    uint64   // a value no build key has
	next     []int32
	mask     uint64
	shift    uint
	nullHead int32 // first build row with a null key when nulls are equal (uint64 keys only)
	// dense: uint64 keys spanning fewer than 2n values index slots
	// directly by key - lo (no hashing, no collisions, no keys kept),
	// as dense identifiers do.
	dense bool
	lo    uint64
}

const golden = 0x9E3779B97F4A7C15

func newTable(k *keyBatch, n int, fixed, nullsEqual bool) *table {
	if fixed {
		if t := newDenseTable(k, n, nullsEqual); t != nil {
			return t
		}
	}
	size := 1 << bits.Len(uint(2*n+1))
	if size < 16 {
		size = 16
	}
	t := &table{
		keys:     k,
		fixed:    fixed,
		next:     make([]int32, n),
		mask:     uint64(size - 1),
		shift:    uint(64 - bits.TrailingZeros(uint(size))),
		nullHead: -1,
	}
	t.slots = make([]int32, size)
	for i := range t.slots {
		t.slots[i] = -1
	}
	if fixed {
		// The uint64 table keeps its keys in slots of their own, 8 to a
		// cache line, which a probe reads without the rows; an empty
		// slot holds a value that no build key has (a probe of that
		// value finds an empty slot: no match).
		t.empty = unusedKey(k)
		t.fkeys = make([]uint64, size)
		for i := range t.fkeys {
			t.fkeys[i] = t.empty
		}
	}
	// Rows are inserted last to first at the head of their chain, so
	// that every chain runs in ascending row order.
	for r := n - 1; r >= 0; r-- {
		if k.null[r] {
			t.next[r] = -1
			if nullsEqual {
				t.next[r] = t.nullHead
				t.nullHead = int32(r)
			}
			continue
		}
		s := t.find(k, r)
		if fixed {
			t.fkeys[s] = k.fixed[r]
		}
		t.next[r] = t.slots[s]
		t.slots[s] = int32(r)
	}
	return t
}

// newDenseTable returns a table indexed by key - lo when the non-null
// keys span fewer than 2n+16 values, else nil.
func newDenseTable(k *keyBatch, n int, nullsEqual bool) *table {
	lo, hi, any := uint64(math.MaxUint64), uint64(0), false
	for r, v := range k.fixed[:n] {
		if !k.null[r] {
			lo, hi, any = min(lo, v), max(hi, v), true
		}
	}
	if !any || hi-lo >= uint64(2*n+16) {
		return nil
	}
	t := &table{keys: k, fixed: true, dense: true, lo: lo, next: make([]int32, n), nullHead: -1,
		slots: make([]int32, hi-lo+1)}
	for i := range t.slots {
		t.slots[i] = -1
	}
	for r := n - 1; r >= 0; r-- {
		if k.null[r] {
			t.next[r] = -1
			if nullsEqual {
				t.next[r] = t.nullHead
				t.nullHead = int32(r)
			}
			continue
		}
		s := k.fixed[r] - lo
		t.next[r] = t.slots[s]
		t.slots[s] = int32(r)
	}
	return t
}

// find returns the slot of row i's key of p: the slot holding that key,
// or the empty slot where it belongs.
func (t *table) find(p *keyBatch, i int) uint64 {
	if t.fixed {
		v := p.fixed[i]
		s := (v * golden) >> t.shift
		for {
			if f := t.fkeys[s]; f == v || f == t.empty {
				return s
			}
			s = (s + 1) & t.mask
		}
	}
	h := p.hash[i]
	key := p.arena[p.offs[i]:p.offs[i+1]]
	s := h & t.mask
	for {
		r := t.slots[s]
		if r < 0 || (t.keys.hash[r] == h && bytes.Equal(t.keys.arena[t.keys.offs[r]:t.keys.offs[r+1]], key)) {
			return s
		}
		s = (s + 1) & t.mask
	}
}

// lookup sets heads[i] to the first build row whose key equals probe
// row i's, or -1.
func (t *table) lookup(p *keyBatch, heads []int32) {
	if t.dense {
		slots, lo := t.slots, t.lo
		for i, v := range p.fixed {
			h := int32(-1)
			if d := v - lo; d < uint64(len(slots)) {
				h = slots[d]
			}
			heads[i] = h
		}
		if p.nulls > 0 {
			for i, null := range p.null {
				if null {
					heads[i] = t.nullHead
				}
			}
		}
		return
	}
	if t.fixed && p.nulls == 0 {
		t.lookupFixed(p.fixed, heads)
		return
	}
	for i := range heads {
		switch {
		case p.null[i]:
			heads[i] = t.nullHead
		default:
			heads[i] = t.slots[t.find(p, i)]
		}
	}
}

// lookupFixed probes a vector at a time in passes: each pass reads the
// current slot's key of every row still searching, so the reads are
// independent of each other and of branches (the processor overlaps
// their cache misses), notes the rows that found their key, and keeps
// the rows whose slot held another key for the next pass, at the next
// slot. The rows of the keys found are read last, again independently.
func (t *table) lookupFixed(keys []uint64, heads []int32) {
	const vec = 1024
	var pos [vec]uint64
	var sel, hit [vec]uint16
	fkeys, slots, mask, shift, empty := t.fkeys, t.slots, t.mask, t.shift, t.empty
	for lo := 0; lo < len(keys); lo += vec {
		ks := keys[lo:min(lo+vec, len(keys))]
		hs := heads[lo : lo+len(ks)]
		for i, v := range ks {
			pos[i] = (v * golden) >> shift
			hs[i] = -1
		}
		// The first pass covers every row; later ones the rows left.
		n, h := 0, 0
		for i, v := range ks {
			k := fkeys[pos[i]]
			sel[n], hit[h] = uint16(i), uint16(i)
			n += b2i(k != v && k != empty)
			h += b2i(k == v)
		}
		for n > 0 {
			m := 0
			for _, i := range sel[:n] {
				p := (pos[i] + 1) & mask
				pos[i] = p
				k, v := fkeys[p], ks[i]
				sel[m], hit[h] = i, i
				m += b2i(k != v && k != empty)
				h += b2i(k == v)
			}
			n = m
		}
		for _, i := range hit[:h] {
			hs[i] = slots[pos[i]]
		}
	}
}

// unusedKey returns a value that no non-null key of k has.
func unusedKey(k *keyBatch) uint64 {
	c := uint64(golden)
	for {
		used := false
		for r, v := range k.fixed {
			if v == c && !k.null[r] {
				used = true
				break
			}
		}
		if !used {
			return c
		}
		c = c*golden + 1
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
