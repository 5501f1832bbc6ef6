// Package randdata makes random arrays and records of any type, for
// tests, fuzz seeds, benchmarks and the command-line tool's gen. The same
// seed always gives the same data.
package randdata

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Gen makes random arrays.
type Gen struct {
	r *rand.Rand
	// NullFraction is the chance that a slot of a nullable array is null.
	NullFraction float64
	// MaxListLen bounds the length of list values.
	MaxListLen int
}

// New returns a generator for the seed with 10% nulls and lists of up to
// 4 values.
func New(seed uint64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), NullFraction: 0.1, MaxListLen: 4}
}

// Record returns a record of n rows of the schema.
func (g *Gen) Record(s *alkaid.Schema, n int) *alkaid.Record {
	cols := make([]array.Array, s.NumFields())
	for i := range cols {
		cols[i] = g.Array(s.Field(i).Type, n, s.Field(i).Nullable)
	}
	rec, err := alkaid.NewRecord(s, cols, n)
	if err != nil {
		panic(err) // generated columns always fit their schema
	}
	return rec
}

// Array returns n random values of type t; nulls only when nullable.
func (g *Gen) Array(t datatype.DataType, n int, nullable bool) array.Array {
	return array.MustMake(g.data(t, n, nullable, 0))
}

func (g *Gen) validity(n int, nullable bool) (*memory.Buffer, int) {
	if !nullable || g.NullFraction == 0 || n == 0 {
		return nil, 0
	}
	b := memory.DefaultAllocator.Allocate(bitutil.BytesForBits(n))
	nulls := 0
	for i := range n {
		if g.r.Float64() >= g.NullFraction {
			bitutil.SetBit(b, i)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return memory.NewBuffer(b), nulls
}

func (g *Gen) fixed(n, width int) *memory.Buffer {
	b := memory.DefaultAllocator.Allocate(n * width)
	for i := 0; i+8 <= len(b); i += 8 {
		v := g.r.Uint64()
		for k := range 8 {
			b[i+k] = byte(v >> (8 * k))
		}
	}
	for i := len(b) &^ 7; i < len(b); i++ {
		b[i] = byte(g.r.Uint32())
	}
	return memory.NewBuffer(b)
}

func (g *Gen) data(t datatype.DataType, n int, nullable bool, depth int) *array.Data {
	storage := datatype.StorageOf(t)
	k := storage.Kind()
	switch k {
	case datatype.KindNull:
		return array.NewData(t, n, nil, nil, n, 0)
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		return g.union(t, storage.(*datatype.UnionType), n, depth)
	case datatype.KindRunEndEncoded:
		return g.runEnds(t, storage.(*datatype.RunEndEncodedType), n, depth)
	}
	valid, nulls := g.validity(n, nullable)
	switch k {
	case datatype.KindBool:
		return array.NewData(t, n, []*memory.Buffer{valid, g.fixed(bitutil.BytesForBits(n), 1)}, nil, nulls, 0)
	case datatype.KindBinary, datatype.KindString, datatype.KindLargeBinary, datatype.KindLargeString:
		return g.binary(t, k, n, valid, nulls)
	case datatype.KindBinaryView, datatype.KindStringView:
		return g.views(t, k, n, valid, nulls)
	case datatype.KindList, datatype.KindLargeList, datatype.KindMap:
		return g.list(t, storage, n, valid, nulls, depth)
	case datatype.KindListView, datatype.KindLargeListView:
		return g.listView(t, storage.(*datatype.ListType), n, valid, nulls, depth)
	case datatype.KindFixedSizeList:
		lt := storage.(*datatype.ListType)
		child := g.data(lt.Elem().Type, n*int(lt.Size()), lt.Elem().Nullable, depth+1)
		return array.NewData(t, n, []*memory.Buffer{valid}, []*array.Data{child}, nulls, 0)
	case datatype.KindStruct:
		st := storage.(*datatype.StructType)
		children := make([]*array.Data, st.NumFields())
		for i := range children {
			f := st.Field(i)
			children[i] = g.data(f.Type, n, f.Nullable, depth+1)
		}
		return array.NewData(t, n, []*memory.Buffer{valid}, children, nulls, 0)
	case datatype.KindDictionary:
		dt := storage.(*datatype.DictionaryType)
		size := 1 + g.r.IntN(min(max(n, 1), 16))
		if max := maxIndex(dt.Index); size > max {
			size = max
		}
		dict := g.data(dt.Value, size, true, depth+1)
		idx := g.indices(dt.Index, n, size)
		d := array.NewData(t, n, []*memory.Buffer{valid, idx}, nil, nulls, 0)
		d.Dictionary = dict
		return d
	}
	return g.primitive(t, k, n, valid, nulls)
}

func maxIndex(t datatype.DataType) int {
	switch t.Kind() {
	case datatype.KindInt8:
		return math.MaxInt8
	case datatype.KindUint8:
		return math.MaxUint8
	}
	return 1 << 20
}

func (g *Gen) indices(t datatype.DataType, n, size int) *memory.Buffer {
	w := datatype.ByteWidth(t)
	b := memory.DefaultAllocator.Allocate(n * w)
	for i := range n {
		v := uint64(g.r.IntN(size))
		for k := range w {
			b[i*w+k] = byte(v >> (8 * k))
		}
	}
	return memory.NewBuffer(b)
}

// primitive fills fixed-width values with numbers that print and compare
// well: no NaN payload noise, decimals within their precision.
func (g *Gen) primitive(t datatype.DataType, k datatype.Kind, n int, valid *memory.Buffer, nulls int) *array.Data {
	w := datatype.ByteWidth(t)
	var vals *memory.Buffer
	switch k {
	case datatype.KindFloat16:
		b := memory.DefaultAllocator.Allocate(2 * n)
		v := memory.ViewBytes[datatype.Float16](b)
		for i := range v {
			v[i] = datatype.Float16From(float32(g.r.NormFloat64() * 100))
		}
		vals = memory.NewBuffer(b)
	case datatype.KindFloat32:
		b := memory.DefaultAllocator.Allocate(4 * n)
		v := memory.ViewBytes[float32](b)
		for i := range v {
			v[i] = float32(g.r.NormFloat64() * 1000)
		}
		vals = memory.NewBuffer(b)
	case datatype.KindFloat64:
		b := memory.DefaultAllocator.Allocate(8 * n)
		v := memory.ViewBytes[float64](b)
		for i := range v {
			v[i] = g.r.NormFloat64() * 1e6
		}
		vals = memory.NewBuffer(b)
	case datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
		dt := t.(*datatype.DecimalType)
		digits := min(int(dt.Precision), 18)
		b := memory.DefaultAllocator.Allocate(w * n)
		for i := range n {
			v := g.r.Int64N(pow10(digits))
			if g.r.IntN(2) == 0 {
				v = -v
			}
			putSigned(b[i*w:(i+1)*w], v)
		}
		vals = memory.NewBuffer(b)
	case datatype.KindDate64:
		b := memory.DefaultAllocator.Allocate(8 * n)
		v := memory.ViewBytes[int64](b)
		for i := range v {
			v[i] = (g.r.Int64N(40000) - 20000) * 86400000
		}
		vals = memory.NewBuffer(b)
	case datatype.KindTime32, datatype.KindTime64:
		per := t.(*datatype.TimeType).Unit.PerSecond()
		b := memory.DefaultAllocator.Allocate(w * n)
		for i := range n {
			putSigned(b[i*w:(i+1)*w], g.r.Int64N(86400*per))
		}
		vals = memory.NewBuffer(b)
	default:
		vals = g.fixed(n, w)
	}
	return array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, nulls, 0)
}

func pow10(n int) int64 {
	v := int64(1)
	for range n {
		v *= 10
	}
	return v
}

// putSigned writes v sign-extended little-endian into b.
func putSigned(b []byte, v int64) {
	for k := range b {
		if k < 8 {
			b[k] = byte(v >> (8 * k))
		} else if v < 0 {
			b[k] = 0xff
		} else {
			b[k] = 0
		}
	}
}

var words = strings.Fields("alkaid dubhe merak phecda megrez alioth mizar polaris vega deneb altair sirius rigel µ 矢 € ô")

func (g *Gen) word() string {
	var b strings.Builder
	for range 1 + g.r.IntN(4) {
		b.WriteString(words[g.r.IntN(len(words))])
	}
	return b.String()
}

func (g *Gen) binary(t datatype.DataType, k datatype.Kind, n int, valid *memory.Buffer, nulls int) *array.Data {
	var data []byte
	offs := make([]int64, n+1)
	for i := range n {
		if valid == nil || bitutil.GetBit(valid.Bytes(), i) {
			data = append(data, g.word()...)
		}
		offs[i+1] = int64(len(data))
	}
	var ob *memory.Buffer
	if k == datatype.KindLargeBinary || k == datatype.KindLargeString {
		ob = memory.FromSlice(offs)
	} else {
		o32 := make([]int32, n+1)
		for i, o := range offs {
			o32[i] = int32(o)
		}
		ob = memory.FromSlice(o32)
	}
	return array.NewData(t, n, []*memory.Buffer{valid, ob, memory.NewBuffer(data)}, nil, nulls, 0)
}

func (g *Gen) views(t datatype.DataType, k datatype.Kind, n int, valid *memory.Buffer, nulls int) *array.Data {
	b := array.NewBinaryViewBuilder(t)
	for i := range n {
		if valid != nil && !bitutil.GetBit(valid.Bytes(), i) {
			b.AppendNull()
			continue
		}
		s := g.word()
		if g.r.IntN(2) == 0 {
			s += " " + g.word() + " " + g.word()
		}
		b.AppendString(s)
	}
	return b.Finish().Data()
}

func (g *Gen) listLens(n int, valid *memory.Buffer) ([]int, int) {
	lens := make([]int, n)
	total := 0
	for i := range lens {
		if valid != nil && !bitutil.GetBit(valid.Bytes(), i) {
			continue
		}
		lens[i] = g.r.IntN(g.MaxListLen + 1)
		total += lens[i]
	}
	return lens, total
}

func (g *Gen) list(t, storage datatype.DataType, n int, valid *memory.Buffer, nulls, depth int) *array.Data {
	lens, total := g.listLens(n, valid)
	var elem datatype.Field
	switch s := storage.(type) {
	case *datatype.ListType:
		elem = s.Elem()
	case *datatype.MapType:
		elem = s.Entries()
	}
	child := g.data(elem.Type, total, elem.Nullable, depth+1)
	var ob *memory.Buffer
	if storage.Kind() == datatype.KindLargeList {
		offs := make([]int64, n+1)
		for i, l := range lens {
			offs[i+1] = offs[i] + int64(l)
		}
		ob = memory.FromSlice(offs)
	} else {
		offs := make([]int32, n+1)
		for i, l := range lens {
			offs[i+1] = offs[i] + int32(l)
		}
		ob = memory.FromSlice(offs)
	}
	return array.NewData(t, n, []*memory.Buffer{valid, ob}, []*array.Data{child}, nulls, 0)
}

// listView places each list at a random spot of a shared child, so
// lists overlap and come out of order, as the layout allows.
func (g *Gen) listView(t datatype.DataType, lt *datatype.ListType, n int, valid *memory.Buffer, nulls, depth int) *array.Data {
	lens, total := g.listLens(n, valid)
	childLen := total/2 + g.MaxListLen
	child := g.data(lt.Elem().Type, childLen, lt.Elem().Nullable, depth+1)
	offs, sizes := make([]int64, n), make([]int64, n)
	for i, l := range lens {
		l = min(l, childLen)
		sizes[i] = int64(l)
		if l > 0 {
			offs[i] = int64(g.r.IntN(childLen - l + 1))
		}
	}
	var ob, sb *memory.Buffer
	if lt.Kind() == datatype.KindLargeListView {
		ob, sb = memory.FromSlice(offs), memory.FromSlice(sizes)
	} else {
		o32, s32 := make([]int32, n), make([]int32, n)
		for i := range offs {
			o32[i], s32[i] = int32(offs[i]), int32(sizes[i])
		}
		ob, sb = memory.FromSlice(o32), memory.FromSlice(s32)
	}
	return array.NewData(t, n, []*memory.Buffer{valid, ob, sb}, []*array.Data{child}, nulls, 0)
}

func (g *Gen) union(t datatype.DataType, ut *datatype.UnionType, n, depth int) *array.Data {
	codes := ut.TypeCodes()
	nf := len(codes)
	if nf == 0 {
		if n != 0 {
			panic(fmt.Sprintf("randdata: %d values of a union without children", n))
		}
		bufs := []*memory.Buffer{memory.NewBuffer(nil)}
		if ut.Mode() == datatype.Dense {
			bufs = append(bufs, memory.NewBuffer(nil))
		}
		return array.NewData(t, 0, bufs, nil, 0, 0)
	}
	ids := make([]int8, n)
	which := make([]int, n)
	counts := make([]int, nf)
	offs := make([]int32, n)
	for i := range ids {
		c := g.r.IntN(nf)
		which[i], ids[i] = c, codes[c]
		offs[i] = int32(counts[c])
		counts[c]++
	}
	children := make([]*array.Data, nf)
	for c := range children {
		f := ut.Field(c)
		size := counts[c]
		if ut.Mode() == datatype.Sparse {
			size = n
		}
		children[c] = g.data(f.Type, size, f.Nullable, depth+1)
	}
	bufs := []*memory.Buffer{memory.FromSlice(ids)}
	if ut.Mode() == datatype.Dense {
		bufs = append(bufs, memory.FromSlice(offs))
	}
	return array.NewData(t, n, bufs, children, 0, 0)
}

func (g *Gen) runEnds(t datatype.DataType, rt *datatype.RunEndEncodedType, n, depth int) *array.Data {
	var ends []int64
	for pos := 0; pos < n; {
		pos = min(n, pos+1+g.r.IntN(4))
		ends = append(ends, int64(pos))
	}
	w := datatype.ByteWidth(rt.RunEnds().Type)
	b := memory.DefaultAllocator.Allocate(len(ends) * w)
	for i, e := range ends {
		putSigned(b[i*w:(i+1)*w], e)
	}
	endsData := array.NewData(rt.RunEnds().Type, len(ends), []*memory.Buffer{nil, memory.NewBuffer(b)}, nil, 0, 0)
	values := g.data(rt.Values().Type, len(ends), rt.Values().Nullable, depth+1)
	return array.NewData(t, n, nil, []*array.Data{endsData, values}, 0, 0)
}
