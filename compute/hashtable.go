package compute

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
)

// groups numbers the distinct values of a column: ids[i] is row i's
// group, groups numbered in order of first occurrence; firsts[g] is the
// first row of group g. A null is a group of its own (null is its id,
// -1 when there is none).
type groups struct {
	ids    []int32
	firsts []int
	null   int32
	sums   map[array.Array]groupSums // see sumsOf
}

func (g *groups) n() int { return len(g.firsts) }

// newGroup numbers a new group first seen at row i.
func (g *groups) newGroup(i int) int32 {
	g.firsts = append(g.firsts, i)
	return int32(len(g.firsts) - 1)
}

// bitsTable is an open-addressing hash table from fixed-width values
// (as unsigned bits) to group ids, with linear probing; each slot holds
// its key beside its id, so a probe touches one cache line.
type bitsTable[U uint8 | uint16 | uint32 | uint64] struct {
	slots []bitsSlot[U]
	shift uint
	size  int
}

type bitsSlot[U uint8 | uint16 | uint32 | uint64] struct {
	key U
	id  int32 // group id + 1; 0 marks an empty slot
}

func newBitsTable[U uint8 | uint16 | uint32 | uint64](hint int) *bitsTable[U] {
	c := 16
	for c < 2*hint && c < 1<<20 {
		c *= 2
	}
	return &bitsTable[U]{slots: make([]bitsSlot[U], c), shift: uint(64 - bits.TrailingZeros(uint(c)))}
}

func slotOf(k uint64, shift uint) uint64 { return (k * 0x9E3779B97F4A7C15) >> shift }

// find returns the id of key k, calling add for a new key.
func (t *bitsTable[U]) find(k U, add func() int32) int32 {
	mask := uint64(len(t.slots) - 1)
	for s := slotOf(uint64(k), t.shift); ; s = (s + 1) & mask {
		e := &t.slots[s]
		if e.id == 0 {
			id := add()
			t.insertAt(s, k, id)
			return id
		}
		if e.key == k {
			return e.id - 1
		}
	}
}

// insertAt fills the empty slot s, growing the table past half full.
func (t *bitsTable[U]) insertAt(s uint64, k U, id int32) {
	t.slots[s] = bitsSlot[U]{k, id + 1}
	t.size++
	if 2*t.size > len(t.slots) {
		t.grow()
	}
}

func (t *bitsTable[U]) grow() {
	old := t.slots
	t.slots = make([]bitsSlot[U], 2*len(old))
	t.shift--
	mask := uint64(len(t.slots) - 1)
	for _, e := range old {
		if e.id == 0 {
			continue
		}
		s := slotOf(uint64(e.key), t.shift)
		for t.slots[s].id != 0 {
			s = (s + 1) & mask
		}
		t.slots[s] = e
	}
}

// groupBits numbers the distinct values of v (nulls where the validity
// bitmap valid, from bit off, is clear); ids are kept when wantIDs.
func groupBits[U uint8 | uint16 | uint32 | uint64](v []U, valid []byte, off int, wantIDs bool, c *config) *groups {
	g := &groups{null: -1}
	if wantIDs {
		g.ids = make([]int32, len(v))
	}
	if valid == nil && c.parallel(len(v)) {
		return groupHalves(v, g)
	}
	t := newBitsTable[U](64)
	if valid == nil {
		groupDense(v, t, g)
		return g
	}
	for i, k := range v {
		if !bitutil.GetBit(valid, off+i) {
			if g.null < 0 {
				g.null = g.newGroup(i)
			}
			if wantIDs {
				g.ids[i] = g.null
			}
			continue
		}
		id := t.lookup(k, i, g)
		if wantIDs {
			g.ids[i] = id
		}
	}
	return g
}

// lookup returns the group of key k, a new one first seen at row i when
// k is new.
func (t *bitsTable[U]) lookup(k U, i int, g *groups) int32 {
	mask := uint64(len(t.slots) - 1)
	for s := slotOf(uint64(k), t.shift) & mask; ; s = (s + 1) & mask {
		e := &t.slots[s]
		if e.key == k && e.id != 0 {
			return e.id - 1
		}
		if e.id == 0 {
			id := g.newGroup(i)
			t.insertAt(s, k, id)
			return id
		}
	}
}

