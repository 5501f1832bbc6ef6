package encoding

import (
	"math/rand/v2"
	"testing"
)

// TestUnpackLSBWidths checks the bit unpacker against a bit-by-bit
// reading for every width and lengths around the 8-byte fast path.
func TestUnpackLSBWidths(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for bw := 0; bw <= 32; bw++ {
		for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 200} {
			data := make([]byte, (n*bw+7)/8)
			for i := range data {
				data[i] = byte(r.Uint32())
			}
			got := make([]int32, n)
			unpackLSB(got, data, bw)
			for i := range n {
				var want uint32
				for b := range bw {
					bit := i*bw + b
					want |= uint32(data[bit>>3]>>(bit&7)&1) << b
				}
				if uint32(got[i]) != want {
					t.Fatalf("bw %d n %d value %d: got %d, want %d", bw, n, i, uint32(got[i]), want)
				}
			}
			if bw <= 15 {
				got16 := make([]int16, n)
				unpackLSB(got16, data, bw)
				for i := range n {
					if int32(got16[i]) != got[i] {
						t.Fatalf("int16 bw %d n %d value %d: got %d, want %d", bw, n, i, got16[i], got[i])
					}
				}
			}
		}
	}
}

// BenchmarkUnpackLSB unpacks dictionary indices of the widths of
// dictionaries of a few hundred to a few hundred thousand values.
func BenchmarkUnpackLSB(b *testing.B) {
	const n = 1 << 16
	dst := make([]int32, n)
	for _, bw := range []int{8, 12, 17, 19, 24} {
		data := make([]byte, (n*bw+7)/8+8)
		for i := range data {
			data[i] = byte(i * 131)
		}
		b.Run(string(rune('0'+bw/10))+string(rune('0'+bw%10)), func(b *testing.B) {
			b.SetBytes(n * 4)
			for b.Loop() {
				unpackLSB(dst, data, bw)
			}
		})
	}
}
