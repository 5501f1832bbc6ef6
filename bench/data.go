package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	amemory "github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/memory"
)

// Sizes are the input sizes of the benchmarks.
type Sizes struct {
	BuildN     int // values per builder benchmark
	BatchRows  int // rows of the mixed IPC batch
	BitmapBits int // bits of the bitmap kernels
	SumN       int // values of the out-of-cache sums
	SumCacheN  int // values of the in-cache sums
	KernelN    int // values of add, less-than, filter, take
	FileMiB    []int
}

// Full are the sizes of the published benchmarks.
var Full = Sizes{
	BuildN:     1 << 20,
	BatchRows:  1 << 20,
	BitmapBits: 8 << 20,
	SumN:       10_000_000,
	SumCacheN:  16 << 10, // 128 KiB of values: fits L2
	KernelN:    1 << 20,
	FileMiB:    []int{64, 1024},
}

// Small are the sizes of the quick correctness test.
var Small = Sizes{
	BuildN:     1000,
	BatchRows:  999,
	BitmapBits: 10_003,
	SumN:       10_001,
	SumCacheN:  517,
	KernelN:    1001,
	FileMiB:    []int{1},
}

// Inputs are the data of every benchmark, made once (lazily, part by
// part) from fixed seeds; both libraries read the same values, and where
// an input is an array both sides share its buffers.
type Inputs struct {
	S Sizes

	buildOnce sync.Once
	ints      []int64
	valid10   []bool // every slot null with chance 10%
	strs      []string
	listLens  []int   // list<int32>: lengths 0..7
	listVals  []int32 // flattened values
	dictStrs  []string

	batchOnce sync.Once
	batch     *alkaid.Record
	abatch    aarrow.RecordBatch
	batchSize int64 // bytes of the batch's buffers (throughput)

	bitsOnce sync.Once
	bitsA    []byte
	bitsB    []byte
	bitsOut  []byte

	sumOnce sync.Once
	sums    map[string]*numPair

	kernOnce sync.Once
	kern     kernelInputs
}

// numPair is one numeric array in both libraries over the same buffers.
type numPair struct {
	ours   array.Array
	theirs aarrow.Array
}

type kernelInputs struct {
	a, b       numPair // int64 with 5% nulls
	mask       numPair // bool, 50% true, no nulls
	indices    numPair // int64 random indices in [0, KernelN)
	aNoNull    numPair // int64 without nulls
	bNoNull    numPair
	strs       numPair // utf8 for take
	expectSumA int64
}

// NewInputs returns the inputs of size s (nothing is made yet).
func NewInputs(s Sizes) *Inputs { return &Inputs{S: s} }

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1)) }

func randString(r *rand.Rand, min, max int) string {
	b := make([]byte, min+r.IntN(max-min+1))
	for i := range b {
		b[i] = byte('a' + r.IntN(26))
	}
	return string(b)
}

func (in *Inputs) build() {
	in.buildOnce.Do(func() {
		r := newRand(1)
		n := in.S.BuildN
		in.ints = make([]int64, n)
		in.valid10 = make([]bool, n)
		in.strs = make([]string, n)
		in.listLens = make([]int, n)
		in.dictStrs = make([]string, n)
		distinct := make([]string, 256)
		for i := range distinct {
			distinct[i] = randString(r, 8, 32)
		}
		for i := range n {
			in.ints[i] = r.Int64()
			in.valid10[i] = r.IntN(10) != 0
			in.strs[i] = randString(r, 8, 32)
			in.listLens[i] = r.IntN(8)
			in.dictStrs[i] = distinct[r.IntN(len(distinct))]
		}
		total := 0
		for _, l := range in.listLens {
			total += l
		}
		in.listVals = make([]int32, total)
		for i := range in.listVals {
			in.listVals[i] = r.Int32()
		}
	})
}

