package cli

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/ipc"
)

// writeWideHeaderCSV writes a CSV at path whose only header cell is n bytes
// long, followed by one data row, without holding the cell in memory.
func writeWideHeaderCSV(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriterSize(f, 1<<16)
	chunk := strings.Repeat("h", 1<<16)
	for left := n; left > 0; left -= len(chunk) {
		_, err = w.WriteString(chunk[:min(left, len(chunk))])
		require.NoError(t, err)
	}
	_, err = w.WriteString("\n1\n")
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
}

// A CSV whose header cell is larger than what readers accept as a
// message's metadata (ipc.DefaultLimits.MaxMetadataSize) is refused on
// import, naming the limit, and leaves nothing at the output path: a
// writer must not produce what the default readers reject.
func TestImportHeaderOverMetadataLimit(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "wide.csv")
	writeWideHeaderCSV(t, in, ipc.DefaultLimits.MaxMetadataSize+1)

	for _, c := range []struct {
		name     string
		existing []byte // content already at the output path, nil for none
	}{
		{"new output", nil},
		{"existing output kept", []byte("previous content\n")},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.ipc")
			if c.existing != nil {
				require.NoError(t, os.WriteFile(out, c.existing, 0o644))
			}
			code, _, errs := cli(t, nil, "import", in, out)
			require.NotEqual(t, 0, code, errs)
			require.Contains(t, errs, "Limits.MaxMetadataSize", errs)
			require.Contains(t, errs, "metadata would take", errs)
			if c.existing == nil {
				require.NoFileExists(t, out)
			} else {
				got, err := os.ReadFile(out)
				require.NoError(t, err)
				require.Equal(t, c.existing, got)
			}
			left, err := filepath.Glob(filepath.Join(filepath.Dir(out), "*"))
			require.NoError(t, err)
			if c.existing == nil {
				require.Empty(t, left, "temporary files left behind")
			} else {
				require.Equal(t, []string{out}, left, "temporary files left behind")
			}
		})
	}
}

// The same through the libraries: the csv reader yields the wide schema,
// and both ipc writers refuse it with ErrLimit before writing a byte.
func TestCSVWideHeaderRefusedByWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.csv")
	writeWideHeaderCSV(t, path, ipc.DefaultLimits.MaxMetadataSize+1)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rd, err := csv.NewReader(f)
	require.NoError(t, err)
	schema := rd.Schema()
	require.Equal(t, 1, schema.NumFields())

	for _, c := range []struct {
		name string
		open func(w io.Writer) error
	}{
		{"stream", func(w io.Writer) error { _, err := ipc.NewStreamWriter(w, schema); return err }},
		{"file", func(w io.Writer) error { _, err := ipc.NewFileWriter(w, schema); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := c.open(&buf)
			require.ErrorIs(t, err, ipc.ErrLimit)
			require.Contains(t, err.Error(), "Limits.MaxMetadataSize")
			require.Zero(t, buf.Len(), "bytes written before the refusal")
		})
	}
}
