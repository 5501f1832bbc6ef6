package encoding

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func levelsOf(r *rand.Rand, n, bw int, runny bool) []int32 {
	out := make([]int32, n)
	lim := int64(1) << bw
	for i := range out {
		if runny && i > 0 && r.IntN(4) != 0 {
			out[i] = out[i-1]
			continue
		}
		out[i] = int32(r.Int64N(lim))
	}
	return out
}

func TestRLERoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, bw := range []int{0, 1, 2, 3, 7, 8, 13, 16, 20, 31, 32} {
		for _, n := range []int{0, 1, 7, 8, 9, 100, 1000} {
			for _, runny := range []bool{false, true} {
				vals := levelsOf(r, n, bw, runny)
				enc := AppendRLE(nil, vals, bw)
				got := make([]int32, n)
				used, err := DecodeRLE(got, enc, bw)
				if err != nil {
					t.Fatalf("bw %d n %d: %v", bw, n, err)
				}
				if used != len(enc) || !slices.Equal(got, vals) {
					t.Fatalf("bw %d n %d runny %v: used %d of %d, equal %v", bw, n, runny, used, len(enc), slices.Equal(got, vals))
				}
				bp := AppendBitPacked(nil, vals, bw)
				if _, err := DecodeBitPacked(got, bp, bw); err != nil || !slices.Equal(got, vals) {
					t.Fatalf("BIT_PACKED bw %d n %d: %v", bw, n, err)
				}
			}
		}
	}
}

// TestRLEKnown checks the example of the Parquet encodings document.
func TestRLEKnown(t *testing.T) {
	// Bit-packed 0..7 with width 3: header (1<<1)|1, then 3 bytes.
	data := []byte{0x03, 0x88, 0xc6, 0xfa}
	got := make([]int32, 8)
	if _, err := DecodeRLE(got, data, 3); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int32{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("got %v", got)
	}
	// Legacy BIT_PACKED of the same values, most significant bit first.
	bp := []byte{0x05, 0x39, 0x77}
	if _, err := DecodeBitPacked(got, bp, 3); err != nil || !slices.Equal(got, []int32{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("BIT_PACKED got %v %v", got, err)
	}
}

func TestRLEHostile(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		bw   int
	}{
		{"empty", nil, 1},
		{"value too wide", []byte{0x10, 0x05}, 2},
		{"truncated value", []byte{0x10}, 8},
		{"bad width", []byte{0x10, 0}, 33},
		{"huge groups", []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 1},
	}
	for _, c := range cases {
		if _, err := DecodeRLE(make([]int32, 10), c.data, c.bw); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
}

func TestDeltaBinaryPackedRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sets := [][]int64{
		{}, {5}, {1, 2}, {math.MinInt64, math.MaxInt64, 0, -1},
	}
	for _, n := range []int{3, 127, 128, 129, 1000} {
		v := make([]int64, n)
		for i := range v {
			v[i] = r.Int64N(1000) - 500
		}
		sets = append(sets, v)
	}
	for _, vals := range sets {
		enc := AppendDeltaBinaryPacked(nil, vals)
		got, used, err := DecodeDeltaBinaryPacked(enc, len(vals))
		if err != nil {
			t.Fatalf("n %d: %v", len(vals), err)
		}
		if used != len(enc) || !slices.Equal(got, vals) {
			t.Fatalf("n %d: used %d of %d, got %v", len(vals), used, len(enc), got)
		}
	}
}

func TestByteArrayEncodingsRoundTrip(t *testing.T) {
	var b Binary
	b.Offsets = []int32{0}
	for _, s := range []string{"", "apple", "applesauce", "apply", "banana", "", "band", "bandana"} {
		b.Append([]byte(s))
	}
	plain := AppendPlainBinary(nil, b)
	got, used, err := DecodePlainBinary(plain, b.Len())
	if err != nil || used != len(plain) || !equalBinary(got, b) {
		t.Fatalf("PLAIN: %v", err)
	}
	dl := AppendDeltaLengthByteArray(nil, b)
	got, used, err = DecodeDeltaLengthByteArray(dl, b.Len())
	if err != nil || used != len(dl) || !equalBinary(got, b) {
		t.Fatalf("DELTA_LENGTH_BYTE_ARRAY: %v", err)
	}
	db := AppendDeltaByteArray(nil, b)
	got, used, err = DecodeDeltaByteArray(db, b.Len(), 1<<20)
	if err != nil || used != len(db) || !equalBinary(got, b) {
		t.Fatalf("DELTA_BYTE_ARRAY: %v", err)
	}
	if _, _, err := DecodeDeltaByteArray(db, b.Len(), 10); !errors.Is(err, ErrLimit) {
		t.Errorf("DELTA_BYTE_ARRAY over the limit: %v", err)
	}
}

func equalBinary(a, b Binary) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if !bytes.Equal(a.Value(i), b.Value(i)) {
			return false
		}
	}
	return true
}

func TestFixedAndBool(t *testing.T) {
	vals := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	bss := AppendByteStreamSplit(nil, vals, 4)
	if !bytes.Equal(bss, []byte{1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12}) {
		t.Errorf("BYTE_STREAM_SPLIT encoded %v", bss)
	}
	got, err := DecodeByteStreamSplit(bss, 3, 4)
	if err != nil || !bytes.Equal(got, vals) {
		t.Errorf("BYTE_STREAM_SPLIT decoded %v %v", got, err)
	}
	if _, err := DecodePlainFixed(vals, 4, 4); !errors.Is(err, ErrInvalid) {
		t.Errorf("short PLAIN: %v", err)
	}
	bools := []byte{1, 0, 1, 1, 0, 0, 0, 0, 1}
	enc := AppendPlainBool(nil, bools)
	dec := make([]byte, len(bools))
	if _, err := DecodePlainBool(dec, enc); err != nil || !bytes.Equal(dec, bools) {
		t.Errorf("bools %v %v", dec, err)
	}
}

