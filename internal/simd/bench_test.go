package simd

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// Throughput convention: b.SetBytes counts every byte a kernel reads or
// writes once (STREAM-style), so And over n-byte inputs moves 3n bytes and
// copy moves 2n. Sizes are those of one input operand.

var benchSizes = []int{4 << 10, 1 << 20, 64 << 20}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dKiB", n>>10)
}

// benchBuf returns a cached random buffer of n bytes (slot tells apart
// operands of one benchmark).
var benchBufs = map[[2]int][]byte{}

func benchBuf(slot, n int) []byte {
	if b, ok := benchBufs[[2]int{slot, n}]; ok {
		return b
	}
	r := rand.New(rand.NewPCG(uint64(slot), uint64(n)))
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		*(*uint64)(unsafe.Pointer(&b[i])) = r.Uint64() & 0x3fff_ffff_ffff_fff7 // finite floats, no NaN
	}
	benchBufs[[2]int{slot, n}] = b
	return b
}

// benchLevels runs f for every level and size as sub-benchmarks
// "<level>/<size>".
func benchLevels(b *testing.B, f func(b *testing.B, n int)) {
	for _, k := range levels {
		for _, n := range benchSizes {
			b.Run(k.level+"/"+sizeName(n), func(b *testing.B) {
				withLevel(k, func() { f(b, n) })
			})
		}
	}
}

func BenchmarkAnd(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x, y, dst := benchBuf(0, n), benchBuf(1, n), benchBuf(2, n)
		m := startMeter(b, 3*n)
		for range b.N {
			And(dst, x, y)
		}
		m.stop()
	})
}

func BenchmarkShiftBits(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x, dst := benchBuf(0, n), benchBuf(2, n)
		m := startMeter(b, 2*n)
		for range b.N {
			ShiftBits(dst, x, 3)
		}
		m.stop()
	})
}

func BenchmarkPopCount(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := benchBuf(0, n)
		m := startMeter(b, n)
		for range b.N {
			PopCount(x)
		}
		m.stop()
	})
}

func BenchmarkSumInt64(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[int64](benchBuf(0, n)[:n])[:n/8]
		m := startMeter(b, n)
		for range b.N {
			SumInt(x)
		}
		m.stop()
	})
}

func BenchmarkSumInt64Masked(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[int64](benchBuf(0, n))[:n/8]
		valid := benchBuf(1, n/64)
		m := startMeter(b, n+n/64)
		for range b.N {
			SumIntMasked(x, valid, 0)
		}
		m.stop()
	})
}

func BenchmarkSumInt32(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[int32](benchBuf(0, n))[:n/4]
		m := startMeter(b, n)
		for range b.N {
			SumInt(x)
		}
		m.stop()
	})
}

func BenchmarkSumFloat64(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[float64](benchBuf(0, n))[:n/8]
		m := startMeter(b, n)
		for range b.N {
			SumFloat(x)
		}
		m.stop()
	})
}

func BenchmarkSumFloat64Masked(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[float64](benchBuf(0, n))[:n/8]
		valid := benchBuf(1, n/64)
		m := startMeter(b, n+n/64)
		for range b.N {
			SumFloatMasked(x, valid, 0)
		}
		m.stop()
	})
}

func BenchmarkMinInt64(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[int64](benchBuf(0, n))[:n/8]
		m := startMeter(b, n)
		for range b.N {
			MinInt(x)
		}
		m.stop()
	})
}

func BenchmarkMaxFloat64Masked(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[float64](benchBuf(0, n))[:n/8]
		valid := benchBuf(1, n/64)
		m := startMeter(b, n+n/64)
		for range b.N {
			MaxFloatMasked(x, valid, 0)
		}
		m.stop()
	})
}

func BenchmarkAddInt64(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x, y := cast[int64](benchBuf(0, n))[:n/8], cast[int64](benchBuf(1, n))[:n/8]
		dst := cast[int64](benchBuf(2, n))[:n/8]
		m := startMeter(b, 3*n)
		for range b.N {
			Add(dst, x, y)
		}
		m.stop()
	})
}

func BenchmarkLtScalarFloat64(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x := cast[float64](benchBuf(0, n))[:n/8]
		dst := benchBuf(2, n/64)
		m := startMeter(b, n+n/64)
		for range b.N {
			LtScalar(dst, x, 0.5)
		}
		m.stop()
	})
}

func BenchmarkByteSwap64(b *testing.B) {
	benchLevels(b, func(b *testing.B, n int) {
		x, dst := cast[uint64](benchBuf(0, n))[:n/8], cast[uint64](benchBuf(2, n))[:n/8]
		m := startMeter(b, 2*n)
		for range b.N {
			ByteSwap64(dst, x)
		}
		m.stop()
	})
}

// BenchmarkCopy is the reference for a read+write stream: the runtime's
// memmove, counted like the kernels (2n bytes).
func BenchmarkCopy(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			x, dst := benchBuf(0, n), benchBuf(2, n)
			m := startMeter(b, 2*n)
			for range b.N {
				copy(dst, x)
			}
			m.stop()
		})
	}
}

var sink uint64

// BenchmarkReadPass is the reference for read bandwidth: one load from
// every 64-byte cache line, which makes the memory system stream every line.
func BenchmarkReadPass(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			w := cast[uint64](benchBuf(0, n))[:n/8]
			m := startMeter(b, n)
			for range b.N {
				var s0, s1, s2, s3 uint64
				for i := 0; i+32 <= len(w); i += 32 {
					s0 += w[i]
					s1 += w[i+8]
					s2 += w[i+16]
					s3 += w[i+24]
				}
				sink += s0 + s1 + s2 + s3
			}
			m.stop()
		})
	}
}
