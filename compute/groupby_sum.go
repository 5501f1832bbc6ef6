package compute

import (
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// sumsByGroup is the groupSum kernel of number type T, summing into A
// (int64, uint64 or float64); wide adds a value to an exact sum (nil for
// floats, whose sums are never exact).
func sumsByGroup[T Number, A int64 | uint64 | float64](wide func(*wideSum, T)) func(array.Array, []int32, []int64, bool, *config) any {
	return func(a array.Array, ids []int32, counts []int64, exact bool, c *config) any {
		p := a.(*array.Primitive[T])
		if exact && wide != nil {
			return wideGroupSums(p, ids, counts, wide)
		}
		valid, off := bitmapOf(a.Data())
		return sumSlice[T, A](p.Values(), valid, off, ids, counts, c)
	}
}

// groupSumHalf is the groupSum kernel of float16: float64 sums of the
// values as float32s.
func groupSumHalf(a array.Array, ids []int32, counts []int64, _ bool, c *config) any {
	v := a.(*array.Float16).Values()
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = x.Float32()
	}
	valid, off := bitmapOf(a.Data())
	return sumSlice[float32, float64](f, valid, off, ids, counts, c)
}

// sumSlice adds v's valid values into per-group sums and counts. A long
// column of few groups is added in two halves at the same time, the
// second half's sums then added to the first's (so float sums may differ
// in the last bits from one pass).
func sumSlice[T Number, A int64 | uint64 | float64](v []T, valid []byte, off int, ids []int32, counts []int64, c *config) []A {
	if c.parallel(len(v)) && len(counts) <= 1<<16 {
		m := len(v) / 2
		counts2 := make([]int64, len(counts))
		var sums2 []A
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums2 = sumRange[T, A](v[m:], valid, off+m, ids[m:len(v)], counts2)
		}()
		sums := sumRange[T, A](v[:m], valid, off, ids[:m], counts)
		wg.Wait()
		for g := range sums {
			sums[g] += sums2[g]
			counts[g] += counts2[g]
		}
		return sums
	}
	return sumRange[T, A](v, valid, off, ids, counts)
}

func sumRange[T Number, A int64 | uint64 | float64](v []T, valid []byte, off int, ids []int32, counts []int64) []A {
	sums := make([]A, len(counts))
	ids = ids[:len(v)]
	if valid == nil {
		for i, id := range ids {
			sums[id] += A(v[i])
			counts[id]++
		}
		return sums
	}
	for i, id := range ids {
		if bitutil.GetBit(valid, off+i) {
			sums[id] += A(v[i])
			counts[id]++
		}
	}
	return sums
}

// sumGroups is each group's sum (mean when mean) of a's numbers.
// The sums and counts of a column are kept (in g.sums) for the other
// aggregates of the same call: sum, mean and count of one column take one
// pass.
func sumGroups(mean bool, a array.Array, g *groups, c *config) (array.Array, error) {
	sums, counts, err := g.sumsOf(a, c)
	if err != nil {
		return nil, err
	}
	valid, nulls := validFromCounts(counts)
	if s, ok := sums.([]wideSum); ok {
		return decimalGroups(mean, a.DataType().(*datatype.DecimalType), s, counts, valid)
	}
	if mean {
		vals, out := newValues[float64](len(counts))
		switch s := sums.(type) {
		case []int64, []uint64:
			if !sumsExact(a, counts) {
				// The int64 or uint64 sums may have wrapped, or not be
				// floats exactly: a mean is of the exact sum.
				exact := kernelsOf(a.DataType()).groupSum(a, g.ids, make([]int64, len(counts)), true, c).([]wideSum)
				for i, c := range counts {
					out[i] = 0
					if c > 0 {
						out[i] = exact[i].meanFloat(c)
					}
				}
				break
			}
			if si, ok := s.([]int64); ok {
				divide(out, si, counts)
			} else {
				divide(out, s.([]uint64), counts)
			}
		case []float64:
			divide(out, s, counts)
		}
		return primitiveOut(datatype.Float64, len(counts), valid, nulls, vals), nil
	}
	switch s := sums.(type) {
	case []int64:
		return numbersOut(datatype.Int64, s, valid, nulls), nil
	case []uint64:
		return numbersOut(datatype.Uint64, s, valid, nulls), nil
	}
	return numbersOut(datatype.Float64, sums.([]float64), valid, nulls), nil
}