func FuzzDecodeRLE(f *testing.F) {
	f.Add([]byte{0x03, 0x88, 0xc6, 0xfa}, uint8(3), uint16(8))
	f.Add([]byte{0x10, 0x01}, uint8(1), uint16(8))
	f.Fuzz(func(t *testing.T, data []byte, bw uint8, n uint16) {
		dst := make([]int32, n)
		if _, err := DecodeRLE(dst, data, int(bw)); err != nil {
			return
		}
		if bw < 32 {
			for _, v := range dst {
				if uint32(v)>>bw != 0 {
					t.Fatalf("value %d wider than %d bits", v, bw)
				}
			}
		}
		_, _ = DecodeBitPacked(dst, data, int(bw))
	})
}

func FuzzDecodeDelta(f *testing.F) {
	f.Add(AppendDeltaBinaryPacked(nil, []int64{1, 5, 2, 9}), uint16(4))
	var b Binary
	b.Append([]byte("ab"))
	b.Append([]byte("abc"))
	f.Add(AppendDeltaByteArray(nil, b), uint16(2))
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		if v, used, err := DecodeDeltaBinaryPacked(data, int(n)); err == nil {
			if len(v) > int(n) || used > len(data) {
				t.Fatalf("%d values, %d bytes used", len(v), used)
			}
		}
		_, _, _ = DecodeDeltaLengthByteArray(data, int(n))
		_, _, _ = DecodeDeltaByteArray(data, int(n), 1<<16)
	})
}

func FuzzDecodePlain(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 'a'}, uint16(1), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, n uint16, width uint8) {
		_, _, _ = DecodePlainBinary(data, int(n))
		_, _ = DecodePlainFixed(data, int(n), int(width))
		_, _ = DecodeByteStreamSplit(data, int(n), int(width))
		_, _ = DecodePlainBool(make([]byte, n), data)
	})
}

func TestRLEInt16(t *testing.T) {
	vals := []int32{0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 2}
	enc := AppendRLE(nil, vals, 2)
	got := make([]int16, len(vals))
	if _, err := DecodeRLE(got, enc, 2); err != nil {
		t.Fatal(err)
	}
	for i := range vals {
		if int32(got[i]) != vals[i] {
			t.Fatalf("value %d: %d, want %d", i, got[i], vals[i])
		}
	}
	if _, err := DecodeRLE(got, enc, 16); !errors.Is(err, ErrInvalid) {
		t.Errorf("16 bits into int16: %v", err)
	}
	if _, err := DecodeBitPacked(got, enc, 16); !errors.Is(err, ErrInvalid) {
		t.Errorf("BIT_PACKED 16 bits into int16: %v", err)
	}
}

// BenchmarkDecodePlainBinary decodes a page of 64k strings of 8 to 31
// bytes.
func BenchmarkDecodePlainBinary(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	var src Binary
	for range 1 << 16 {
		v := make([]byte, 8+r.IntN(24))
		for i := range v {
			v[i] = byte('a' + r.IntN(26))
		}
		src.Append(v)
	}
	page := AppendPlainBinary(nil, src)
	b.SetBytes(int64(len(page)))
	dst := Binary{Offsets: []int32{0}}
	for range b.N {
		dst.Offsets, dst.Data = dst.Offsets[:1], dst.Data[:0]
		if _, err := DecodePlainBinaryTo(&dst, page, src.Len()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDeltaBinaryPacked32Wraps: INT32 values spanning the whole range
// give deltas that wrap at 32 bits, so no miniblock is wider than 32 bits
// and the minimum delta fits an int32; truncated to 32 bits, the decoded
// values are those written.
func TestDeltaBinaryPacked32Wraps(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	vals := []int64{math.MinInt32, math.MaxInt32, 0, math.MinInt32, -1, math.MaxInt32}
	for range 500 {
		vals = append(vals, int64(int32(r.Uint32())))
	}
	enc := AppendDeltaBinaryPacked32(nil, vals)
	got, _, err := DecodeDeltaBinaryPacked(enc, len(vals))
	if err != nil {
		t.Fatal(err)
	}
	for i := range vals {
		if int32(got[i]) != int32(vals[i]) {
			t.Fatalf("value %d: got %d, want %d", i, int32(got[i]), vals[i])
		}
	}
	// Walk the blocks: each min delta an int32, each width at most 32.
	pos := 0
	header := make([]uint64, 4)
	for i := range header {
		v, n := binary.Uvarint(enc[pos:])
		header[i], pos = v, pos+n
	}
	for left := len(vals) - 1; left > 0; left -= 128 {
		md, n := binary.Varint(enc[pos:])
		pos += n
		if md < math.MinInt32 || md > math.MaxInt32 {
			t.Fatalf("min delta %d outside int32", md)
		}
		for m := range 4 {
			w := int(enc[pos+m])
			if w > 32 {
				t.Fatalf("miniblock of %d bits", w)
			}
		}
		widths := enc[pos : pos+4]
		pos += 4
		for m, w := range widths {
			if m*32 < min(left, 128) {
				pos += 32 * int(w) / 8
			}
		}
	}
}
