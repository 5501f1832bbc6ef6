package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// WithCompressionLevel reaches the codec: a higher level gives a smaller
// file of the same values, and a level the codec lacks is refused.
func TestCompressionLevel(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String}}, datatype.Metadata{})
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	strs := make([]string, 5000)
	for i := range strs {
		strs[i] = fmt.Sprintf("%s-%s-%d", words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(5000))
	}
	sb := array.NewBuilder(datatype.String).(*array.BinaryBuilder[int32])
	sb.AppendStrings(strs, nil)
	rec, err := alkaid.NewRecord(s, []array.Array{sb.NewArray()}, len(strs))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		codec    Codec
		low, top int
	}{{Zstd, 1, 19}, {Gzip, 1, 9}, {Brotli, 0, 11}} {
		size := func(level int) int {
			data := writeFile(t, []*alkaid.Record{rec}, WithCodec(c.codec), WithDictionary(false, 0), WithCompressionLevel(level))
			_, got := readFile(t, data)
			sameRows(t, []*alkaid.Record{rec}, got)
			return len(data)
		}
		lo, hi := size(c.low), size(c.top)
		if hi >= lo {
			t.Errorf("%s: level %d gives %d bytes, level %d %d", c.codec, c.top, hi, c.low, lo)
		}
		_, err := NewWriter(&bytes.Buffer{}, s, WithCodec(c.codec), WithCompressionLevel(99))
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s level 99: %v, want ErrInvalid", c.codec, err)
		}
	}
	// Codecs without levels ignore it.
	if _, err := NewWriter(&bytes.Buffer{}, s, WithCodec(Snappy), WithCompressionLevel(99)); err != nil {
		t.Errorf("snappy with a level: %v", err)
	}
}

// A schema wider than the writer takes fails in NewWriter with ErrLimit,
// top-level fields or leaves of a struct alike.
func TestWriterRefusesWideSchemas(t *testing.T) {
	wide := make([]datatype.Field, DefaultMaxColumns+1)
	for i := range wide {
		wide[i] = datatype.Field{Name: fmt.Sprintf("c%d", i), Type: datatype.Int32}
	}
	for _, c := range []struct {
		name string
		s    *alkaid.Schema
		opts []WriterOption
	}{
		{"top-level fields", alkaid.NewSchema(wide, datatype.Metadata{}), nil},
		{"struct leaves", alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.StructOf(wide...)}}, datatype.Metadata{}), nil},
		{"WithMaxColumns", alkaid.NewSchema(wide[:4], datatype.Metadata{}), []WriterOption{WithMaxColumns(3)}},
	} {
		var buf bytes.Buffer
		_, err := NewWriter(&buf, c.s, c.opts...)
		if !errors.Is(err, ErrLimit) {
			t.Errorf("%s: %v, want ErrLimit", c.name, err)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written before the refusal", c.name, buf.Len())
		}
	}
	if _, err := NewWriter(&bytes.Buffer{}, alkaid.NewSchema(wide[:4], datatype.Metadata{}), WithMaxColumns(4)); err != nil {
		t.Errorf("4 columns under a limit of 4: %v", err)
	}
}
