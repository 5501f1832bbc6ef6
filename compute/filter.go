package compute

import (
	"encoding/binary"
	"math/bits"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Filter returns the slots of a where mask is true, in order; a null
// mask slot drops the row, like false. mask must have a's length. Every
// type is supported (see [Take] for how nested layouts are handled);
// fixed-width and boolean arrays are compacted directly, the others go
// through the positions of the selected slots.
func Filter(a array.Array, mask *array.Boolean) (array.Array, error) {
	if mask.Len() != a.Len() {
		return nil, errf(ErrInvalid, "filter: mask of %d slots for %d", mask.Len(), a.Len())
	}
	s := newSelection(mask)
	return s.apply(a)
}

// FilterChunked returns the rows of c where mask, a Boolean column of
// c's length, is true (see [Filter]). The chunks of c and mask need not
// line up; the result has a chunk per overlap of the two.
func FilterChunked(c *alkaid.Chunked, mask *alkaid.Chunked) (*alkaid.Chunked, error) {
	if err := checkMask(mask, c.Len()); err != nil {
		return nil, err
	}
	return filterChunked(c, mask)
}

// FilterRecord returns the rows of r where mask, a Boolean array of r's
// length, is true (see [Filter]).
func FilterRecord(r *alkaid.Record, mask *array.Boolean) (*alkaid.Record, error) {
	if mask.Len() != r.NumRows() {
		return nil, errf(ErrInvalid, "filter: mask of %d slots for %d rows", mask.Len(), r.NumRows())
	}
	s := newSelection(mask)
	return pickRecord(r, rowPick{rows: s.count, array: s.apply})
}

// FilterTable returns the rows of t where mask, a Boolean column of t's
// length, is true (see [FilterChunked]).
func FilterTable(t *alkaid.Table, mask *alkaid.Chunked) (*alkaid.Table, error) {
	if err := checkMask(mask, t.NumRows()); err != nil {
		return nil, err
	}
	return pickTable(t, rowPick{chunked: func(c *alkaid.Chunked) (*alkaid.Chunked, error) { return filterChunked(c, mask) }})
}

// checkMask reports an error unless mask is a Boolean column of n rows.
func checkMask(mask *alkaid.Chunked, n int) error {
	if mask.DataType().Kind() != datatype.KindBool {
		return errf(ErrInvalid, "filter: mask of type %s", mask.DataType())
	}
	if mask.Len() != n {
		return errf(ErrInvalid, "filter: mask of %d rows for %d", mask.Len(), n)
	}
	return nil
}

func filterChunked(c *alkaid.Chunked, mask *alkaid.Chunked) (*alkaid.Chunked, error) {
	var out []array.Array
	err := aligned(c.Chunks(), mask.Chunks(), func(a, m array.Array) error {
		f, err := Filter(a, m.(*array.Boolean))
		if err == nil && f.Len() > 0 {
			out = append(out, f)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return newChunked(c, out)
}

// aligned calls f with equal-length slices of a and b covering both
// chunk lists, which hold the same number of rows.
func aligned(a, b []array.Array, f func(x, y array.Array) error) error {
	i, j, ai, bj := 0, 0, 0, 0 // chunk index and position inside it
	for i < len(a) && j < len(b) {
		if ai == a[i].Len() {
			i, ai = i+1, 0
			continue
		}
		if bj == b[j].Len() {
			j, bj = j+1, 0
			continue
		}
		m := min(a[i].Len()-ai, b[j].Len()-bj)
		if err := f(array.Slice(a[i], ai, ai+m), array.Slice(b[j], bj, bj+m)); err != nil {
			return err
		}
		ai, bj = ai+m, bj+m
	}
	return nil
}

// selection is a filter mask reduced to one bitmap from bit 0 (true and
// valid), padded so that whole words can be read.
type selection struct {
	n, count int
	bits     []byte
	idx      []int // positions of the set bits, computed on first need
}

func newSelection(mask *array.Boolean) *selection {
	n := mask.Len()
	s := &selection{n: n, bits: memory.Allocate(nil, (n+63)/64*8).Bytes()}
	x, xo := mask.Bitmap()
	if v, vo := bitmapOf(mask.Data()); v != nil {
		bitutil.And(s.bits, 0, x, xo, v, vo, n)
	} else {
		bitutil.CopyBits(s.bits, 0, x, xo, n)
	}
	s.count = bitutil.CountSetBits(s.bits, 0, n)
	return s
}

func (s *selection) word(w int) uint64 { return binary.LittleEndian.Uint64(s.bits[8*w:]) }

func (s *selection) indices() []int {
	if s.idx == nil {
		s.idx = make([]int, 0, s.count)
		for w := 0; w*64 < s.n; w++ {
			for x := s.word(w); x != 0; x &= x - 1 {
				s.idx = append(s.idx, w*64+bits.TrailingZeros64(x))
			}
		}
	}
	return s.idx
}

func (s *selection) apply(a array.Array) (array.Array, error) {
	d := a.Data()
	t := datatype.StorageOf(d.Type)
	w := datatype.ByteWidth(t)
	fixed := datatype.IsFixedWidth(t) && t.Kind() != datatype.KindDictionary
	if !fixed || (t.Kind() != datatype.KindBool && w&(w-1) != 0) || w > 32 {
		return takeArray(a, s.indices())
	}
	var valid *memory.Buffer
	nulls := 0
	if src, off := bitmapOf(d); src != nil {
		valid = memory.Allocate(nil, bitutil.BytesForBits(s.count))
		s.compressBits(valid.Bytes(), src, off)
		nulls = s.count - bitutil.CountSetBits(valid.Bytes(), 0, s.count)
		if nulls == 0 {
			valid = nil
		}
	}
	var vals *memory.Buffer
	if t.Kind() == datatype.KindBool {
		vals = memory.Allocate(nil, bitutil.BytesForBits(s.count))
		bits, off := d.BoolBits()
		s.compressBits(vals.Bytes(), bits, off)
	} else {
		vals = memory.Allocate(nil, s.count*w)
		src, dst := d.ValueBytes(), vals.Bytes()
		switch w {
		case 1:
			compress(s, dst, src)
		case 2:
			compress(s, memory.ViewBytes[uint16](dst), memory.ViewBytes[uint16](src))
		case 4:
			compress(s, memory.ViewBytes[uint32](dst), memory.ViewBytes[uint32](src))
		case 8:
			compress(s, memory.ViewBytes[uint64](dst), memory.ViewBytes[uint64](src))
		case 16:
			compress(s, memory.ViewBytes[[2]uint64](dst), memory.ViewBytes[[2]uint64](src))
		case 32:
			compress(s, memory.ViewBytes[[4]uint64](dst), memory.ViewBytes[[4]uint64](src))
		}
	}
	return array.Make(array.NewData(d.Type, s.count, []*memory.Buffer{valid, vals}, nil, nulls, 0))
}

// sparseWord is the most selected elements of a word of the selection
// that compress copies one by one (by their bit positions) rather than
// storing all 64 and advancing past the selected.
const sparseWord = 16

// compress copies the selected elements of src to the front of dst.
func compress[T any](s *selection, dst, src []T) {
	j := 0
	for w := 0; w*64 < s.n; w++ {
		base := w * 64
		x := s.word(w)
		switch {
		case x == 0:
			continue
		case x == ^uint64(0):
			j += copy(dst[j:j+64], src[base:base+64])
			continue
		}
		if bits.OnesCount64(x) > sparseWord && j+64 <= len(dst) && base+64 <= len(src) {
			// Branch-free: store every element, advance past the selected.
			blk := src[base : base+64]
			out := dst[j : j+64]
			k := 0
			for i := range blk {
				out[k] = blk[i]
				k += int(x >> uint(i) & 1)
			}
			j += k
			continue
		}
		for ; x != 0; x &= x - 1 {
			dst[j] = src[base+bits.TrailingZeros64(x)]
			j++
		}
	}
}

// compressBits copies the selected bits of src (slot 0 at off) to the
// front of dst, which is zeroed.
func (s *selection) compressBits(dst, src []byte, off int) {
	j := 0
	for w := 0; w*64 < s.n; w++ {
		base := w * 64
		x := s.word(w)
		if x == 0 {
			continue
		}
		v := loadBits(src, off+base, min(64, s.n-base))
		if x == ^uint64(0) {
			for k := range 64 {
				dst[(j+k)>>3] |= byte(v>>uint(k)&1) << ((j + k) & 7)
			}
			j += 64
			continue
		}
		for ; x != 0; x &= x - 1 {
			dst[j>>3] |= byte(v>>uint(bits.TrailingZeros64(x))&1) << (j & 7)
			j++
		}
	}
}
