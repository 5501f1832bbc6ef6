package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMainIntegrationRegisteredScheme: integration reads its JSON and
// IPC inputs from URLs and writes its output there, the same bytes as
// on disk, in every mode.
func TestMainIntegrationRegisteredScheme(t *testing.T) {
	root := t.TempDir()
	bucket := filepath.Join(root, "bucket")
	local := t.TempDir()
	require.NoError(t, os.MkdirAll(bucket, 0o777))
	mustCLI(t, "gen", "-q", "-rows", "40", "-columns", "int32,utf8,float64,bool", "-o", filepath.Join(local, "in.arrows"))
	mustCLI(t, "gen", "-q", "-rows", "40", "-columns", "int64,binary", "-o", filepath.Join(local, "in.arrow"))
	for _, n := range []string{"in.arrows", "in.arrow"} {
		data, err := os.ReadFile(filepath.Join(local, n))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(bucket, n), data, 0o644))
	}
	opts := []Option{memScheme(root)}
	for _, c := range []struct {
		mode, arrow, json string
		out               string // the output, in bucket and in local
	}{
		{"ARROW_TO_JSON", "in.arrows", "s.json", "s.json"},
		{"ARROW_TO_JSON", "in.arrow", "f.json.gz", "f.json.gz"},
		{"JSON_TO_ARROW", "s.arrow", "s.json", "s.arrow"},
		{"JSON_TO_ARROW", "f.arrow", "f.json.gz", "f.arrow"},
		{"VALIDATE", "in.arrows", "s.json", ""},
		{"VALIDATE", "f.arrow", "f.json.gz", ""},
	} {
		t.Run(c.mode+" "+c.arrow+" "+c.json, func(t *testing.T) {
			code, _, errs := runMain(t, opts, "integration", "-mode", c.mode, "-arrow", "mem://bucket/"+c.arrow, "-json=mem://bucket/"+c.json)
			require.Equal(t, exitOK, code, errs)
			mustCLI(t, "integration", "-mode", c.mode, "-arrow", filepath.Join(local, c.arrow), "-json", filepath.Join(local, c.json))
			if c.out == "" {
				return
			}
			got, err := os.ReadFile(filepath.Join(bucket, c.out))
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join(local, c.out))
			require.NoError(t, err)
			require.NotEmpty(t, got)
			require.Equal(t, want, got)
			leftovers, err := filepath.Glob(filepath.Join(bucket, ".*"))
			require.NoError(t, err)
			require.Empty(t, leftovers, "temporary files left")
		})
	}

	// A differing pair is reported with the URLs.
	code, _, errs := runMain(t, opts, "integration", "-mode", "VALIDATE", "-arrow", "mem://bucket/in.arrow", "-json", "mem://bucket/s.json")
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, errs, "mem://bucket/s.json (JSON) vs mem://bucket/in.arrow: ")

	// A failed conversion leaves the file already at the URL as it was,
	// and no temporary file.
	writeFile(t, bucket, "bad.json", `{"schema": {"fields": [{"name": "a", "type": {"name": "int", "bitWidth": 32, "isSigned": true}, "nullable": true, "children": []}]}, "batches": [{"count": 2, "columns": [{"name": "a", "count": 2, "VALIDITY": [1, 1], "DATA": [1]}]}]}`)
	writeFile(t, bucket, "kept.arrow", "old")
	code, _, errs = runMain(t, opts, "integration", "-mode", "JSON_TO_ARROW", "-json", "mem://bucket/bad.json", "-arrow", "mem://bucket/kept.arrow")
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, errs, "mem://bucket/bad.json: ")
	old, err := os.ReadFile(filepath.Join(bucket, "kept.arrow"))
	require.NoError(t, err)
	require.Equal(t, "old", string(old))
	leftovers, err := filepath.Glob(filepath.Join(bucket, ".*"))
	require.NoError(t, err)
	require.Empty(t, leftovers, "temporary files left")

	// A missing input is named by its URL.
	code, _, errs = runMain(t, opts, "integration", "-mode", "VALIDATE", "-arrow", "mem://bucket/none.arrow", "-json", "mem://bucket/s.json")
	require.Equal(t, exitInvalid, code, errs)
	require.True(t, strings.HasPrefix(errs, "alkaid integration: mem://bucket/none.arrow: "), errs)
}
