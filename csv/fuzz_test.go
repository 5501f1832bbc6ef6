package csv

import (
	"bytes"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/texttest"
)

// FuzzReader: any bytes give records or an error, never a panic or a hang;
// inferred and given schemas alike, with parallel chunks of a few rows.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,x\n2,y\n",
		"a,b\n1,\"x\ny\"\n\"2\",\"\"\n",
		"a\n1.5\n2024-01-02\n",
		"t,d\n2024-01-02T03:04:05Z,12:00:00.5\n",
		"a;b\r\n1;2\r\n",
		"# c\na\n\n\n",
		"a,b\n\"unclosed,1\n",
		"a,b\r1,\"x\ry\"\r\r2,3",
	} {
		f.Add([]byte(s), uint8(0))
	}
	ts, _ := datatype.NewTimestamp(datatype.Millisecond, "UTC")
	dec, _ := datatype.NewDecimal(128, 20, 3)
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int32, Nullable: true},
		{Name: "b", Type: dec, Nullable: true},
		{Name: "c", Type: ts, Nullable: true},
	}, datatype.Metadata{})
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opts := []Option{WithBatchSize(2), withBlockSize(16), WithConcurrency(2), WithInferRows(3)}
		if mode&1 != 0 {
			opts = append(opts, WithSchema(schema), WithPositional(), WithHeader(false))
		}
		if mode&2 != 0 {
			opts = append(opts, WithComment('#'), WithSkipBadRows())
		}
		if mode&4 != 0 {
			opts = append(opts, WithDelimiter(';'), WithInvalidUTF8AsBinary())
		}
		r, err := NewReader(bytes.NewReader(data), opts...)
		if err != nil {
			texttest.ErrorKind(t, "csv: ", err)
			return
		}
		rows := 0
		for rec, err := range r.Records() {
			if err != nil {
				texttest.ErrorKind(t, "csv: ", err)
				return
			}
			if rec.NumRows() > 2 {
				t.Fatalf("batch of %d rows", rec.NumRows())
			}
			rows += rec.NumRows()
		}
		if lines := bytes.Count(data, []byte{'\n'}) + bytes.Count(data, []byte{'\r'}) + 1; rows > lines {
			t.Fatalf("%d rows from %d lines", rows, lines)
		}
	})
}

// FuzzReaderDefaults runs the reader as users do, with the default
// limits, batch size and block size: any bytes give records or an error.
func FuzzReaderDefaults(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,x\n2,y\n",
		"a,b\r1,\"x\ry\"\r2,\"\"\r",
		"a,b\r\n1,2\r\n",
		"a\n\"unclosed\n1\n",
		"a,b,c\n1,2\n",
	} {
		f.Add([]byte(s), false)
	}
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int64, Nullable: true},
		{Name: "b", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	f.Fuzz(func(t *testing.T, data []byte, withSchema bool) {
		var opts []Option
		if withSchema {
			opts = append(opts, WithSchema(schema), WithPositional())
		}
		r, err := NewReader(bytes.NewReader(data), opts...)
		if err != nil {
			texttest.ErrorKind(t, "csv: ", err)
			return
		}
		for _, err := range r.Records() {
			if err != nil {
				texttest.ErrorKind(t, "csv: ", err)
				return
			}
		}
	})
}
