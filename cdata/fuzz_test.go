package cdata

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

// FuzzParseFormat: any format string with any child count gives a type or
// an error, never a panic; a type's own format parses back to it.
func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{"n", "b", "i", "vu", "d:9,2", "d:76,20,256", "w:5", "+w:3", "+l", "+vL", "+s", "+m",
		"+r", "+us:3,7", "+ud:", "tsu:UTC", "tss:", "ttn", "tDm", "tiM", "+ud:0,1,2", "d:1,2,3,4"} {
		f.Add(s, uint8(1))
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, format string, n uint8) {
		children := make([]datatype.Field, n%4)
		for i := range children {
			children[i] = datatype.Field{Name: fmt.Sprint("c", i), Type: datatype.Int32, Nullable: true}
		}
		if format == "+m" && len(children) == 1 {
			children[0] = datatype.Field{Name: "entries", Type: datatype.StructOf(
				datatype.Field{Name: "k", Type: datatype.String}, datatype.Field{Name: "v", Type: datatype.Int32})}
		}
		if format == "+r" && len(children) == 2 {
			children[0].Nullable = false
		}
		typ, err := parseFormat(format, children, flagMapKeysSorted)
		if err != nil {
			requireKind(t, err)
			return
		}
		again, err := formatOf(typ)
		if err != nil {
			t.Fatalf("%q parsed as %s, which has no format: %v", format, typ, err)
		}
		back, err := parseFormat(again, children, flagMapKeysSorted)
		if err != nil || !datatype.Equal(typ, back) {
			t.Fatalf("%q -> %s -> %q -> %v, %v", format, typ, again, back, err)
		}
	})
}

// requireKind fails t unless err is this package's (prefixed "cdata: ")
// and wraps one of the sentinels.
func requireKind(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrNotSupported) && !errors.Is(err, datatype.ErrLimit) {
		t.Fatalf("error wraps no sentinel: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "cdata: ") {
		t.Fatalf("error lacks the package prefix: %v", err)
	}
}

// sliceReader reads serialized metadata from b, within its bounds.
func sliceReader(b []byte) byteReader {
	return func(off, n int) ([]byte, error) {
		if n < 0 || off > len(b) || n > len(b)-off {
			return nil, invalidf("metadata beyond %d bytes", len(b))
		}
		return b[off : off+n], nil
	}
}

// FuzzDecodeMetadata: any bytes decode or fail, never panic or allocate
// more than the lengths they hold; what decodes encodes back the same.
func FuzzDecodeMetadata(f *testing.F) {
	ok, _ := encodeMetadata(datatype.MetadataFrom("ARROW:extension:name", "arrow.uuid", "k", ""))
	f.Add(ok)
	f.Add([]byte{1, 0, 0, 0, 255, 255, 255, 255})
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		md, err := decodeMetadata(sliceReader(b))
		if err != nil {
			requireKind(t, err)
			return
		}
		enc, err := encodeMetadata(md)
		if err != nil {
			t.Fatal(err)
		}
		if md.Len() == 0 {
			if enc != nil {
				t.Fatalf("empty metadata encodes as %q, not NULL", enc)
			}
			return
		}
		back, err := decodeMetadata(sliceReader(enc))
		if err != nil || !back.Equal(md) {
			t.Fatalf("metadata %v came back as %v, %v", md, back, err)
		}
	})
}
