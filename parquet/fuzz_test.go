package parquet

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// smallFile writes a tiny file of a few types, for fuzz seeds.
func smallFile(opts ...Option) []byte {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "i", Type: datatype.Int32, Nullable: true},
		{Name: "s", Type: datatype.String},
		{Name: "l", Type: datatype.ListOf(datatype.Int64), Nullable: true},
	}, datatype.Metadata{})
	cols := []array.Array{
		arrayjson.MustParse(datatype.Int32, "[1, null, 3]"),
		arrayjson.MustParse(datatype.String, `["a", "bb", "a"]`),
		arrayjson.MustParse(datatype.ListOf(datatype.Int64), "[[1, 2], null, []]"),
	}
	rec, err := alkaid.NewRecord(s, cols, 3)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, opts...)
	if err != nil {
		panic(err)
	}
	if err := w.Write(rec); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// FuzzFile reads whatever bytes it is given as a Parquet file: errors
// are fine, panics and hangs are not.
func FuzzFile(f *testing.F) {
	f.Add(smallFile(WithoutStoredSchema()))
	f.Add(smallFile(WithCompression(Uncompressed, 0), WithDictionary(false, 0), WithoutStoredSchema()))
	f.Add(smallFile(WithCompression(Zstd, 0), WithColumnEncoding("i", DeltaBinaryPacked), WithColumnEncoding("s", DeltaByteArray), WithDictionary(false, 0)))
	f.Add(smallFile(WithBloomFilter("i"), WithBloomFilter("s"), WithoutStoredSchema()))
	f.Add(smallFile(WithDataPageV2(), WithPageCRC(true), WithCompression(Snappy, 0), WithoutStoredSchema()))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := DefaultLimits
		lim.MaxPageSize, lim.MaxPageValues, lim.MaxChunkValues = 1<<20, 1<<16, 1<<18
		pf, err := NewFile(bytes.NewReader(data), int64(len(data)), WithLimits(lim))
		if err != nil {
			checkError(t, err)
			return
		}
		// Opening checked all the plan of the whole file needs: making
		// it later cannot fail.
		if _, err := pf.planned(); err != nil {
			t.Fatalf("opened, then not planned: %v", err)
		}
		// Every other row kept by a row filter over the first field:
		// the others read as dictionary indices where their chunks
		// say they are all dictionary-encoded.
		alternate := func(r *alkaid.Record) (*array.Boolean, error) {
			b := array.NewBooleanBuilder(datatype.Bool)
			for i := range r.NumRows() {
				b.Append(i%2 == 0)
			}
			return b.Finish(), nil
		}
		for mode := range 3 {
			opts := []Option{WithBatchSize(2)}
			switch {
			case mode == 1:
				opts = append(opts, WithDictionaryArrays())
			case mode == 2 && pf.Schema().NumFields() > 0:
				opts = append(opts, WithRowFilter([]string{pf.Schema().Field(0).Name}, alternate))
			case mode == 2:
				continue
			}
			for r, err := range records(pf, opts...) {
				if err != nil {
					checkError(t, err)
					break
				}
				for _, c := range r.Columns() {
					_ = array.Format(c)
				}
			}
		}
		// Predicates read the statistics, the page index and the bloom
		// filters.
		for _, p := range []Predicate{{Column: "i", Op: Eq, Value: int64(3)}, {Column: "s", Op: Eq, Value: "zz"}, {Column: "i", Op: IsNull}} {
			for r, err := range records(pf, WithPredicates(p)) {
				if err != nil {
					break
				}
				_ = array.Format(r.Column(0))
			}
		}
	})
}

// checkError fails t unless err is nil or an error of this package: its
// message starts with "parquet: " and it wraps one of the sentinels.
func checkError(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if !strings.HasPrefix(err.Error(), "parquet: ") || !hasKind(err) {
		t.Errorf("an error without the package prefix or a sentinel: %v", err)
	}
}

// readAllOf reads every record of data, returning the first error.
func readAllOf(data []byte) error {
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	_, err = readAll(f)
	return err
}

// TestHostileBytes truncates a small file at every length and changes
// every byte of it: each must give an error or a result, never a panic.
func TestHostileBytes(t *testing.T) {
	for _, data := range [][]byte{smallFile(), smallFile(WithCompression(Uncompressed, 0), WithDictionary(false, 0))} {
		for n := range len(data) {
			err := readAllOf(data[:n])
			if err == nil {
				t.Errorf("truncated to %d of %d bytes: no error", n, len(data))
			}
			checkError(t, err)
		}
		for i := range data {
			for _, x := range []byte{0x00, 0xff, 0x80, 0x7f, 0x15} {
				c := bytes.Clone(data)
				c[i] = x
				checkError(t, readAllOf(c))
			}
		}
	}
}