func divide[A int64 | uint64 | float64](out []float64, sums []A, counts []int64) {
	for i, c := range counts {
		out[i] = 0
		if c > 0 {
			out[i] = float64(sums[i]) / float64(c)
		}
	}
}

// numbersOut wraps v (not copied) as an array of t.
func numbersOut[A int64 | uint64 | float64](t datatype.DataType, v []A, valid *memory.Buffer, nulls int) array.Array {
	return primitiveOut(t, len(v), valid, nulls, memory.FromSlice(v))
}

// groupSums are a column's per-group sums and counts of non-null values.
type groupSums struct {
	sums   any
	counts []int64
}

// sumsOf returns a's per-group sums and counts, computing them once.
func (g *groups) sumsOf(a array.Array, c *config) (any, []int64, error) {
	if s, ok := g.sums[a]; ok {
		return s.sums, s.counts, nil
	}
	f := kernelsOf(a.DataType()).groupSum
	if f == nil {
		return nil, nil, errf(ErrNotSupported, "sum of %s", a.DataType())
	}
	counts := make([]int64, g.n())
	sums := f(a, g.ids, counts, false, c)
	if g.sums == nil {
		g.sums = map[array.Array]groupSums{}
	}
	g.sums[a] = groupSums{sums, counts}
	return sums, counts, nil
}

// sumsExact reports whether every group's sum of a's integers is within
// ±2^53 (so that the int64 or uint64 sums are exact, and exact as
// float64s), bounding it by the largest magnitude times the largest
// count.
func sumsExact(a array.Array, counts []int64) bool {
	lo, hi, err := minMaxChunks(a.DataType(), []array.Array{a}, wantMin|wantMax)
	if err != nil || !lo.Valid {
		return err == nil
	}
	m := max(absInt(lo.Value), absInt(hi.Value))
	h, l := bits.Mul64(m, uint64(slices.Max(counts)))
	return h == 0 && l <= 1<<53
}

// absInt is |v| for a value of any Go integer type (the largest uint64
// for anything else).
func absInt(v any) uint64 {
	signed := func(x int64) uint64 {
		if x < 0 {
			return uint64(-(x + 1)) + 1
		}
		return uint64(x)
	}
	switch x := v.(type) {
	case int8:
		return signed(int64(x))
	case int16:
		return signed(int64(x))
	case int32:
		return signed(int64(x))
	case int64:
		return signed(x)
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	}
	return math.MaxUint64
}

// wideGroupSums adds each group's non-null values of a, an integer or
// decimal array, exactly into wideSums (add adds one) and counts them.
func wideGroupSums[T array.FixedWidth](a *array.Primitive[T], ids []int32, counts []int64, add func(*wideSum, T)) []wideSum {
	sums := make([]wideSum, len(counts))
	valid, off := bitmapOf(a.Data())
	v := a.Values()
	for i, id := range ids[:a.Len()] {
		if valid == nil || bitutil.GetBit(valid, off+i) {
			add(&sums[id], v[i])
			counts[id]++
		}
	}
	return sums
}

// decimalGroups builds the per-group sums (means when mean) of decimals
// of type t: sums of type [decimalSumType], means of t.
func decimalGroups(mean bool, t *datatype.DecimalType, sums []wideSum, counts []int64, valid *memory.Buffer) (array.Array, error) {
	out := t
	if !mean {
		out = decimalSumType(t)
	}
	vals := make([]any, len(counts))
	nulls := 0
	for i, c := range counts {
		if c == 0 {
			nulls++
			continue
		}
		var err error
		if mean {
			vals[i], err = decimalMean(sums[i], c, t)
		} else {
			vals[i], err = decimalValue(sums[i].big(), out, "sum of "+t.String())
		}
		if err != nil {
			return nil, err
		}
	}
	var buf *memory.Buffer
	switch out.BitWidth {
	case 32:
		buf = memory.FromSlice(typedValues[datatype.Decimal32](vals))
	case 64:
		buf = memory.FromSlice(typedValues[datatype.Decimal64](vals))
	case 128:
		buf = memory.FromSlice(typedValues[datatype.Decimal128](vals))
	default:
		buf = memory.FromSlice(typedValues[datatype.Decimal256](vals))
	}
	return primitiveOut(out, len(counts), valid, nulls, buf), nil
}

// typedValues is vals as a slice of T (zero where vals holds nil).
func typedValues[T any](vals []any) []T {
	out := make([]T, len(vals))
	for i, v := range vals {
		if v != nil {
			out[i] = v.(T)
		}
	}
	return out
}
