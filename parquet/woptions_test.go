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

// WithCompression's level reaches the codec: a higher level gives a smaller
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
			data := writeFile(t, []*alkaid.Record{rec}, WithCompression(c.codec, level), WithDictionary(false, 0))
			_, got := readFile(t, data)
			sameRows(t, []*alkaid.Record{rec}, got)
			return len(data)
		}
		lo, hi := size(c.low), size(c.top)
		if hi >= lo {
			t.Errorf("%s: level %d gives %d bytes, level %d %d", c.codec, c.top, hi, c.low, lo)
		}
		_, err := NewWriter(&bytes.Buffer{}, s, WithCompression(c.codec, 99))
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s level 99: %v, want ErrInvalid", c.codec, err)
		}
	}
	// A codec without levels takes none.
	if _, err := NewWriter(&bytes.Buffer{}, s, WithCompression(Snappy, 3)); !errors.Is(err, ErrInvalid) {
		t.Errorf("snappy with a level: %v, want ErrInvalid", err)
	}
	// A column codec without levels goes without the file's level.
	if _, err := NewWriter(&bytes.Buffer{}, s, WithCompression(Zstd, 5), WithColumnCodec("s", Snappy)); err != nil {
		t.Errorf("zstd 5 with a snappy column: %v", err)
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
		opts []Option
	}{
		{"top-level fields", alkaid.NewSchema(wide, datatype.Metadata{}), nil},
		{"struct leaves", alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.StructOf(wide...)}}, datatype.Metadata{}), nil},
		{"WithMaxColumns", alkaid.NewSchema(wide[:4], datatype.Metadata{}), []Option{WithMaxColumns(3)}},
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

// A row group is written once its buffered values reach the byte target,
// however few its rows: the writer's memory is bounded by bytes.
func TestRowGroupBytes(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String}, {Name: "i", Type: datatype.Int64}}, datatype.Metadata{})
	const rows = 10000
	strs := make([]string, rows)
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for i := range strs {
		strs[i] = fmt.Sprintf("%0100d", i) // ~100 bytes a row
		ib.Append(int64(i))
	}
	sb := array.NewBuilder(datatype.String).(*array.BinaryBuilder[int32])
	sb.AppendStrings(strs, nil)
	rec, err := alkaid.NewRecord(s, []array.Array{sb.NewArray(), ib.Finish()}, rows)
	if err != nil {
		t.Fatal(err)
	}
	const target = 256 << 10
	// One record, then the same rows in records of 3000.
	for _, recs := range [][]*alkaid.Record{{rec}, {rec.Slice(0, 3000), rec.Slice(3000, 6000), rec.Slice(6000, rows)}} {
		data := writeFile(t, recs, WithRowGroupBytes(target), WithDictionary(false, 0), WithCompression(Uncompressed, 0))
		f, got := readFile(t, data)
		sameRows(t, []*alkaid.Record{rec}, got)
		if f.NumRowGroups() < rows*112/target {
			t.Errorf("%d row groups of ~%d bytes", f.NumRowGroups(), rows*112/f.NumRowGroups())
		}
		for g, rg := range f.meta.RowGroups {
			if rg.TotalByteSize > 2*target {
				t.Errorf("row group %d: %d bytes for a target of %d", g, rg.TotalByteSize, target)
			}
		}
	}
}
