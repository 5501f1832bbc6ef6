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
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// PLAIN fixed-width values without levels are decompressed straight
// into the batch's values (see plainInPlace): every codec, pages cut
// across batches, and a nullable column beside them read back as
// written.
func TestPlainInPlaceRoundTrip(t *testing.T) {
	fsb, err := datatype.NewFixedSizeBinary(3)
	if err != nil {
		t.Fatal(err)
	}
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "i32", Type: datatype.Int32},
		{Name: "i64", Type: datatype.Int64},
		{Name: "f32", Type: datatype.Float32},
		{Name: "f64", Type: datatype.Float64},
		{Name: "i16", Type: datatype.Int16},
		{Name: "fsb", Type: fsb},
		{Name: "f64n", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	rec := randdata.New(5).Record(schema, 5000)
	for _, codec := range []Codec{Uncompressed, Snappy, Gzip, Zstd} {
		data := writeFile(t, []*alkaid.Record{rec}, WithCompression(codec, 0), WithDictionary(false, 0),
			WithPageSize(1000), WithRowGroupRows(3000))
		for _, batch := range []int{0, 333} {
			t.Run(fmt.Sprintf("%s/batch%d", codec, batch), func(t *testing.T) {
				var opts []Option
				if batch > 0 {
					opts = append(opts, WithBatchSize(batch))
				}
				_, recs := readFile(t, data, opts...)
				row := 0
				for _, r := range recs {
					for c := range r.NumCols() {
						want := array.Slice(rec.Column(c), row, row+r.NumRows())
						if !array.Equal(r.Column(c), want) {
							t.Fatalf("rows %d+%d column %s differ", row, r.NumRows(), r.ColumnName(c))
						}
					}
					row += r.NumRows()
				}
				if row != rec.NumRows() {
					t.Fatalf("read %d rows, want %d", row, rec.NumRows())
				}
			})
		}
	}
}

// A Snappy page whose decoded length is not the page's announced size is
// an error, not values read past what was decoded.
func TestPlainInPlaceBadLength(t *testing.T) {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "f64", Type: datatype.Float64}}, datatype.Metadata{})
	rec := randdata.New(6).Record(schema, 100)
	data := writeFile(t, []*alkaid.Record{rec}, WithCompression(Snappy, 0), WithDictionary(false, 0))
	var h format.PageHeader
	n, err := thrift.Unmarshal(data[4:], &h)
	if err != nil {
		t.Fatal(err)
	}
	data[4+n]++ // the first byte of Snappy's varint length
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(f); !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v, want ErrInvalid", err)
	}
}
