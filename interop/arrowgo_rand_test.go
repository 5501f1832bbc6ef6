package interop

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrowGoGen builds random arrow-go records with arrow-go's own builders,
// one appended value at a time, for any type arrowGoType produces. It is
// independent of Alkaid's randdata: the data Alkaid reads in the
// arrow-go → Alkaid direction is arrow-go's through and through.
type arrowGoGen struct {
	r   *rand.Rand
	mem memory.Allocator
	// inDict draws values from a small pool, so dictionaries repeat.
	inDict bool
}

func newArrowGoGen(seed uint64) *arrowGoGen {
	return &arrowGoGen{r: rand.New(rand.NewPCG(seed, ^seed)), mem: memory.NewGoAllocator()}
}

var arrowGoWords = []string{"", "a", "alkaid", "mizar", "vega", "µ-unit", "矢印", "€uro", "a string longer than twelve bytes", "deneb altair sirius"}

// record returns n random rows of the schema.
func (g *arrowGoGen) record(s *aarrow.Schema, n int) aarrow.RecordBatch {
	cols := make([]aarrow.Array, s.NumFields())
	for i, f := range s.Fields() {
		cols[i] = g.column(f, n)
	}
	rec := aarray.NewRecordBatch(s, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// column returns n random values of the field's type, through one
// arrow-go builder where arrow-go has one. arrow-go v18.8.0 has no
// dictionary builder for large_utf8, large_binary or view values (its
// memo tables stop at utf8 and binary: NewDictionaryBuilder panics
// "unsupported builder for value type"), so such dictionaries, and the
// structs around them, are assembled from arrays with arrow-go's
// NewDictionaryArray and NewStructArrayWithFieldsAndNulls.
func (g *arrowGoGen) column(f aarrow.Field, n int) aarrow.Array {
	if !noDictBuilder(f.Type) {
		b := aarray.NewBuilder(g.mem, f.Type)
		defer b.Release()
		for range n {
			g.appendOne(b, f.Nullable)
		}
		return b.NewArray()
	}
	switch dt := f.Type.(type) {
	case *aarrow.DictionaryType:
		size := 1 + g.r.IntN(8)
		was := g.inDict
		g.inDict = true
		dict := g.column(aarrow.Field{Type: dt.ValueType, Nullable: true}, size)
		g.inDict = was
		defer dict.Release()
		ib := aarray.NewBuilder(g.mem, dt.IndexType)
		defer ib.Release()
		for range n {
			if f.Nullable && g.r.IntN(8) == 0 {
				ib.AppendNull()
				continue
			}
			if err := ib.AppendValueFromString(fmt.Sprint(g.r.IntN(size))); err != nil {
				panic(err)
			}
		}
		idx := ib.NewArray()
		defer idx.Release()
		return aarray.NewDictionaryArray(dt, idx, dict)
	case *aarrow.StructType:
		cols := make([]aarrow.Array, dt.NumFields())
		for i, cf := range dt.Fields() {
			cols[i] = g.column(cf, n)
			defer cols[i].Release()
		}
		vb := aarray.NewBooleanBuilder(g.mem)
		defer vb.Release()
		nulls := 0
		for range n {
			valid := !f.Nullable || g.r.IntN(8) != 0
			if !valid {
				nulls++
			}
			vb.Append(valid)
		}
		valid := vb.NewBooleanArray()
		defer valid.Release()
		out, err := aarray.NewStructArrayWithFieldsAndNulls(cols, dt.Fields(), valid.Data().Buffers()[1], nulls, 0)
		if err != nil {
			panic(err)
		}
		return out
	}
	panic(fmt.Sprintf("arrowGoGen: cannot build %s", f.Type))
}

// noDictBuilder reports whether t is, or is a struct holding, a dictionary
// that arrow-go's NewDictionaryBuilder cannot build.
func noDictBuilder(t aarrow.DataType) bool {
	switch t := t.(type) {
	case *aarrow.DictionaryType:
		switch t.ValueType.ID() {
		case aarrow.LARGE_STRING, aarrow.LARGE_BINARY, aarrow.STRING_VIEW, aarrow.BINARY_VIEW:
			return true
		}
	case *aarrow.StructType:
		for _, f := range t.Fields() {
			if noDictBuilder(f.Type) {
				return true
			}
		}
	}
	return false
}

// appendOne appends one random slot (a null with chance 1/8 when
// nullable) to b.
func (g *arrowGoGen) appendOne(b aarray.Builder, nullable bool) {
	dt := b.Type()
	switch dt.ID() {
	case aarrow.NULL:
		b.AppendNull()
		return
	case aarrow.SPARSE_UNION, aarrow.DENSE_UNION, aarrow.RUN_END_ENCODED:
		// no validity of their own: nulls come from the children
	default:
		if nullable && g.r.IntN(8) == 0 {
			b.AppendNull()
			return
		}
	}
	small := func(n int) int {
		if g.inDict {
			return g.r.IntN(min(n, 5))
		}
		return g.r.IntN(n)
	}
	signed := func(bits int) int64 {
		v := int64(g.r.Uint64())
		if g.inDict {
			v = int64(small(1000)) - 500
		}
		return v << (64 - bits) >> (64 - bits)
	}
	word := func() string { return arrowGoWords[small(len(arrowGoWords))] }

	switch b := b.(type) {
	case *aarray.BooleanBuilder:
		b.Append(g.r.IntN(2) == 0)
	case *aarray.Int8Builder:
		b.Append(int8(signed(8)))
	case *aarray.Int16Builder:
		b.Append(int16(signed(16)))
	case *aarray.Int32Builder:
		b.Append(int32(signed(32)))
	case *aarray.Int64Builder:
		b.Append(signed(64))
	case *aarray.Uint8Builder:
		b.Append(uint8(signed(8)))
	case *aarray.Uint16Builder:
		b.Append(uint16(signed(16)))
	case *aarray.Uint32Builder:
		b.Append(uint32(signed(32)))
	case *aarray.Uint64Builder:
		b.Append(uint64(signed(64)))
	case *aarray.Float16Builder:
		b.Append(float16.New(float32(g.r.NormFloat64() * 100)))
	case *aarray.Float32Builder:
		b.Append(float32(g.r.NormFloat64() * 1000))
	case *aarray.Float64Builder:
		b.Append(g.r.NormFloat64() * 1e9)
	case *aarray.Decimal32Builder:
		b.Append(decimal.Decimal32(g.unscaled(dt.(*aarrow.Decimal32Type).Precision).Int64()))
	case *aarray.Decimal64Builder:
		b.Append(decimal.Decimal64(g.unscaled(dt.(*aarrow.Decimal64Type).Precision).Int64()))
	case *aarray.Decimal128Builder:
		b.Append(decimal128.FromBigInt(g.unscaled(dt.(*aarrow.Decimal128Type).Precision)))
	case *aarray.Decimal256Builder:
		b.Append(decimal256.FromBigInt(g.unscaled(dt.(*aarrow.Decimal256Type).Precision)))
	case *aarray.Date32Builder:
		b.Append(aarrow.Date32(g.r.IntN(80000) - 40000))
	case *aarray.Date64Builder:
		b.Append(aarrow.Date64(int64(g.r.IntN(80000)-40000) * 86400000))
	case *aarray.Time32Builder:
		per := int64(1)
		if dt.(*aarrow.Time32Type).Unit == aarrow.Millisecond {
			per = 1000
		}
		b.Append(aarrow.Time32(g.r.Int64N(86400 * per)))
	case *aarray.Time64Builder:
		per := int64(1e6)
		if dt.(*aarrow.Time64Type).Unit == aarrow.Nanosecond {
			per = 1e9
		}
		b.Append(aarrow.Time64(g.r.Int64N(86400 * per)))
	case *aarray.TimestampBuilder:
		b.Append(aarrow.Timestamp(signed(64)))
	case *aarray.DurationBuilder:
		b.Append(aarrow.Duration(signed(64)))
	case *aarray.MonthIntervalBuilder:
		b.Append(aarrow.MonthInterval(signed(32)))
	case *aarray.DayTimeIntervalBuilder:
		b.Append(aarrow.DayTimeInterval{Days: int32(signed(32)), Milliseconds: int32(signed(32))})
	case *aarray.MonthDayNanoIntervalBuilder:
		b.Append(aarrow.MonthDayNanoInterval{Months: int32(signed(32)), Days: int32(signed(32)), Nanoseconds: signed(64)})
	case *aarray.FixedSizeBinaryBuilder:
		v := make([]byte, dt.(*aarrow.FixedSizeBinaryType).ByteWidth)
		for i := range v {
			v[i] = byte(small(256))
		}
		b.Append(v)
	case *aarray.BinaryBuilder: // binary and large binary
		b.Append(g.bytes(small))
	case *aarray.BinaryViewBuilder:
		b.Append(g.bytes(small))
	case *aarray.StringBuilder:
		b.Append(word())
	case *aarray.LargeStringBuilder:
		b.Append(word())
	case *aarray.StringViewBuilder:
		b.Append(word())
	case *aarray.ListBuilder:
		b.Append(true)
		g.appendN(b.ValueBuilder(), dt.(*aarrow.ListType).ElemField().Nullable, g.r.IntN(5))
	case *aarray.LargeListBuilder:
		b.Append(true)
		g.appendN(b.ValueBuilder(), dt.(*aarrow.LargeListType).ElemField().Nullable, g.r.IntN(5))
	case *aarray.ListViewBuilder:
		n := g.r.IntN(5)
		b.AppendWithSize(true, n)
		g.appendN(b.ValueBuilder(), dt.(*aarrow.ListViewType).ElemField().Nullable, n)
	case *aarray.LargeListViewBuilder:
		n := g.r.IntN(5)
		b.AppendWithSize(true, n)
		g.appendN(b.ValueBuilder(), dt.(*aarrow.LargeListViewType).ElemField().Nullable, n)
	case *aarray.FixedSizeListBuilder:
		ft := dt.(*aarrow.FixedSizeListType)
		b.Append(true)
		g.appendN(b.ValueBuilder(), ft.ElemField().Nullable, int(ft.Len()))
	case *aarray.MapBuilder:
		mt := dt.(*aarrow.MapType)
		b.Append(true)
		for range g.r.IntN(4) {
			g.appendOne(b.KeyBuilder(), false)
			g.appendOne(b.ItemBuilder(), mt.ItemField().Nullable)
		}
	case *aarray.StructBuilder:
		st := dt.(*aarrow.StructType)
		b.Append(true)
		for i, f := range st.Fields() {
			g.appendOne(b.FieldBuilder(i), f.Nullable)
		}
	case *aarray.SparseUnionBuilder:
		ut := dt.(*aarrow.SparseUnionType)
		c := g.r.IntN(len(ut.Fields()))
		b.Append(ut.TypeCodes()[c])
		for i, f := range ut.Fields() {
			if i == c {
				g.appendOne(b.Child(i), f.Nullable)
			} else {
				b.Child(i).AppendEmptyValue()
			}
		}
	case *aarray.DenseUnionBuilder:
		ut := dt.(*aarrow.DenseUnionType)
		c := g.r.IntN(len(ut.Fields()))
		b.Append(ut.TypeCodes()[c])
		g.appendOne(b.Child(c), ut.Fields()[c].Nullable)
	case aarray.DictionaryBuilder:
		// One value of the dictionary's value type, built with arrow-go
		// and appended through the dictionary builder's memo table.
		vb := aarray.NewBuilder(g.mem, dt.(*aarrow.DictionaryType).ValueType)
		defer vb.Release()
		was := g.inDict
		g.inDict = true
		g.appendOne(vb, false)
		g.inDict = was
		v := vb.NewArray()
		defer v.Release()
		if err := b.AppendArray(v); err != nil {
			panic(err)
		}
	case *aarray.RunEndEncodedBuilder:
		if b.Len() > 0 && g.r.IntN(2) == 0 {
			b.ContinueRun(1)
			return
		}
		if g.r.IntN(8) == 0 {
			b.AppendNull()
			return
		}
		b.Append(1)
		g.appendOne(b.ValueBuilder(), false)
	default:
		panic(fmt.Sprintf("arrowGoGen: no random values for %T (%s)", b, dt))
	}
}

func (g *arrowGoGen) appendN(b aarray.Builder, nullable bool, n int) {
	for range n {
		g.appendOne(b, nullable)
	}
}

func (g *arrowGoGen) bytes(small func(int) int) []byte {
	v := make([]byte, small(20))
	for i := range v {
		v[i] = byte(g.r.Uint32())
	}
	return v
}

// unscaled is a random integer of up to precision decimal digits.
func (g *arrowGoGen) unscaled(precision int32) *big.Int {
	digits := 1 + g.r.IntN(int(precision))
	if g.inDict {
		digits = 1
	}
	text := make([]byte, 0, digits+1)
	if g.r.IntN(2) == 0 {
		text = append(text, '-')
	}
	for range digits {
		text = append(text, byte('0'+g.r.IntN(10)))
	}
	v, _ := new(big.Int).SetString(string(text), 10)
	return v
}
