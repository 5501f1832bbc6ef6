package array

import (
	"fmt"
	"unsafe"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Growable builds one new array of a type out of slots of source arrays of
// that type: ranges of slots, slots picked by index, null slots and empty
// slots, in any order, then [Growable.Finish]. It is the one append engine
// of this package per physical layout: [Concatenate] extends from whole
// sources, take and filter pick indices, shredding assembly gathers, and
// other kernels (sort, cast, readers) can build on it.
//
//	g, _ := NewGrowable(t, []*Data{a, b}, a.Length+b.Length)
//	g.ExtendRange(0, 2, 3)          // slots 2, 3, 4 of a
//	g.ExtendIndices(1, []int{4, 0}) // slots 4 and 0 of b
//	g.AppendNulls(1)
//	d, err := g.Finish()
//
// Slot numbers count from each source's first slot (its Offset). The
// result has offset 0 and new buffers, except what a layout shares with
// its sources: the data buffers of binary views, and, with one source, the
// children of list views and the dictionary of dictionary arrays.
//
// Sources must be valid as [ValidateSafe] checks (arrays from this
// library's builders and readers are), and ranges and indices must lie
// inside them: the engine follows offsets, views and run ends without
// checking them again, and panics on slots outside a source (a programmer
// error). Results that do not fit their type (offsets or run ends that
// overflow, a unified dictionary too large for its index type) are
// reported by Finish.
//
// Started by [GrowFrom] instead, a Growable grows in place: it takes
// sources one at a time ([Growable.Append]) and Finish hands out the
// array so far as often as asked, never writing a byte it handed out
// (IPC dictionary deltas grow this way).
type Growable struct {
	typ    datatype.DataType // as given: an extension type stays one
	srcs   []*Data           // the sources, typed as their storage
	id     layoutID
	lay    grower
	kids   []kid // the growables of children, as the grower made them
	bitmap bool  // the layout has a validity bitmap
	n      int
	valid  []byte // n bits; nil while every slot is valid
	hint   int
	err    error
	// nulls counts the cleared bits among the first counted of valid.
	nulls, counted int
	// from is the first slot of the grower's buffers that Finish hands
	// out (inPlaceLead minus the offset of the result, in place), and led
	// tells a struct's grower to lead its children by at slots.
	from, at int
	led      bool
	// in place (see GrowFrom): the generation of dictionaries of values,
	// whether the Growable is handed out at offsets 0 to 7, and the
	// shifted copies of the validity bitmap
	inPlace bool
	gen     func(*Data) uint64
	shift   bool
	vshift  shiftCopies
}

// kid is the growable of child i of every source.
type kid struct {
	i int
	g *Growable
}

// grower is the part of a Growable that knows one physical layout. The
// Growable keeps the validity bitmap and the length; the grower keeps the
// other buffers and the children.
type grower interface {
	// extendRange appends slots [start, start+n) of source s.
	extendRange(s, start, n int)
	// extendIndices appends slots idx of source s, -1 being a null slot;
	// it reports whether any index is negative.
	extendIndices(s int, idx []int) bool
	// appendNulls appends n null slots (zero or empty values under a
	// cleared validity bit; a null child value for unions and runs).
	appendNulls(n int)
	// appendEmpty appends n valid slots holding the type's zero value (0,
	// false, empty string or list); false when the layout has none.
	appendEmpty(n int) bool
	// finish adds the grower's buffers after the validity bitmap (or from
	// the first buffer for layouts without one), children and dictionary.
	finish(out *Data) error
}

// growFunc makes the grower of one layout.
type growFunc func(g *Growable, t datatype.DataType) (grower, error)

// physical layouts, as the engine tells them apart.
type layoutID uint8

const (
	layNull layoutID = iota
	layBool
	layFixed
	layBinary32
	layBinary64
	layView
	layList32
	layList64
	layListView32
	layListView64
	layFixedSizeList
	layStruct
	laySparse
	layDense
	layDictionary
	layRunEnds
	layCount
)

// growers is the dispatch table: one constructor per physical layout.
var growers [layCount]growFunc

func init() {
	growers = [layCount]growFunc{
		layNull:          newNullGrower,
		layBool:          newBoolGrower,
		layFixed:         newFixedGrower,
		layBinary32:      newBinaryGrower[int32],
		layBinary64:      newBinaryGrower[int64],
		layView:          newViewGrower,
		layList32:        newListGrower[int32],
		layList64:        newListGrower[int64],
		layListView32:    newListViewGrower[int32],
		layListView64:    newListViewGrower[int64],
		layFixedSizeList: newFixedSizeListGrower,
		layStruct:        newStructGrower,
		laySparse:        newSparseGrower,
		layDense:         newDenseGrower,
		layDictionary:    newDictGrower,
		layRunEnds:       newRunEndsGrower,
	}
}

// layoutOf is the physical layout of a storage type, false for none.
func layoutOf(t datatype.DataType) (layoutID, bool) {
	switch t.Kind() {
	case datatype.KindNull:
		return layNull, true
	case datatype.KindBool:
		return layBool, true
	case datatype.KindBinary, datatype.KindString:
		return layBinary32, true
	case datatype.KindLargeBinary, datatype.KindLargeString:
		return layBinary64, true
	case datatype.KindBinaryView, datatype.KindStringView:
		return layView, true
	case datatype.KindList, datatype.KindMap:
		return layList32, true
	case datatype.KindLargeList:
		return layList64, true
	case datatype.KindListView:
		return layListView32, true
	case datatype.KindLargeListView:
		return layListView64, true
	case datatype.KindFixedSizeList:
		return layFixedSizeList, true
	case datatype.KindStruct:
		return layStruct, true
	case datatype.KindSparseUnion:
		return laySparse, true
	case datatype.KindDenseUnion:
		return layDense, true
	case datatype.KindDictionary:
		return layDictionary, true
	case datatype.KindRunEndEncoded:
		return layRunEnds, true
	}
	return layFixed, datatype.IsFixedWidth(t)
}

// GrowError is the error of a [Growable] whose result does not fit its
// type (it wraps [ErrInvalid]: offsets, run ends or dictionary indices
// that overflow) or that the layout cannot hold (it wraps
// [ErrNotSupported]: a null slot in a union without children).
type GrowError struct {
	Type datatype.DataType // the type of the array (or child) concerned
	Msg  string            // what went wrong, e.g. "length 40000 overflows the run ends"
	Err  error             // ErrInvalid or ErrNotSupported
}

// Error reads "array: <type>: <what went wrong>".
func (e *GrowError) Error() string { return fmt.Sprintf("array: %s: %s", e.Type, e.Msg) }

// Unwrap returns the sentinel, [ErrInvalid] or [ErrNotSupported].
func (e *GrowError) Unwrap() error { return e.Err }

// NewGrowable starts an array of type t built from sources, all of type
// t (as [datatype.Equal] compares types, metadata ignored), with room for
// capacity slots before the buffers grow. It fails when t has no layout
// or a source has another type.
func NewGrowable(t datatype.DataType, sources []*Data, capacity int) (*Growable, error) {
	for i, s := range sources {
		if s == nil {
			return nil, invalidf("growable: source %d is nil", i)
		}
		if !datatype.Equal(t, s.Type, datatype.IgnoreMetadata()) {
			return nil, invalidf("growable: source %d has type %s, want %s", i, s.Type, t)
		}
	}
	return newGrowable(t, sources, capacity)
}

// newGrowable is NewGrowable for sources known to be of type t.
func newGrowable(t datatype.DataType, sources []*Data, capacity int) (*Growable, error) {
	return newGrowableMode(t, sources, capacity, false, nil)
}

// newGrowableMode is newGrowable, in place (see GrowFrom) or not.
func newGrowableMode(t datatype.DataType, sources []*Data, capacity int, inPlace bool, gen func(*Data) uint64) (*Growable, error) {
	st := datatype.StorageOf(t)
	id, ok := layoutOf(st)
	if !ok {
		return nil, fmt.Errorf("array: growable %s: %w", t, ErrNotSupported)
	}
	srcs := sources
	if st != t {
		srcs = make([]*Data, len(sources))
		for i, s := range sources {
			c := *s
			c.Type = st
			srcs[i] = &c
		}
	}
	g := &Growable{typ: t, srcs: srcs, id: id, hint: max(capacity, 0), inPlace: inPlace, gen: gen}
	switch id {
	case layNull, laySparse, layDense, layRunEnds:
	default:
		g.bitmap = true
	}
	lay, err := growers[id](g, st)
	if err != nil {
		return nil, err
	}
	g.lay = lay
	if inPlace {
		if leadsIn(id) {
			lay.appendNulls(inPlaceLead)
		}
		g.shift = g.shiftableIn()
	}
	return g, nil
}

// child starts the growable of child i of every source, with room for
// capacity slots.
func (g *Growable) child(i int, t datatype.DataType, capacity int) (*Growable, error) {
	cs := make([]*Data, len(g.srcs))
	for j, s := range g.srcs {
		cs[j] = s.Children[i]
	}
	c, err := newGrowableMode(t, cs, capacity, g.inPlace, g.gen)
	if err != nil {
		return nil, err
	}
	g.kids = append(g.kids, kid{i, c})
	return c, nil
}

// Len is the number of slots appended so far.
func (g *Growable) Len() int { return g.n }

// ExtendRange appends slots [start, start+n) of source s.
func (g *Growable) ExtendRange(s, start, n int) {
	if n <= 0 {
		return
	}
	g.lay.extendRange(s, start, n)
	if g.bitmap {
		bits, off := g.srcs[s].ValidityBitmap()
		switch {
		case bits != nil:
			g.needBitmap(n)
			bitutil.CopyBits(g.valid, g.n, bits, off+start, n)
		case g.valid != nil:
			g.needBitmap(n)
			bitutil.SetBitsTo(g.valid, g.n, n, true)
		}
	}
	g.n += n
}

// ExtendIndices appends the slots idx of source s in order; an index of
// -1 appends a null slot.
func (g *Growable) ExtendIndices(s int, idx []int) {
	if len(idx) == 0 {
		return
	}
	neg := g.lay.extendIndices(s, idx)
	if g.bitmap {
		bits, off := g.srcs[s].ValidityBitmap()
		switch {
		case bits != nil || neg:
			g.needBitmap(len(idx))
			v := g.valid
			for i, j := range idx {
				if j >= 0 && (bits == nil || bitutil.GetBit(bits, off+j)) {
					p := g.n + i
					v[p>>3] |= 1 << (p & 7)
				}
			}
		case g.valid != nil:
			g.needBitmap(len(idx))
			bitutil.SetBitsTo(g.valid, g.n, len(idx), true)
		}
	}
	g.n += len(idx)
}

// AppendNulls appends n null slots.
func (g *Growable) AppendNulls(n int) {
	if n <= 0 {
		return
	}
	g.lay.appendNulls(n)
	if g.bitmap {
		g.needBitmap(n) // the new bits are clear
	}
	g.n += n
}

// AppendEmpty appends n valid slots holding the type's zero value: 0,
// false, an empty string or list, a struct of such values. Null,
// union and run-end encoded types have none: Finish then reports it.
func (g *Growable) AppendEmpty(n int) {
	if n <= 0 {
		return
	}
	if !g.lay.appendEmpty(n) {
		g.unsupported(g.typ, "no empty value")
		return
	}
	if g.valid != nil {
		g.needBitmap(n)
		bitutil.SetBitsTo(g.valid, g.n, n, true)
	}
	g.n += n
}

// needBitmap makes room for n more validity bits; the first time, it
// makes the bitmap with every slot so far valid.
func (g *Growable) needBitmap(n int) {
	if g.valid == nil {
		g.valid = growBy[byte](nil, bitutil.BytesForBits(max(g.hint, g.n+n)))
		bitutil.SetBitsTo(g.valid, 0, g.n, true)
		return
	}
	if need := bitutil.BytesForBits(g.n + n); need > len(g.valid) {
		g.valid = growBy(g.valid, need-len(g.valid))
	}
}

// fail records the first error, which Finish returns.
func (g *Growable) fail(t datatype.DataType, format string, args ...any) {
	if g.err == nil {
		g.err = &GrowError{Type: t, Msg: fmt.Sprintf(format, args...), Err: ErrInvalid}
	}
}

// unsupported records the first error, which Finish returns.
func (g *Growable) unsupported(t datatype.DataType, msg string) {
	if g.err == nil {
		g.err = &GrowError{Type: t, Msg: msg, Err: ErrNotSupported}
	}
}

// Finish returns the data built. The Growable must not be used after,
// unless [GrowFrom] started it: then Finish may be called again, and
// appends go on after it.
func (g *Growable) Finish() (*Data, error) { return g.finish(-1) }

// finish is Finish, or with lead >= 0 (in place: the child of a struct
// handed out at offset lead) the data with lead zero or null slots before
// its first, at offset 0.
func (g *Growable) finish(lead int) (*Data, error) {
	if g.err != nil {
		return nil, g.err
	}
	if g.valid != nil && g.counted < g.n {
		k := g.n - g.counted
		g.nulls += k - bitutil.CountSetBits(g.valid, g.counted, k)
		g.counted = g.n
	}
	nulls := 0
	if g.valid != nil {
		nulls = g.nulls
	}
	off := 0
	switch {
	case !g.inPlace || !g.shift:
	case lead >= 0:
		off = lead
	case g.id == layBool || nulls > 0:
		off = (8 - g.n%8) % 8
	}
	g.at, g.led, g.from = off, g.inPlace && g.shift && (off > 0 || lead >= 0), 0
	if g.inPlace && leadsIn(g.id) {
		g.from = inPlaceLead - off
	}
	out := &Data{Type: g.typ, Length: g.n, Offset: off}
	if lead >= 0 {
		out.Length, out.Offset = g.n+lead, 0
	}
	if g.bitmap {
		switch {
		case nulls == 0:
			out.Buffers = []*memory.Buffer{nil}
		case g.inPlace:
			out.Buffers = []*memory.Buffer{memory.NewBuffer(g.validityIn())}
		default:
			out.Buffers = []*memory.Buffer{memory.NewBuffer(g.valid[:bitutil.BytesForBits(g.n)])}
		}
		out.NullCount = nulls
		if nulls > 0 && lead > 0 {
			out.NullCount += lead // the cleared bits before the first slot
		}
	}
	if err := g.lay.finish(out); err != nil {
		return nil, err
	}
	if g.err != nil {
		return nil, g.err
	}
	return out, nil
}

// growBy returns s extended by n zero elements, in new 64-byte aligned
// memory of doubled capacity when s has no room; s itself is not written.
func growBy[T any](s []T, n int) []T {
	l := len(s) + n
	if l <= cap(s) {
		return s[:l]
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	c := max(2*cap(s), l, 64/max(size, 1))
	ns := memory.ViewBytes[T](memory.DefaultAllocator.Allocate(c * size))
	ns = ns[:c:c]
	copy(ns, s)
	return ns[:l]
}

// reserve returns an empty slice with room for n elements.
func reserve[T any](n int) []T { return growBy[T](nil, max(n, 1))[:0] }

// capped is b without its spare capacity, which later appends may fill.
func capped(b []byte) []byte { return b[:len(b):len(b)] }

// bytesOf is the buffer of s's elements.
func bytesOf[T any](s []T) *memory.Buffer { return memory.NewBuffer(memory.BytesOf(s)) }
