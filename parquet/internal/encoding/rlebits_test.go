package encoding

import (
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/bitutil"
)

// checkRLEBits decodes data as n one-bit values with both DecodeRLE and
// DecodeRLEBits (at bit offset off) and fails when they disagree on the
// values, the bytes used or whether the input is valid.
func checkRLEBits(t *testing.T, data []byte, off, n int) {
	t.Helper()
	want := make([]int16, n)
	wantUsed, wantErr := DecodeRLE(want, data, 1)
	dst := make([]byte, (off+n+7)/8+1)
	used, err := DecodeRLEBits(dst, off, n, data)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("off %d n %d: error %v, DecodeRLE's %v", off, n, err, wantErr)
	}
	if err != nil {
		return
	}
	if used != wantUsed {
		t.Fatalf("off %d n %d: %d bytes used, DecodeRLE %d", off, n, used, wantUsed)
	}
	for i := range n {
		if bitutil.GetBit(dst, off+i) != (want[i] == 1) {
			t.Fatalf("off %d n %d: bit %d is %v, level %d", off, n, i, bitutil.GetBit(dst, off+i), want[i])
		}
	}
	if bitutil.CountSetBits(dst, 0, len(dst)*8) != bitutil.CountSetBits(dst, off, n) {
		t.Fatalf("off %d n %d: bits set outside the range", off, n)
	}
}

// TestDecodeRLEBits compares the bitmap decoder with the level decoder on
// streams our encoder writes (runs and bit-packed groups of every length)
// at every bit offset of a byte.
func TestDecodeRLEBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := r.IntN(300)
		lv := make([]int16, n)
		runny := trial%2 == 0
		for i := range lv {
			switch {
			case runny && i > 0 && r.IntN(10) != 0:
				lv[i] = lv[i-1]
			default:
				lv[i] = int16(r.IntN(2))
			}
		}
		data := AppendRLE(nil, lv, 1)
		for off := range 9 {
			checkRLEBits(t, data, off, n)
		}
		// Fewer values than the stream holds, and a cut stream.
		if n > 0 {
			checkRLEBits(t, data, 3, n-1)
			checkRLEBits(t, data[:len(data)/2], 1, n)
		}
	}
}

func FuzzDecodeRLEBits(f *testing.F) {
	f.Add([]byte{0x03, 0x88, 0xc6, 0xfa}, uint8(3), uint16(8))
	f.Add([]byte{0x10, 0x01}, uint8(1), uint16(8))
	f.Add([]byte{0x05, 0xff, 0x00, 0x08, 0x01}, uint8(0), uint16(20))
	f.Fuzz(func(t *testing.T, data []byte, off uint8, n uint16) {
		checkRLEBits(t, data, int(off), int(n))
	})
}