// groupHalves groups the two halves of v at the same time, each with its
// own table, then numbers the second half's groups in the first's table:
// a group new to the first half gets the next id there, in order of its
// first row, so the ids are those of a single pass.
func groupHalves[U uint8 | uint16 | uint32 | uint64](v []U, g *groups) *groups {
	m := len(v) / 2
	g2 := &groups{null: -1}
	if g.ids != nil {
		g2.ids = g.ids[m:]
		g.ids = g.ids[:m]
	}
	t1, t2 := newBitsTable[U](64), newBitsTable[U](64)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		groupDense(v[m:], t2, g2)
	}()
	groupDense(v[:m], t1, g)
	wg.Wait()
	remap := make([]int32, g2.n())
	for j, first := range g2.firsts {
		remap[j] = t1.lookup(v[m+first], m+first, g)
	}
	if g.ids != nil {
		g.ids = g.ids[:len(v)]
		for i, id := range g2.ids {
			g2.ids[i] = remap[id]
		}
	}
	return g
}

// groupDense is groupBits without nulls: the table's slots, shift and
// mask stay in registers between inserts.
func groupDense[U uint8 | uint16 | uint32 | uint64](v []U, t *bitsTable[U], g *groups) {
	slots, shift := t.slots, t.shift
	mask := uint64(len(slots) - 1)
	ids := g.ids
	for i, k := range v {
		s := slotOf(uint64(k), shift) & mask
		var id int32
		for {
			e := &slots[s]
			if e.key == k && e.id != 0 {
				id = e.id - 1
				break
			}
			if e.id == 0 {
				id = g.newGroup(i)
				t.insertAt(s, k, id)
				slots, shift = t.slots, t.shift
				mask = uint64(len(slots) - 1)
				break
			}
			s = (s + 1) & mask
		}
		if ids != nil {
			ids[i] = id
		}
	}
}

func asBits[T, U any](v []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

// groupFixed is the group kernel of a fixed-width type of 1, 2, 4 or 8
// bytes, hashed by its bits; nil for other widths.
func groupFixed[T array.FixedWidth]() func(array.Array, bool, *config) *groups {
	switch unsafe.Sizeof(*new(T)) {
	case 1:
		return groupPrim[T, uint8]
	case 2:
		return groupPrim[T, uint16]
	case 4:
		return groupPrim[T, uint32]
	case 8:
		return groupPrim[T, uint64]
	}
	return nil
}

func groupPrim[T array.FixedWidth, U uint8 | uint16 | uint32 | uint64](a array.Array, wantIDs bool, c *config) *groups {
	valid, off := bitmapOf(a.Data())
	return groupBits(asBits[T, U](a.(*array.Primitive[T]).Values()), valid, off, wantIDs, c)
}

// groupOf numbers the distinct values of a, of any type: equal values
// (by [array.AppendKey]: floats by their bits, dictionaries by value,
// nested types element-wise) share a group.
func groupOf(a array.Array, c *config) *groups { return groupIDs(a, true, c) }

// groupIDs is groupOf, without the per-row ids unless wantIDs. Types
// with a group kernel are hashed by their bits, the others by the bytes
// of [array.AppendKey].
func groupIDs(a array.Array, wantIDs bool, c *config) *groups {
	if e, ok := a.(*array.Extension); ok {
		a = e.Storage()
	}
	if f := kernelsOf(a.DataType()).group; f != nil {
		return f(a, wantIDs, c)
	}
	n := a.Len()
	g := &groups{ids: make([]int32, n), null: -1}
	m := make(map[string]int32)
	var key []byte
	for i := range n {
		key = array.AppendKey(key[:0], a, i)
		id, ok := m[string(key)]
		if !ok {
			id = g.newGroup(i)
			m[string(key)] = id
			if len(key) == 1 && key[0] == 0 {
				g.null = id
			}
		}
		g.ids[i] = id
	}
	return g
}

// combine numbers the distinct pairs (a's group, b's group) of rows
// grouped two ways.
func combine(a, b *groups) *groups {
	n := len(a.ids)
	g := &groups{ids: make([]int32, n), null: -1}
	t := newBitsTable[uint64](max(a.n(), b.n()))
	i := 0
	add := func() int32 { return g.newGroup(i) }
	for ; i < n; i++ {
		g.ids[i] = t.find(uint64(uint32(a.ids[i]))<<32|uint64(uint32(b.ids[i])), add)
	}
	return g
}
