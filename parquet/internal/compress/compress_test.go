package compress

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"

	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

var codecs = []format.Codec{format.Uncompressed, format.Snappy, format.Gzip, format.Zstd, format.LZ4Raw, format.LZ4, format.Brotli}

func inputs() [][]byte {
	r := rand.New(rand.NewPCG(5, 6))
	random := make([]byte, 5000)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	return [][]byte{{}, []byte("a"), bytes.Repeat([]byte("parquet "), 1000), random}
}

func TestRoundTrip(t *testing.T) {
	for _, c := range codecs {
		for i, in := range inputs() {
			enc, err := Compress(c, nil, in)
			if err != nil {
				t.Fatalf("%s input %d: %v", c, i, err)
			}
			out, err := Decompress(c, enc, len(in))
			if err != nil {
				t.Fatalf("%s input %d: %v", c, i, err)
			}
			if !bytes.Equal(out, in) {
				t.Fatalf("%s input %d: round trip differs", c, i)
			}
			if len(in) > 0 {
				if _, err := Decompress(c, enc, len(in)-1); !errors.Is(err, ErrInvalid) {
					t.Errorf("%s input %d, size one short: %v", c, i, err)
				}
				if _, err := Decompress(c, enc, len(in)+1); !errors.Is(err, ErrInvalid) {
					t.Errorf("%s input %d, size one long: %v", c, i, err)
				}
			}
		}
	}
}

func TestGzipConcatenatedMembers(t *testing.T) {
	var b bytes.Buffer
	for _, s := range []string{"first ", "second"} {
		w := gzip.NewWriter(&b)
		_, _ = w.Write([]byte(s))
		_ = w.Close()
	}
	out, err := Decompress(format.Gzip, b.Bytes(), 12)
	if err != nil || string(out) != "first second" {
		t.Errorf("got %q, %v", out, err)
	}
}

func TestNotSupported(t *testing.T) {
	if _, err := Decompress(format.LZO, []byte{1}, 1); !errors.Is(err, ErrNotSupported) {
		t.Errorf("LZO: %v", err)
	}
	if _, err := Decompress(format.Codec(99), []byte{1}, 1); !errors.Is(err, ErrNotSupported) {
		t.Errorf("codec 99: %v", err)
	}
}

func FuzzDecompress(f *testing.F) {
	for _, c := range codecs {
		enc, _ := Compress(c, nil, []byte("hello hello hello"))
		f.Add(uint8(c), enc, uint16(17))
	}
	f.Fuzz(func(t *testing.T, c uint8, data []byte, size uint16) {
		out, err := Decompress(format.Codec(c), data, int(size))
		if err == nil && len(out) != int(size) {
			t.Fatalf("%d bytes where %d were asked", len(out), size)
		}
	})
}

// FuzzSnappyEncoders decodes what each Snappy block encoder at hand
// writes (their copies and literals differ), into fresh memory and into
// reused scratch holding other bytes.
func FuzzSnappyEncoders(f *testing.F) {
	for _, in := range inputs() {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		encoders := []struct {
			name string
			enc  func(dst, src []byte) []byte
		}{{"snappy.Encode", snappy.Encode}, {"s2.EncodeSnappy", s2.EncodeSnappy},
			{"s2.EncodeSnappyBetter", s2.EncodeSnappyBetter}, {"s2.EncodeSnappyBest", s2.EncodeSnappyBest}}
		scratch := bytes.Repeat([]byte{0xee}, len(in)+100)
		for _, e := range encoders {
			enc := e.enc(nil, in)
			for _, dst := range [][]byte{nil, scratch} {
				out, err := DecompressInto(format.Snappy, dst, enc, len(in))
				if err != nil {
					t.Fatalf("%s: %v", e.name, err)
				}
				if !bytes.Equal(out, in) {
					t.Fatalf("%s: decodes to other bytes", e.name)
				}
			}
			if _, err := Decompress(format.Snappy, enc, len(in)+1); !errors.Is(err, ErrInvalid) {
				t.Fatalf("%s, size one long: %v", e.name, err)
			}
		}
	})
}
