package join

import (
	"bytes"
	"hash/maphash"
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
	slots    []int32     // bytes keys: first row of a key, -1 empty
	fslots   []fixedSlot // uint64 keys: the key beside its first row, so that a probe reads one cache line
	next     []int32
	mask     uint64
	shift    uint
	nullHead int32 // first build row with a null key when nulls are equal (uint64 keys only)
}

const golden = 0x9E3779B97F4A7C15

// fixedSlot is a slot of the uint64 table; row -1 marks it empty.
type fixedSlot struct {
	key uint64
	row int32
}

func newTable(k *keyBatch, n int, fixed, nullsEqual bool) *table {
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
	if fixed {
		t.fslots = make([]fixedSlot, size)
		for i := range t.fslots {
			t.fslots[i].row = -1
		}
	} else {
		t.slots = make([]int32, size)
		for i := range t.slots {
			t.slots[i] = -1
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
			t.next[r] = t.fslots[s].row
			t.fslots[s] = fixedSlot{k.fixed[r], int32(r)}
			continue
		}
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
			e := &t.fslots[s]
			if e.row < 0 || e.key == v {
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
	if t.fixed && p.nulls == 0 {
		t.lookupFixed(p.fixed, heads)
		return
	}
	for i := range heads {
		switch {
		case p.null[i]:
			heads[i] = t.nullHead
		case t.fixed:
			heads[i] = t.fslots[t.find(p, i)].row
		default:
			heads[i] = t.slots[t.find(p, i)]
		}
	}
}

// lookupFixed probes a vector at a time in passes: each pass reads the
// current slot of every row still searching, so the reads are
// independent of each other and of branches (the processor overlaps
// their cache misses), and keeps the rows whose slot held another key
// for the next pass, at the next slot.
func (t *table) lookupFixed(keys []uint64, heads []int32) {
	const vec = 1024
	var pos [vec]uint64
	var sel [vec]uint16
	slots, mask, shift := t.fslots, t.mask, t.shift
	for lo := 0; lo < len(keys); lo += vec {
		ks := keys[lo:min(lo+vec, len(keys))]
		hs := heads[lo : lo+len(ks)]
		for i, v := range ks {
			pos[i] = (v * golden) >> shift
		}
		// The first pass covers every row; later ones the rows left.
		n := 0
		for i, v := range ks {
			e := slots[pos[i]]
			hs[i] = e.row
			sel[n] = uint16(i)
			n += b2i(e.row >= 0 && e.key != v)
		}
		for n > 0 {
			m := 0
			for _, i := range sel[:n] {
				p := (pos[i] + 1) & mask
				pos[i] = p
				e := slots[p]
				hs[i] = e.row
				sel[m] = i
				m += b2i(e.row >= 0 && e.key != ks[i])
			}
			n = m
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
