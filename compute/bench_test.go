package compute

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

// The benchmarks run on 10M values, far beyond the caches, so that they
// measure memory bandwidth as the targets are stated. GB/s counts the
// bytes of input values read (8 per int64/float64 slot and operand);
// BenchmarkCopy gives the copy() bandwidth of the same machine and run
// in the same unit (bytes copied per second).
const benchN = 10_000_000

type benchData struct {
	i64, i64b, i64n  array.Array // plain, second operand, 10% nulls
	f64, f64b, f64n  array.Array
	mask             *array.Boolean // 50% true, random
	sparse           *array.Boolean // 10% true, random
	indices          array.Array    // random int64 indices
	srcCopy, dstCopy []int64
}

var (
	benchOnce sync.Once
	bench     benchData
)

func benchArrays() *benchData {
	benchOnce.Do(func() {
		r := rand.New(rand.NewPCG(1, 2))
		ints := func() []int64 {
			v := make([]int64, benchN)
			for i := range v {
				v[i] = r.Int64N(1 << 40)
			}
			return v
		}
		floats := func() []float64 {
			v := make([]float64, benchN)
			for i := range v {
				v[i] = r.NormFloat64()
			}
			return v
		}
		bitmap := func(p float64) (*memory.Buffer, int) {
			b := memory.Allocate(nil, bitutil.BytesForBits(benchN))
			zeros := 0
			for i := range benchN {
				if r.Float64() < p {
					bitutil.SetBit(b.Bytes(), i)
				} else {
					zeros++
				}
			}
			return b, zeros
		}
		mk := func(t datatype.DataType, vals *memory.Buffer, valid *memory.Buffer, nulls int) array.Array {
			return array.MustMake(array.NewData(t, benchN, []*memory.Buffer{valid, vals}, nil, nulls, 0))
		}
		valid, nulls := bitmap(0.9)
		iv, fv := memory.FromSlice(ints()), memory.FromSlice(floats())
		bench.i64 = mk(datatype.Int64, iv, nil, 0)
		bench.i64n = mk(datatype.Int64, iv, valid, nulls)
		bench.i64b = mk(datatype.Int64, memory.FromSlice(ints()), nil, 0)
		bench.f64 = mk(datatype.Float64, fv, nil, 0)
		bench.f64n = mk(datatype.Float64, fv, valid, nulls)
		bench.f64b = mk(datatype.Float64, memory.FromSlice(floats()), nil, 0)
		m, _ := bitmap(0.5)
		bench.mask = mk(datatype.Bool, m, nil, 0).(*array.Boolean)
		idx := make([]int64, benchN)
		for i := range idx {
			idx[i] = r.Int64N(benchN)
		}
		bench.indices = mk(datatype.Int64, memory.FromSlice(idx), nil, 0)
		bench.srcCopy, bench.dstCopy = ints(), make([]int64, benchN)
		m, _ = bitmap(0.1)
		bench.sparse = mk(datatype.Bool, m, nil, 0).(*array.Boolean)
	})
	return &bench
}

// run times f over b.N rounds of benchN values, with bytesPerValue input
// bytes per value, and reports ns/value besides the standard GB/s.
func run(b *testing.B, bytesPerValue int, f func()) {
	b.SetBytes(int64(bytesPerValue * benchN))
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		f()
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/benchN, "ns/value")
}

func BenchmarkCopy(b *testing.B) {
	b.Logf("simd level: %s", simd.Level())
	d := benchArrays()
	run(b, 8, func() { copy(d.dstCopy, d.srcCopy) })
}

// BenchmarkCopyAlloc is copy() into a freshly allocated buffer, the
// analogue of a kernel that returns a new array.
func BenchmarkCopyAlloc(b *testing.B) {
	d := benchArrays()
	run(b, 8, func() {
		dst := memory.ViewBytes[int64](memory.Allocate(nil, 8*benchN).Bytes())
		copy(dst, d.srcCopy)
	})
}

func fatal(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}

func BenchmarkSum(b *testing.B) {
	d := benchArrays()
	for _, c := range []struct {
		name string
		a    array.Array
	}{{"int64", d.i64}, {"int64-nulls", d.i64n}, {"float64", d.f64}, {"float64-nulls", d.f64n}} {
		b.Run(c.name, func(b *testing.B) {
			run(b, 8, func() { _, err := Sum(c.a); fatal(b, err) })
		})
	}
	b.Run("int64-checked", func(b *testing.B) {
		run(b, 8, func() { _, err := SumChecked(d.i64); fatal(b, err) })
	})
}

func BenchmarkMinMax(b *testing.B) {
	d := benchArrays()
	for _, c := range []struct {
		name string
		a    array.Array
	}{{"int64", d.i64}, {"int64-nulls", d.i64n}, {"float64", d.f64}, {"float64-nulls", d.f64n}} {
		b.Run("min/"+c.name, func(b *testing.B) {
			run(b, 8, func() { _, err := Min(c.a); fatal(b, err) })
		})
		b.Run("max/"+c.name, func(b *testing.B) {
			run(b, 8, func() { _, err := Max(c.a); fatal(b, err) })
		})
	}
}

func BenchmarkAdd(b *testing.B) {
	d := benchArrays()
	b.Run("int64", func(b *testing.B) { run(b, 16, func() { _, err := Add(d.i64, d.i64b); fatal(b, err) }) })
	b.Run("int64-nulls", func(b *testing.B) { run(b, 16, func() { _, err := Add(d.i64n, d.i64b); fatal(b, err) }) })
	b.Run("float64", func(b *testing.B) { run(b, 16, func() { _, err := Add(d.f64, d.f64b); fatal(b, err) }) })
	b.Run("int64-scalar", func(b *testing.B) { run(b, 8, func() { _, err := AddScalar(d.i64, 3); fatal(b, err) }) })
	b.Run("int64-checked", func(b *testing.B) { run(b, 16, func() { _, err := AddChecked(d.i64, d.i64b); fatal(b, err) }) })
}

func BenchmarkCompare(b *testing.B) {
	d := benchArrays()
	b.Run("int64", func(b *testing.B) { run(b, 16, func() { _, err := Compare(Lt, d.i64, d.i64b); fatal(b, err) }) })
	b.Run("float64", func(b *testing.B) { run(b, 16, func() { _, err := Compare(Lt, d.f64, d.f64b); fatal(b, err) }) })
	b.Run("int64-scalar", func(b *testing.B) {
		run(b, 8, func() { _, err := CompareScalar(Lt, d.i64, 1<<39); fatal(b, err) })
	})
}

func BenchmarkFilter(b *testing.B) {
	d := benchArrays()
	b.Run("int64", func(b *testing.B) { run(b, 8, func() { _, err := Filter(d.i64, d.mask); fatal(b, err) }) })
	b.Run("int64-nulls", func(b *testing.B) { run(b, 8, func() { _, err := Filter(d.i64n, d.mask); fatal(b, err) }) })
	b.Run("int64-sparse", func(b *testing.B) { run(b, 8, func() { _, err := Filter(d.i64, d.sparse); fatal(b, err) }) })
}

func BenchmarkTake(b *testing.B) {
	d := benchArrays()
	b.Run("int64", func(b *testing.B) { run(b, 8, func() { _, err := Take(d.i64, d.indices); fatal(b, err) }) })
	b.Run("int64-nulls", func(b *testing.B) { run(b, 8, func() { _, err := Take(d.i64n, d.indices); fatal(b, err) }) })
}
