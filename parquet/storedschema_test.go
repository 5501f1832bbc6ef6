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
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// TestCorruptStoredSchema flips each byte of the base64 ARROW:schema key
// to another base64 character: the file either opens with the types of
// the stored schema or fails with ErrInvalid naming the key (and, under
// WithStoredSchemaWarnings, opens with a warning) — never with the
// Parquet types silently.
func TestCorruptStoredSchema(t *testing.T) {
	ts, _ := datatype.NewTimestamp(datatype.Second, "")
	dt, _ := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "d", Type: datatype.Date64Type, Nullable: true},
		{Name: "t", Type: ts, Nullable: true},
		{Name: "s", Type: dt, Nullable: true},
	}, datatype.Metadata{})
	cols := []array.Array{
		arrayjson.MustParse(datatype.Date64Type, "[86400000, null]"),
		arrayjson.MustParse(ts, "[1, 2]"),
		arrayjson.MustParse(dt, `["a", null]`),
	}
	rec, err := alkaid.NewRecord(s, cols, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, []*alkaid.Record{rec})
	want, err := storedSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte(want))
	if at < 0 {
		t.Fatal("ARROW:schema value not found in the file")
	}
	var failed, same int
	for i := at; i < at+len(want)-2; i++ { // the last characters are padding bits
		bad := bytes.Clone(data)
		if bad[i] == 'A' {
			bad[i] = 'B'
		} else {
			bad[i] = 'A'
		}
		f, err := NewFileBytes(bad)
		if err != nil {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "ARROW:schema") {
				t.Fatalf("byte %d: error %v, want ErrInvalid naming ARROW:schema", i-at, err)
			}
			failed++
			f, err := NewFileBytes(bad, WithStoredSchemaWarnings())
			if err != nil || len(f.Warnings()) != 1 {
				t.Fatalf("byte %d with warnings: %v, warnings %q", i-at, err, f.Warnings())
			}
			continue
		}
		// A flip may leave a valid schema message of other types (a
		// dropped dictionary encoding): those types are then read, not
		// the Parquet ones.
		stored, err := decodeStoredSchema(string(bad[at : at+len(want)]))
		if err != nil {
			t.Fatalf("byte %d: the file opened with a key that does not decode: %v", i-at, err)
		}
		for j, fld := range f.Schema().Fields() {
			if !datatype.Equal(fld.Type, stored.Field(j).Type) {
				t.Fatalf("byte %d: field %s read as %s, stored as %s, without an error", i-at, fld.Name, fld.Type, stored.Field(j).Type)
			}
		}
		same++
	}
	if failed == 0 {
		t.Fatal("no flipped byte was detected")
	}
	t.Logf("%d flips refused, %d harmless", failed, same)
}

// A stored field whose nullability differs from its column's is read with
// the column's nullability and the stored type.
func TestStoredSchemaNullability(t *testing.T) {
	ts, _ := datatype.NewTimestamp(datatype.Second, "")
	s := alkaid.NewSchema([]datatype.Field{{Name: "t", Type: ts}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(ts, "[1, 2]")}, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, []*alkaid.Record{rec})
	// The same file, its column made OPTIONAL.
	data = patchFooter(data, func(m *format.FileMetaData) { m.Schema[1].RepetitionType = ptr(format.Optional) })
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if fld := f.Schema().Field(0); !fld.Nullable || !datatype.Equal(fld.Type, ts) {
		t.Errorf("field %v, want nullable %s", fld, ts)
	}
}

// TestStoredSchemaKept: the ARROW:schema key decoded last is kept and
// shared (schemas are immutable); another key, or a key that does not
// decode after one that did, is decoded as it is.
func TestStoredSchemaKept(t *testing.T) {
	ts, _ := datatype.NewTimestamp(datatype.Millisecond, "Europe/Paris")
	a := alkaid.NewSchema([]datatype.Field{{Name: "t", Type: ts, Nullable: true}}, datatype.Metadata{})
	b := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: datatype.Date64Type}}, datatype.Metadata{})
	ka, err := storedSchema(a)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := storedSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		key  string
		want *alkaid.Schema
	}{{ka, a}, {ka, a}, {kb, b}, {ka, a}, {"!" + ka[1:], nil}, {ka[:len(ka)/2], nil}, {ka, a}} {
		got, err := decodeStoredSchema(tc.key)
		switch {
		case tc.want == nil && !errors.Is(err, ErrInvalid):
			t.Fatalf("key %d: got %v, want ErrInvalid", i, err)
		case tc.want != nil && (err != nil || !got.Equal(tc.want)):
			t.Fatalf("key %d: got %v (%v), want %s", i, got, err, tc.want)
		}
	}
	first, _ := decodeStoredSchema(ka)
	again, _ := decodeStoredSchema(strings.Clone(ka))
	if first != again {
		t.Error("the key decoded last was decoded again")
	}
}
