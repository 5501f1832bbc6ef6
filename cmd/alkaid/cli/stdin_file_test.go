package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
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

// A file on stdin (IPC or Parquet: its footer is at its end) was read
// whole into memory with io.ReadAll, so that 2.5 GB of stdin killed the
// process: it is now copied to a temporary file, with a bound (an error
// wrapping ErrLimit that names it), and memory stays small whatever its
// size.
func TestStdinFileSpooledBounded(t *testing.T) {
	const body = 64 << 20
	heads := map[string]string{"parquet": "PAR1", "ipc": ipc.Magic + "\x00", "arrow": ipc.ArrowMagic + "\x00\x00"}
	for name, head := range heads {
		for _, cmd := range []string{"validate", "cat", "info", "schema", "export"} {
			argv := []string{cmd, "-"}
			if cmd == "export" {
				argv = append(argv, "-")
			}
			var code int
			var errs string
			alloc := allocated(func() {
				code, _, errs = cliReader(io.MultiReader(strings.NewReader(head), io.LimitReader(zeros{}, body)), argv...)
			})
			require.Equal(t, exitInvalid, code, "%s %s: %s", name, cmd, errs)
			require.Less(t, alloc, uint64(body/4), "%s %s: %d bytes allocated for %d bytes of stdin", name, cmd, alloc, body)
			require.Less(t, len(errs), 1000, errs)
		}
	}

	old := maxStdinSpool
	maxStdinSpool = 1 << 20
	defer func() { maxStdinSpool = old }()
	for name, head := range heads {
		cmdStdin = io.MultiReader(strings.NewReader(head), io.LimitReader(zeros{}, body))
		_, err := openInput("-")
		cmdStdin = os.Stdin
		require.ErrorIs(t, err, datatype.ErrLimit, name)
		require.Contains(t, err.Error(), "over 1048576 bytes; give its path instead", name)
	}
	// Streams are not copied: they are not bounded by it.
	stream, err := os.ReadFile(smallStream)
	require.NoError(t, err)
	code, _, errs := cliReader(io.MultiReader(bytes.NewReader(stream)), "validate", "-")
	require.Equal(t, exitOK, code, errs)
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// cliReader is cli with stdin read from r.
func cliReader(r io.Reader, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	oldIn, oldOut, oldErr := cmdStdin, cmdStdout, cmdStderr
	cmdStdin, cmdStdout, cmdStderr = r, &out, &errb
	defer func() { cmdStdin, cmdStdout, cmdStderr = oldIn, oldOut, oldErr }()
	code := run(args)
	return code, out.String(), errb.String()
}

// allocated is the number of bytes the heap allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A damaged file on stdin is salvaged as by path; neither a file nor a
// stream is an error naming both tries.
func TestStdinFileDamaged(t *testing.T) {
	rec := listRecord(t, "")
	full := writeFileBytes(t, rec.Schema(), []*alkaid.Record{rec})
	cut := full[:len(full)-20]
	code, out, errs := cli(t, cut, "validate", "-")
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, out, "stdin: file (ALKAID1) without a usable footer; read as a stream: salvaged 1 record batch(es), 3 rows")
	require.True(t, strings.HasPrefix(errs, "alkaid validate: stdin: invalid: footer unreadable: ipc: invalid: file does not end with"), errs)

	junk := append([]byte(ipc.Magic+"\x00\x00"), make([]byte, 40)...)
	code, _, errs = cli(t, junk, "cat", "-")
	require.Equal(t, exitInvalid, code, errs)
	require.Contains(t, errs, "stdin: not readable as a file")
}
