package integration

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"compress/gzip"
	"io"

	"github.com/alkaid-go/alkaid/datatype"
)

// FuzzRead: any input is read without panicking, and whatever reads
// writes back to JSON that reads equal.
func FuzzRead(f *testing.F) {
	f.Add([]byte(smallJSON))
	f.Add([]byte(strings.Replace(smallJSON, `"OFFSET": [0, 1, 3]`, `"OFFSET": [5, 6, 8]`, 1)))
	for _, name := range []string{"generated_union", "generated_nested_dictionary", "generated_run_end_encoded", "generated_binary_view", "generated_map"} {
		if raw, err := readGz(filepath.Join(conformanceDir, "cpp-21.0.0", name+".json.gz")); err == nil {
			f.Add(raw)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrNotSupported) && !errors.Is(err, datatype.ErrLimit) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "integration: ") {
				t.Fatalf("error lacks the package prefix: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := file.Write(&buf); err != nil {
			// Only a dictionary that changes between batches cannot be
			// written, and the JSON format cannot express that.
			t.Fatalf("write: %v", err)
		}
		back, err := Read(&buf)
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, buf.String())
		}
		if err := Compare(file, back); err != nil {
			t.Fatalf("compare: %v", err)
		}
	})
}

func readGz(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(gz)
}
