package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
)

// A file on stdin whose stream part starts at its first batch (as Arrow
// JS writes them) is read through its footer by validate, cat, convert
// and export, as it is by path.
func TestStdinFileWithoutLeadingSchema(t *testing.T) {
	rec := listRecord(t, "")
	for _, c := range []struct {
		name string
		recs []*alkaid.Record
		rows string
	}{
		{"one batch", []*alkaid.Record{rec}, "1 record batches, 3 rows"},
		{"no batches", nil, "0 record batches, 0 rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := withoutLeadingSchema(t, writeFileBytes(t, rec.Schema(), c.recs, ipc.WithArrowCompat()))
			path := writeTemp(t, "js.arrow", raw)

			for _, args := range [][]string{{"validate", "-"}, {"validate", "-strict", "-"}} {
				code, out, errs := cli(t, raw, args...)
				require.Equal(t, exitOK, code, "%v: %s", args, errs)
				require.Equal(t, "stdin: valid file (ARROW1): "+c.rows+", "+strconv.Itoa(len(raw))+" bytes\n", out)
			}

			code, out, errs := cli(t, raw, "cat", "-")
			require.Equal(t, exitOK, code, errs)
			require.Equal(t, mustCLI(t, "cat", path), out)

			dst := filepath.Join(t.TempDir(), "out.arrow")
			code, _, errs = cli(t, raw, "convert", "-q", "-", dst)
			require.Equal(t, exitOK, code, errs)
			require.Equal(t, mustCLI(t, "cat", path), mustCLI(t, "cat", dst))
			requireListNames(t, rec.Schema(), catSchemaOf(t, dst))

			code, out, errs = cli(t, raw, "export", "-format", "ndjson", "-", "-")
			require.Equal(t, exitOK, code, errs)
			require.Equal(t, mustCLI(t, "export", "-format", "ndjson", path, "-"), out)
		})
	}
}

// Over maxStdinFile bytes, a file on stdin is read as the stream it holds,
// with a warning: one with a leading schema message still reads, one
// without fails with an error; a damaged file in memory is salvaged as by
// path.
func TestStdinFileOverMemoryBound(t *testing.T) {
	rec := listRecord(t, "")
	full := writeFileBytes(t, rec.Schema(), []*alkaid.Record{rec})
	js := withoutLeadingSchema(t, writeFileBytes(t, rec.Schema(), []*alkaid.Record{rec}, ipc.WithArrowCompat()))
	old := maxStdinFile
	maxStdinFile = 16
	defer func() { maxStdinFile = old }()

	code, out, errs := cli(t, full, "validate", "-")
	require.Equal(t, exitOK, code, errs)
	require.Contains(t, out, "stdin: valid file (ALKAID1) read as a stream: 1 record batches, 3 rows")
	require.Contains(t, errs, "over 16 bytes: read as a stream")

	code, out, errs = cli(t, full, "cat", "-")
	require.Equal(t, exitOK, code, errs)
	require.Contains(t, out, "record batch 0: 3 rows")
	require.Contains(t, errs, "over 16 bytes: read as a stream")

	for _, c := range []struct{ cmd, want string }{
		{"schema", "3 fields\n"},
		{"info", "record batches: 1\nrows:           3 (per batch 3 to 3)\n"},
	} {
		code, out, errs = cli(t, full, c.cmd, "-")
		require.Equal(t, exitOK, code, errs)
		require.Contains(t, out, c.want, c.cmd)
		require.Contains(t, errs, "over 16 bytes: read as a stream", c.cmd)
	}

	for _, cmd := range []string{"validate", "cat"} {
		code, _, errs = cli(t, js, cmd, "-")
		require.Equal(t, exitInvalid, code, errs)
		require.Contains(t, errs, "over 16 bytes: read as a stream", cmd)
	}

	// Within the bound, a file cut before its footer is salvaged and
	// reported invalid, as by path.
	maxStdinFile = old
	cut := full[:len(full)-20]
	code, out, errs = cli(t, cut, "validate", "-")
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, out, "stdin: file (ALKAID1) without a usable footer; read as a stream: salvaged 1 record batch(es), 3 rows")
	require.True(t, strings.HasPrefix(errs, "alkaid validate: stdin: invalid: footer:"), errs)

	// Neither a file nor a stream: the error names stdin and both tries.
	junk := append([]byte(ipc.Magic+"\x00\x00"), make([]byte, 40)...)
	code, _, errs = cli(t, junk, "cat", "-")
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, errs, "stdin: not readable as a file")
}