// MixedSchema is the schema of the IPC batch: int64, float64, utf8, bool,
// list<int32>, dictionary<int32, utf8>, all nullable.
func MixedSchema() *alkaid.Schema {
	dict, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	if err != nil {
		panic(err)
	}
	return alkaid.NewSchema([]datatype.Field{
		{Name: "i64", Type: datatype.Int64, Nullable: true},
		{Name: "f64", Type: datatype.Float64, Nullable: true},
		{Name: "str", Type: datatype.String, Nullable: true},
		{Name: "bool", Type: datatype.Bool, Nullable: true},
		{Name: "list", Type: datatype.ListOf(datatype.Int32), Nullable: true},
		{Name: "dict", Type: dict, Nullable: true},
	}, datatype.Metadata{})
}

// mixedBatch makes the batch (5% nulls) and the same batch in arrow-go,
// converted through an uncompressed IPC stream.
func (in *Inputs) mixedBatch() {
	in.batchOnce.Do(func() {
		g := randdata.New(7)
		g.NullFraction = 0.05
		in.batch = g.Record(MixedSchema(), in.S.BatchRows)
		in.batchSize = recordBytes(in.batch)
		var buf bytes.Buffer
		w, err := ipc.NewStreamWriter(&buf, in.batch.Schema(), ipc.WithArrowCompat())
		must(err)
		must(w.Write(in.batch))
		must(w.Close())
		r, err := aipc.NewReader(bytes.NewReader(buf.Bytes()), aipc.WithAllocator(amemory.DefaultAllocator))
		must(err)
		if !r.Next() {
			panic(fmt.Sprintf("arrow-go read no batch: %v", r.Err()))
		}
		in.abatch = r.RecordBatch()
		in.abatch.Retain()
		r.Release()
	})
}

