package parquet

import (
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// TestDefBitsEncodings decodes v1 definition levels in both encodings
// (RLE and the legacy BIT_PACKED) and v2 levels into a chunk's bitmap,
// page after page, and checks every bit and the page bytes left over.
func TestDefBitsEncodings(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	typ := format.Int32
	leaf := &node{elem: &format.SchemaElement{Name: "x", Type: &typ}, maxDef: 1}
	for _, enc := range []format.Encoding{format.RLE, format.BitPacked} {
		for _, v2 := range []bool{false, true} {
			if v2 && enc != format.RLE {
				continue
			}
			cr := &columnReader{leaf: leaf, limits: DefaultLimits, where: "test", defBits: true}
			out := &chunk{}
			var want []int16
			for pg := range 20 {
				n := r.IntN(70)
				lv := make([]int16, n)
				wide := make([]int32, n)
				for i := range lv {
					if pg%3 == 0 || r.IntN(4) != 0 {
						lv[i] = 1
					}
					wide[i] = int32(lv[i])
				}
				want = append(want, lv...)
				tail := []byte{0xAB, 0xCD}
				var err error
				switch {
				case v2:
					err = cr.defBitsV2(encoding.AppendRLE(nil, lv, 1), n, out)
				case enc == format.RLE:
					rle := encoding.AppendRLE(nil, lv, 1)
					body := append(append([]byte{byte(len(rle)), byte(len(rle) >> 8), 0, 0}, rle...), tail...)
					var rest []byte
					rest, err = cr.defBitsV1(body, n, enc, out)
					if err == nil && string(rest) != string(tail) {
						t.Fatalf("RLE page %d: %x left, want %x", pg, rest, tail)
					}
				default:
					body := append(encoding.AppendBitPacked(nil, wide, 1), tail...)
					var rest []byte
					rest, err = cr.defBitsV1(body, n, enc, out)
					if err == nil && string(rest) != string(tail) {
						t.Fatalf("BIT_PACKED page %d: %x left, want %x", pg, rest, tail)
					}
				}
				if err != nil {
					t.Fatalf("%s v2=%v page %d: %v", enc, v2, pg, err)
				}
				out.slots += n
			}
			for i, d := range want {
				if bitutil.GetBit(out.valid, i) != (d == 1) {
					t.Fatalf("%s v2=%v: bit %d differs from level %d", enc, v2, i, d)
				}
			}
			if got := bitutil.CountSetBits(out.valid, 0, len(out.valid)*8); got != countLevel(want, 1) {
				t.Fatalf("%s v2=%v: %d bits set, %d levels of 1", enc, v2, got, countLevel(want, 1))
			}
		}
	}
}
