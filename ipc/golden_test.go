package ipc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestGoldenFiles pins the exact bytes the writers produce for a fixed
// batch of every type: a change to the wire output must be deliberate
// (go test ./ipc -run Golden -update) and visible in review.
func TestGoldenFiles(t *testing.T) {
	s := randdata.AllTypes()
	rec := randdata.New(2024).Record(s, 9)
	cases := []struct {
		name string
		make func() []byte
	}{
		{"all_types.ipcs", func() []byte { return writeStream(t, s, []*alkaid.Record{rec, rec.Slice(2, 7)}) }},
		{"all_types.ipc", func() []byte { return writeFile(t, s, []*alkaid.Record{rec, rec.Slice(2, 7)}) }},
		{"all_types_arrow_align64.arrow", func() []byte {
			return writeFile(t, s, []*alkaid.Record{rec}, WithArrowCompat(), WithAlignment(64))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.make()
			path := filepath.Join("..", "testdata", "golden", c.name)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, got, 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "missing golden file; run go test ./ipc -run Golden -update")
			require.True(t, bytes.Equal(want, got), "%s: written bytes changed (%d bytes, golden %d)", c.name, len(got), len(want))
			// And the golden bytes still read back to the batch.
			r, err := NewStreamReader(bytes.NewReader(want), WithValidation(array.ValidateFull))
			require.NoError(t, err)
			require.Equal(t, rec.String(), firstRecord(t, r).String())
		})
	}
}