// recordBytes is the size of a record's buffers (dictionaries included).
func recordBytes(rec *alkaid.Record) int64 {
	var n int64
	var walk func(d *array.Data)
	walk = func(d *array.Data) {
		for _, b := range d.Buffers {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children {
			walk(c)
		}
		if d.Dictionary != nil {
			walk(d.Dictionary)
		}
	}
	for i := range rec.NumCols() {
		walk(rec.Column(i).Data())
	}
	return n
}

func (in *Inputs) bitmaps() {
	in.bitsOnce.Do(func() {
		r := newRand(3)
		nb := in.S.BitmapBits/8 + 2
		in.bitsA = memory.DefaultAllocator.Allocate(nb)
		in.bitsB = memory.DefaultAllocator.Allocate(nb)
		in.bitsOut = memory.DefaultAllocator.Allocate(nb)
		for i := range nb {
			in.bitsA[i] = byte(r.Uint32())
			in.bitsB[i] = byte(r.Uint32())
		}
	})
}

// bitmap returns a random validity bitmap of n bits with about nullPct%
// clear bits, and the number of clear bits.
func bitmap(r *rand.Rand, n, nullPct int) ([]byte, int) {
	b := memory.DefaultAllocator.Allocate((n + 7) / 8)
	nulls := 0
	for i := range n {
		if r.IntN(100) >= nullPct {
			b[i>>3] |= 1 << (i & 7)
		} else {
			nulls++
		}
	}
	return b, nulls
}

// fixedPair wraps the same buffers as an array of both libraries; null
// slots hold zero (so that a sum that reads them still gets the right
// answer).
func fixedPair(ours datatype.DataType, theirs aarrow.DataType, valid []byte, nulls int, values []byte, n int) numPair {
	var vb *memory.Buffer
	var avb *amemory.Buffer
	if nulls > 0 {
		vb, avb = memory.NewBuffer(valid), amemory.NewBufferBytes(valid)
	}
	d := array.NewData(ours, n, []*memory.Buffer{vb, memory.NewBuffer(values)}, nil, nulls, 0)
	ad := aarray.NewData(theirs, n, []*amemory.Buffer{avb, amemory.NewBufferBytes(values)}, nil, nulls, 0)
	return numPair{ours: array.MustMake(d), theirs: aarray.MakeFromData(ad)}
}

func int64Pair(r *rand.Rand, n, nullPct int, gen func() int64) numPair {
	values := memory.DefaultAllocator.Allocate(8 * n)
	vs := memory.ViewBytes[int64](values)
	var valid []byte
	nulls := 0
	if nullPct > 0 {
		valid, nulls = bitmap(r, n, nullPct)
	}
	for i := range vs {
		if valid == nil || valid[i>>3]&(1<<(i&7)) != 0 {
			vs[i] = gen()
		}
	}
	return fixedPair(datatype.Int64, aarrow.PrimitiveTypes.Int64, valid, nulls, values, n)
}

func float64Pair(r *rand.Rand, n, nullPct int) numPair {
	values := memory.DefaultAllocator.Allocate(8 * n)
	vs := memory.ViewBytes[float64](values)
	var valid []byte
	nulls := 0
	if nullPct > 0 {
		valid, nulls = bitmap(r, n, nullPct)
	}
	for i := range vs {
		if valid == nil || valid[i>>3]&(1<<(i&7)) != 0 {
			// Multiples of 1/8 below 2^20: every partial sum is exact, so
			// the order of additions does not change the result.
			vs[i] = float64(r.IntN(1<<23)) / 8
		}
	}
	return fixedPair(datatype.Float64, aarrow.PrimitiveTypes.Float64, valid, nulls, values, n)
}

func (in *Inputs) sumInputs() {
	in.sumOnce.Do(func() {
		r := newRand(4)
		small := func() int64 { return int64(r.IntN(1 << 30)) }
		in.sums = map[string]*numPair{}
		for _, c := range []struct {
			name  string
			n     int
			nulls int
			float bool
		}{
			{"int64", in.S.SumN, 0, false},
			{"int64-nulls10", in.S.SumN, 10, false},
			{"float64", in.S.SumN, 0, true},
			{"float64-nulls10", in.S.SumN, 10, true},
			{"int64-L2", in.S.SumCacheN, 0, false},
			{"float64-L2", in.S.SumCacheN, 0, true},
		} {
			var p numPair
			if c.float {
				p = float64Pair(r, c.n, c.nulls)
			} else {
				p = int64Pair(r, c.n, c.nulls, small)
			}
			in.sums[c.name] = &p
		}
	})
}

func (in *Inputs) kernels() {
	in.kernOnce.Do(func() {
		r := newRand(5)
		n := in.S.KernelN
		val := func() int64 { return r.Int64N(1<<40) - 1<<39 }
		in.kern.a = int64Pair(r, n, 5, val)
		in.kern.b = int64Pair(r, n, 5, val)
		in.kern.aNoNull = int64Pair(r, n, 0, val)
		in.kern.bNoNull = int64Pair(r, n, 0, val)
		idx := func() int64 { return r.Int64N(int64(n)) }
		in.kern.indices = int64Pair(r, n, 0, idx)
		bits, _ := bitmap(r, n, 50)
		in.kern.mask = numPair{
			ours: array.MustMake(array.NewData(datatype.Bool, n, []*memory.Buffer{nil, memory.NewBuffer(bits)}, nil, 0, 0)),
			theirs: aarray.MakeFromData(aarray.NewData(aarrow.FixedWidthTypes.Boolean, n,
				[]*amemory.Buffer{nil, amemory.NewBufferBytes(bits)}, nil, 0, 0)),
		}
		// utf8 values for take: build with our builder, share the buffers.
		sb := array.NewBinaryBuilder[int32](datatype.String)
		for range n {
			sb.AppendString(randString(r, 8, 32))
		}
		s := sb.Finish()
		bufs := s.Data().Buffers
		ad := aarray.NewData(aarrow.BinaryTypes.String, n, []*amemory.Buffer{nil,
			amemory.NewBufferBytes(bufs[1].Bytes()), amemory.NewBufferBytes(bufs[2].Bytes())}, nil, 0, 0)
		in.kern.strs = numPair{ours: s, theirs: aarray.MakeFromData(ad)}
	})
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
