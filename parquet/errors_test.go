package parquet

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// Errors with context (the column of a page that does not decode, a
// reader that ends early) keep one "parquet: " prefix in front and their
// kind.
func TestErrorPrefix(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.String}}, datatype.Metadata{})
	data, f := writeAndOpen(t, randRecord(s, 400), WithCompression(Uncompressed, 0), WithDictionary(false, 0))
	bad := bytes.Clone(data)
	off := f.meta.RowGroups[0].Columns[0].MetaData.DataPageOffset
	for i := off + 20; i < off+60; i++ {
		bad[i] = 0xff
	}
	err := readAllOf(bad)
	if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), `parquet: row group 0 column "a": data page: `) {
		t.Errorf("a bad data page: %v", err)
	}
	// A reader shorter than the size given.
	_, err = NewFile(bytes.NewReader(data[:len(data)/2]), int64(len(data)))
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, io.EOF) || !strings.HasPrefix(err.Error(), "parquet: reading the footer: ") {
		t.Errorf("a short reader: %v", err)
	}
	// A writer after Close.
	w, err := NewWriter(io.Discard, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(randRecord(s, 1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("Write after Close: %v", err)
	}
}
