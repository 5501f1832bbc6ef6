package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// parquetTypes is randdata's AllTypes without the types Parquet cannot
// hold (unions), with the names of those left out.
func parquetTypes() (*alkaid.Schema, []string) {
	all := randdata.AllTypes()
	var keep []datatype.Field
	var dropped []string
	for _, f := range all.Fields() {
		switch f.Type.Kind() {
		case datatype.KindSparseUnion, datatype.KindDenseUnion:
			dropped = append(dropped, f.Name)
			continue
		}
		keep = append(keep, f)
	}
	return alkaid.NewSchema(keep, all.Metadata()), dropped
}

func writeFile(t *testing.T, recs []*alkaid.Record, opts ...Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, recs[0].Schema(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readFile(t *testing.T, data []byte, opts ...Option) (*File, []*alkaid.Record) {
	t.Helper()
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := readAll(f, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return f, recs
}

// sameRows compares the rows of two record lists column by column,
// whatever their batch boundaries.
func sameRows(t *testing.T, want, got []*alkaid.Record) {
	t.Helper()
	if len(want) == 0 {
		return
	}
	for c := range want[0].NumCols() {
		name := want[0].ColumnName(c)
		w := concatColumn(t, want, c)
		g := concatColumn(t, got, c)
		if !datatype.Equal(w.DataType(), g.DataType()) {
			t.Errorf("column %s: type %s, want %s", name, g.DataType(), w.DataType())
			continue
		}
		if !array.Equal(w, g) {
			t.Errorf("column %s differs:\n got %s\nwant %s", name, trunc(array.Format(g)), trunc(array.Format(w)))
		}
	}
}

func trunc(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

func concatColumn(t *testing.T, recs []*alkaid.Record, c int) array.Array {
	t.Helper()
	parts := make([]array.Array, len(recs))
	for i, r := range recs {
		parts[i] = r.Column(c)
	}
	a, err := array.Concatenate(parts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRoundTripAllTypes(t *testing.T) {
	s, dropped := parquetTypes()
	t.Logf("left out (no Parquet representation): %v", dropped)
	g := randdata.New(7)
	recs := []*alkaid.Record{g.Record(s, 300), g.Record(s, 0), g.Record(s, 57)}
	codecs := []Codec{Uncompressed, Snappy, Gzip, Zstd, LZ4Raw, LZ4, Brotli}
	for _, c := range codecs {
		for _, v := range []struct {
			dict, v2 bool
		}{{true, false}, {false, false}, {true, true}, {false, true}} {
			dict := v.dict
			t.Run(fmt.Sprintf("%s/dict=%v/v2=%v", c, dict, v.v2), func(t *testing.T) {
				opts := []Option{WithCompression(c, 0), WithDictionary(dict, 0), WithRowGroupRows(100), WithPageSize(256), WithPageCRC(true)}
				if v.v2 {
					opts = append(opts, WithDataPageV2())
				}
				data := writeFile(t, recs, opts...)
				f, got := readFile(t, data, WithBatchSize(64))
				if f.NumRowGroups() != 4 {
					t.Errorf("%d row groups, want 4", f.NumRowGroups())
				}
				if !f.Schema().Equal(s) {
					t.Errorf("schema:\n got %s\nwant %s", f.Schema(), s)
				}
				sameRows(t, recs, got)
			})
		}
	}
}

func TestWriteNotSupported(t *testing.T) {
	all := randdata.AllTypes()
	for _, f := range all.Fields() {
		switch f.Type.Kind() {
		case datatype.KindSparseUnion, datatype.KindDenseUnion:
			_, err := NewWriter(&bytes.Buffer{}, alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{}))
			if !errors.Is(err, ErrNotSupported) {
				t.Errorf("%s: got %v, want ErrNotSupported", f.Name, err)
			}
		}
	}
}

func randRecord(s *alkaid.Schema, n int) *alkaid.Record { return randdata.New(11).Record(s, n) }

// TestParallelColumns decodes many columns at once (run under -race by
// the suite) and checks the result against a serial read.
func TestParallelColumns(t *testing.T) {
	s, _ := parquetTypes()
	recs := []*alkaid.Record{randRecord(s, 200)}
	data := writeFile(t, recs, WithRowGroupRows(70))
	_, serial := readFile(t, data, WithConcurrency(1))
	_, parallel := readFile(t, data, WithConcurrency(8))
	sameRows(t, serial, parallel)
	sameRows(t, recs, parallel)
}

// TestWriteParallelismSameFile: encoding column chunks in parallel
// writes the same bytes as encoding them one after the other.
func TestWriteParallelismSameFile(t *testing.T) {
	s, _ := parquetTypes()
	recs := []*alkaid.Record{randRecord(s, 150), randRecord(s, 90)}
	serial := writeFile(t, recs, WithRowGroupRows(100), WithPageSize(512), WithConcurrency(1))
	parallel := writeFile(t, recs, WithRowGroupRows(100), WithPageSize(512), WithConcurrency(8))
	if !bytes.Equal(serial, parallel) {
		t.Fatalf("files differ: %d bytes serial, %d parallel", len(serial), len(parallel))
	}
	_, got := readFile(t, parallel)
	sameRows(t, recs, got)
}
