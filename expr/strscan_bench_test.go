package expr

import (
	"bytes"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
)

// BenchmarkMarkContains compares one search over an array's bytes
// (markContains) with one search per value.
func BenchmarkMarkContains(b *testing.B) {
	rec := stringsRecord(b, 1<<20)
	s := rec.Column(0).(*array.Binary[int32])
	offs, data := s.Offsets(), s.ValueBytes()
	bits := make([]byte, bitutil.BytesForBits(s.Len()))
	for _, needle := range []string{"an", "ß", "party", "zz"} {
		b.Run("whole/"+needle, func(b *testing.B) {
			for b.Loop() {
				clear(bits)
				markContains(bits, offs, data, []byte(needle))
			}
		})
		b.Run("per-value/"+needle, func(b *testing.B) {
			for b.Loop() {
				clear(bits)
				for i := range s.Len() {
					if bytes.Contains(data[offs[i]:offs[i+1]], []byte(needle)) {
						bitutil.SetBit(bits, i)
					}
				}
			}
		})
	}
}
