package ndjson

import (
	"bytes"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/texttest"
)

// FuzzReader: any bytes give records or an error, never a panic or hang.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":"x"}` + "\n" + `{"a":2.5,"c":[1,2]}`,
		`{"s":{"x":[{"y":null}]},"t":"2024-01-02T03:04:05Z"}`,
		`{"a":"\u00e9\ud83d\ude00\n"}`,
		`{"a":[1,"x"]}`,
		"{\"a\":1}\n\n[1]\n",
	} {
		f.Add([]byte(s), false)
	}
	ts, _ := datatype.NewTimestamp(datatype.Millisecond, "")
	fsl, _ := datatype.FixedSizeListOf(datatype.Int8, 2)
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Float32, Nullable: true},
		{Name: "s", Type: datatype.StructOf(datatype.Field{Name: "x", Type: datatype.ListOf(datatype.Int16), Nullable: true}), Nullable: true},
		{Name: "t", Type: ts, Nullable: true},
		{Name: "f", Type: fsl, Nullable: true},
	}, datatype.Metadata{})
	f.Fuzz(func(t *testing.T, data []byte, withSchema bool) {
		opts := []Option{WithBatchSize(2), withBlockSize(16), WithConcurrency(2), WithInferRows(3)}
		if withSchema {
			opts = append(opts, WithSchema(schema))
		}
		r, err := NewReader(bytes.NewReader(data), opts...)
		if err != nil {
			texttest.ErrorKind(t, "ndjson: ", err)
			return
		}
		for rec, err := range r.Records() {
			if err != nil {
				texttest.ErrorKind(t, "ndjson: ", err)
				return
			}
			if rec.NumRows() > 2 {
				t.Fatalf("batch of %d rows", rec.NumRows())
			}
		}
	})
}

// FuzzReaderDefaults runs the reader as users do, with the default
// limits, batch size and block size: any bytes give records or an error.
func FuzzReaderDefaults(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":"x"}` + "\n" + `{"a":2,"c":[1,2]}`,
		`{"a":{"b":{"c":[[1],[2,3]]}}}`,
		`{"a":"unterminated`,
		"{}\n{}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			texttest.ErrorKind(t, "ndjson: ", err)
			return
		}
		for _, err := range r.Records() {
			if err != nil {
				texttest.ErrorKind(t, "ndjson: ", err)
				return
			}
		}
	})
}
