package integration

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

// A small gzip input that expands past the limit is refused with
// ErrLimit before its text is held, and an invalid limit is an error.
func TestReadJSONLimit(t *testing.T) {
	// 16 MiB of spaces before the JSON value: about 16 KiB compressed.
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write(bytes.Repeat([]byte(" "), 16<<20))
	gz.Write([]byte(`{"schema": {"fields": []}, "batches": []}`))
	gz.Close()
	if buf.Len() > 64<<10 {
		t.Fatalf("compressed input is %d bytes", buf.Len())
	}
	_, err := Read(bytes.NewReader(buf.Bytes()), WithLimits(Limits{MaxJSONBytes: 1 << 20}))
	if !errors.Is(err, datatype.ErrLimit) || !strings.HasPrefix(err.Error(), "integration: ") {
		t.Fatalf("over the limit: got %v, want an integration: error wrapping ErrLimit", err)
	}
	f, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("default limits: %v", err)
	}
	if len(f.Schema.Fields()) != 0 {
		t.Fatalf("got %d fields", len(f.Schema.Fields()))
	}
	for _, l := range []Limits{{}, {MaxJSONBytes: -1}} {
		_, err := Read(strings.NewReader("{}"), WithLimits(l))
		if !errors.Is(err, datatype.ErrInvalid) || !strings.Contains(err.Error(), "WithLimits") {
			t.Errorf("WithLimits(%+v): got %v", l, err)
		}
		_, err = ReadIPCStream(strings.NewReader(""), WithLimits(l))
		if !errors.Is(err, datatype.ErrInvalid) {
			t.Errorf("ReadIPCStream WithLimits(%+v): got %v", l, err)
		}
	}
}
