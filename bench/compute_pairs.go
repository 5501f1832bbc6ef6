package bench

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	acompute "github.com/apache/arrow-go/v18/arrow/compute"
	amemory "github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// dataEngInputs are the inputs of the sort, cast and hashing pairs.
type dataEngInputs struct {
	once      sync.Once
	sortInt64 numPair // SumN random int64 (10M), no nulls
	uniq      numPair // SumN int64 drawn from 1000 values
	sortUtf8  numPair // KernelN (1M) random strings of 8-32 letters
	int32s    numPair // KernelN int32, 5% nulls
	numStrs   numPair // KernelN decimal strings of int64 values
}

// dataEng holds each Inputs' sort, cast and hashing inputs.
var dataEng struct {
	sync.Mutex
	m map[*Inputs]*dataEngInputs
}

func (in *Inputs) dataEngInputs() *dataEngInputs {
	dataEng.Lock()
	if dataEng.m == nil {
		dataEng.m = map[*Inputs]*dataEngInputs{}
	}
	d := dataEng.m[in]
	if d == nil {
		d = &dataEngInputs{}
		dataEng.m[in] = d
	}
	dataEng.Unlock()
	d.once.Do(func() {
		r := newRand(28)
		d.sortInt64 = int64Pair(r, in.S.SumN, 0, func() int64 { return int64(r.Uint64()) })
		d.uniq = int64Pair(r, in.S.SumN, 0, func() int64 { return int64(r.IntN(1000))*7919 - 3_000_000 })
		n := in.S.KernelN
		d.sortUtf8 = stringPair(n, func(int) string { return randString(r, 8, 32) })
		d.numStrs = stringPair(n, func(int) string { return strconv.FormatInt(r.Int64()>>uint(r.IntN(60)), 10) })
		values := memory.DefaultAllocator.Allocate(4 * n)
		vs := memory.ViewBytes[int32](values)
		valid, nulls := bitmap(r, n, 5)
		for i := range vs {
			vs[i] = r.Int32() - 1<<30
		}
		d.int32s = fixedPair(datatype.Int32, aarrow.PrimitiveTypes.Int32, valid, nulls, values, n)
	})
	return d
}

// stringPair builds n strings with our builder; arrow-go shares the
// buffers.
func stringPair(n int, gen func(int) string) numPair {
	sb := array.NewBinaryBuilder[int32](datatype.String)
	for i := range n {
		sb.AppendString(gen(i))
	}
	s := sb.Finish()
	bufs := s.Data().Buffers
	ad := aarray.NewData(aarrow.BinaryTypes.String, n, []*amemory.Buffer{nil,
		amemory.NewBufferBytes(bufs[1].Bytes()), amemory.NewBufferBytes(bufs[2].Bytes())}, nil, 0, 0)
	return numPair{ours: s, theirs: aarray.MakeFromData(ad)}
}

// sample is a cheap signature of a result for the agreement test: the
// length and 64 evenly spaced values.
func sample(n int, at func(i int) string) string {
	s := fmt.Sprint(n, ":")
	for k := range 64 {
		if n > 0 {
			s += at(k*n/64) + ","
		}
	}
	return s
}

func sampleOurs(a array.Array) string {
	return sample(a.Len(), func(i int) string { return array.FormatValue(a, i) })
}

func sampleTheirs(a aarrow.Array) string {
	return sample(a.Len(), func(i int) string { return a.ValueStr(i) })
}

func (in *Inputs) dataEngPairs() []Pair {
	ctx := context.Background()
	d := func() *dataEngInputs { return in.dataEngInputs() }
	setup := func() { in.dataEngInputs() }
	asc := acompute.DefaultSortKey()
	theirs := func(a aarrow.Array, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		defer a.Release()
		return sampleTheirs(a), nil
	}
	ours := func(a array.Array, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return sampleOurs(a), nil
	}
	b8 := func(n func() int) func() int64 { return func() int64 { return int64(8 * n()) } }
	return []Pair{
		{Name: "SortIndices/int64-10M", Setup: setup, Values: in.S.SumN, Bytes: b8(func() int { return in.S.SumN }),
			Alkaid: func() (any, error) { return ours(compute.SortIndices(d().sortInt64.ours, compute.Order{})) },
			ArrowGo: func() (any, error) {
				return theirs(acompute.SortIndicesArray(ctx, d().sortInt64.theirs, asc))
			}},
		{Name: "SortIndices/utf8-1M", Setup: setup, Values: in.S.KernelN,
			Alkaid: func() (any, error) { return ours(compute.SortIndices(d().sortUtf8.ours, compute.Order{})) },
			ArrowGo: func() (any, error) {
				return theirs(acompute.SortIndicesArray(ctx, d().sortUtf8.theirs, asc))
			}},
		{Name: "Cast/int32-float64", Setup: setup, Values: in.S.KernelN, Bytes: func() int64 { return int64(4 * in.S.KernelN) },
			Alkaid: func() (any, error) { return ours(compute.Cast(d().int32s.ours, datatype.Float64)) },
			ArrowGo: func() (any, error) {
				return theirs(acompute.CastToType(ctx, d().int32s.theirs, aarrow.PrimitiveTypes.Float64))
			}},
		{Name: "Cast/utf8-int64", Setup: setup, Values: in.S.KernelN,
			Alkaid: func() (any, error) { return ours(compute.Cast(d().numStrs.ours, datatype.Int64)) },
			ArrowGo: func() (any, error) {
				return theirs(acompute.CastToType(ctx, d().numStrs.theirs, aarrow.PrimitiveTypes.Int64))
			}},
		{Name: "Unique/int64-10M-1k", Setup: setup, Values: in.S.SumN, Bytes: b8(func() int { return in.S.SumN }),
			Alkaid: func() (any, error) { return ours(compute.Unique(d().uniq.ours)) },
			ArrowGo: func() (any, error) {
				return theirs(acompute.UniqueArray(ctx, d().uniq.theirs))
			}},
	}
}