// TestEncodingsRoundTrip writes the columns in each encoding they allow.
func TestEncodingsRoundTrip(t *testing.T) {
	s, _ := parquetTypes()
	var fields []datatype.Field
	for _, f := range s.Fields() {
		switch f.Name {
		case "int32", "int64", "float32", "float64", "utf8", "binary", "fixed_size_binary", "decimal128", "uint8", "date32":
			fields = append(fields, f)
		}
	}
	s = alkaid.NewSchema(fields, datatype.Metadata{})
	recs := []*alkaid.Record{randRecord(s, 500)}
	encs := map[string][]Encoding{
		"int32":             {DeltaBinaryPacked, ByteStreamSplit},
		"int64":             {DeltaBinaryPacked, ByteStreamSplit},
		"uint8":             {DeltaBinaryPacked},
		"date32":            {DeltaBinaryPacked},
		"float32":           {ByteStreamSplit},
		"float64":           {ByteStreamSplit},
		"utf8":              {DeltaLengthByteArray, DeltaByteArray},
		"binary":            {DeltaLengthByteArray, DeltaByteArray},
		"fixed_size_binary": {DeltaByteArray, ByteStreamSplit},
		"decimal128":        {DeltaByteArray, ByteStreamSplit},
	}
	for round := range 4 { // rounds 2 and 3 write v2 pages
		var opts []Option
		for col, es := range encs {
			opts = append(opts, WithColumnEncoding(col, es[round%len(es)]))
		}
		opts = append(opts, WithDictionary(false, 0), WithPageSize(300), WithCompression(Zstd, 0))
		if round >= 2 {
			opts = append(opts, WithDataPageV2())
		}
		data := writeFile(t, recs, opts...)
		_, got := readFile(t, data)
		sameRows(t, recs, got)
	}
	if _, err := NewWriter(&bytes.Buffer{}, s, WithColumnEncoding("utf8", DeltaBinaryPacked)); err != nil {
		t.Fatalf("options are checked when a chunk is written, not before: %v", err)
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, s, WithColumnEncoding("utf8", DeltaBinaryPacked), WithDictionary(false, 0))
	_ = w.Write(recs[0])
	if err := w.Close(); !errors.Is(err, ErrNotSupported) {
		t.Errorf("DELTA_BINARY_PACKED strings: got %v, want ErrNotSupported", err)
	}
}

// TestDictionaryExpansionLimited: a tiny page of dictionary indices over
// wide values may not expand beyond the page size limit.
func TestDictionaryExpansionLimited(t *testing.T) {
	typ := format.FixedLenByteArray
	w := int32(1 << 20)
	leaf := &node{elem: &format.SchemaElement{Name: "x", Type: &typ, TypeLength: &w}}
	cr := &columnReader{leaf: leaf, limits: DefaultLimits, where: "test",
		dict: &values{width: 1 << 20, n: 1, fixed: make([]byte, 1<<20)}}
	// Bit width 0, then one RLE run of 1000 zeros: 1000 MiB of values.
	page := append([]byte{0}, encoding.AppendRLE(nil, make([]int32, 1000), 0)...)
	if err := cr.decodeDictIndices(page, 1000, &values{width: 1 << 20}); !errors.Is(err, ErrLimit) {
		t.Errorf("got %v, want ErrLimit", err)
	}
}

func TestLimits(t *testing.T) {
	data := smallFile()
	f, err := NewFileBytes(data, WithLimits(Limits{MaxChunkValues: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(f); !errors.Is(err, ErrLimit) {
		t.Errorf("3 values over a limit of 2: got %v, want ErrLimit", err)
	}
	if _, err := NewFileBytes(data, WithLimits(Limits{MaxFooterSize: 10})); !errors.Is(err, ErrLimit) {
		t.Errorf("footer over its limit: got %v, want ErrLimit", err)
	}
	f, err = NewFileBytes(data, WithLimits(Limits{MaxPageValues: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(f); !errors.Is(err, ErrLimit) {
		t.Errorf("page of 3 values over a limit of 2: got %v, want ErrLimit", err)
	}
	f, _ = NewFileBytes(data, WithLimits(Limits{}))
	if _, err := readAll(f); err != nil {
		t.Errorf("zero limits take the defaults: %v", err)
	}
}

// FuzzReadDefaults opens the fuzzer's bytes as a Parquet file and reads
// every batch with the default limits and options, as a caller would:
// errors are fine; panics, hangs and allocations beyond the limits are
// not.
func FuzzReadDefaults(f *testing.F) {
	f.Add(smallFile())
	f.Add(smallFile(WithCompression(Zstd, 0), WithDataPageV2(), WithDictionary(false, 0)))
	f.Add(smallFile(WithCompression(Uncompressed, 0), WithColumnEncoding("s", DeltaByteArray), WithDictionary(false, 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = readErr(data)
	})
}
