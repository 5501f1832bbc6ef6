package bitutil

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Throughput counts the bytes of both inputs and the output (3n for an
// n-byte bitmap), like the internal/simd benchmarks.

var benchSizes = []int{4 << 10, 1 << 20, 64 << 20}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dKiB", n>>10)
}

var benchBufs = map[[2]int][]byte{}

func benchBuf(slot, n int) []byte {
	if b, ok := benchBufs[[2]int{slot, n}]; ok {
		return b
	}
	r := rand.New(rand.NewPCG(uint64(slot), uint64(n)))
	b := make([]byte, n+8)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	benchBufs[[2]int{slot, n}] = b
	return b
}

// BenchmarkAnd compares byte-aligned operands with a second operand at bit
// offset 3 (realigned through the in-cache scratch buffers).
func BenchmarkAnd(b *testing.B) {
	for _, c := range []struct {
		name string
		bOff int
	}{{"aligned", 0}, {"offset3", 3}} {
		for _, n := range benchSizes {
			b.Run(c.name+"/"+sizeName(n), func(b *testing.B) {
				x, y, dst := benchBuf(0, n), benchBuf(1, n), benchBuf(2, n)
				m := startMeter(b, 3*n)
				for range b.N {
					And(dst, 0, x, 0, y, c.bOff, n*8)
				}
				m.stop()
			})
		}
	}
}

func BenchmarkCountSetBits(b *testing.B) {
	for _, off := range []int{0, 3} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("offset%d/%s", off, sizeName(n)), func(b *testing.B) {
				x := benchBuf(0, n)
				m := startMeter(b, n)
				for range b.N {
					CountSetBits(x, off, n*8)
				}
				m.stop()
			})
		}
	}
}
