package cli

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/integration"
)

// goldenDir holds the Arrow integration golden files, beside the
// repository; absent in a user's fresh clone.
const goldenDir = "../../../../shared/conformance/arrow-testing"

// golden returns the path of a golden case without extension, or skips.
func golden(t *testing.T, folder, name string) string {
	t.Helper()
	p := filepath.Join(goldenDir, folder, name)
	if _, err := os.Stat(p + ".json.gz"); err != nil {
		t.Skipf("no golden files under %s (../shared is absent in a fresh clone)", goldenDir)
	}
	return p
}

// runCmd runs the command line in-process and returns its exit code,
// stdout and stderr.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	oldOut, oldErr := cmdStdout, cmdStderr
	cmdStdout, cmdStderr = &out, &errOut
	defer func() { cmdStdout, cmdStderr = oldOut, oldErr }()
	code := run(args)
	return code, out.String(), errOut.String()
}

// mismatchedJSON writes the golden primitive JSON with one value changed
// (int32_nonnullable, batch 0, row 2) and returns its path.
func mismatchedJSON(t *testing.T, c string) string {
	t.Helper()
	f, err := os.Open(c + ".json.gz")
	require.NoError(t, err)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	require.NoError(t, err)
	raw, err := io.ReadAll(gz)
	require.NoError(t, err)
	require.Equal(t, 1, bytes.Count(raw, []byte("-523457287")))
	p := filepath.Join(t.TempDir(), "changed.json")
	require.NoError(t, os.WriteFile(p, bytes.Replace(raw, []byte("-523457287"), []byte("-523457288"), 1), 0o644))
	return p
}

func TestIntegrationValidate(t *testing.T) {
	c := golden(t, "cpp-21.0.0", "generated_primitive")
	for _, ext := range []string{".stream", ".arrow_file"} {
		code, out, errOut := runCmd(t, "integration", "-mode", "VALIDATE", "-json", c+".json.gz", "-arrow", c+ext)
		require.Equal(t, exitOK, code, errOut)
		require.Empty(t, out)
		require.Empty(t, errOut)
	}
	// The documented exception: the golden stream renames the map fields.
	m := golden(t, "cpp-21.0.0", "generated_map_non_canonical")
	code, _, errOut := runCmd(t, "integration", "-mode", "validate", "-json", m+".json.gz", "-arrow", m+".stream")
	require.Equal(t, exitOK, code, errOut)

	changed := mismatchedJSON(t, c)
	code, out, errOut := runCmd(t, "integration", "-mode", "VALIDATE", "-json", changed, "-arrow", c+".arrow_file")
	require.Equal(t, exitInvalid, code)
	require.Empty(t, out)
	require.Equal(t, "alkaid integration: "+changed+" (JSON) vs "+c+".arrow_file: batch 0, column int32_nonnullable, row 2: values differ: -523457288 vs -523457287\n", errOut)

	// Different cases: the schemas differ.
	other := golden(t, "cpp-21.0.0", "generated_binary")
	code, _, errOut = runCmd(t, "integration", "-mode", "VALIDATE", "-json", c+".json.gz", "-arrow", other+".stream")
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errOut, "schema: numbers of fields differ: 22 vs 8")
	require.Equal(t, 1, strings.Count(errOut, "\n"))
}

func TestIntegrationConvert(t *testing.T) {
	dir := t.TempDir()
	c := golden(t, "cpp-21.0.0", "generated_nested_dictionary")
	want, err := integration.ReadFile(c + ".json.gz")
	require.NoError(t, err)

	// JSON_TO_ARROW: Alkaid magic by default, Arrow's with -magic arrow.
	for magic, head := range map[string]string{"": "ALKAID1\x00", "arrow": "ARROW1\x00\x00"} {
		out := filepath.Join(dir, "out"+magic+".ipc")
		args := []string{"integration", "-mode", "JSON_TO_ARROW", "-json", c + ".json.gz", "-arrow", out}
		if magic != "" {
			args = append(args, "-magic", magic)
		}
		code, _, errOut := runCmd(t, args...)
		require.Equal(t, exitOK, code, errOut)
		raw, err := os.ReadFile(out)
		require.NoError(t, err)
		require.Equal(t, head, string(raw[:8]))
		got, err := integration.ReadIPC(out)
		require.NoError(t, err)
		require.NoError(t, integration.Compare(want, got))
		code, _, errOut = runCmd(t, "integration", "-mode", "VALIDATE", "-json", c+".json.gz", "-arrow", out)
		require.Equal(t, exitOK, code, errOut)
	}

	// ARROW_TO_JSON, plain and gzip-compressed, from a stream and a file.
	for _, src := range []string{c + ".stream", c + ".arrow_file"} {
		for _, name := range []string{"back.json", "back.json.gz"} {
			out := filepath.Join(dir, name)
			code, _, errOut := runCmd(t, "integration", "-mode", "ARROW_TO_JSON", "-arrow", src, "-json", out, "-v")
			require.Equal(t, exitOK, code, errOut)
			got, err := integration.ReadFile(out)
			require.NoError(t, err)
			require.NoError(t, integration.Compare(want, got))
			code, _, errOut = runCmd(t, "integration", "-mode", "VALIDATE", "-json", out, "-arrow", src)
			require.Equal(t, exitOK, code, errOut)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "back.json.gz"))
	require.NoError(t, err)
	require.Equal(t, []byte{0x1f, 0x8b}, raw[:2])
}

func TestIntegrationUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"integration", "-arrow", "a", "-json", "b"}, exitUsage, "alkaid integration: -mode is required"},
		{[]string{"integration", "-mode", "FOO", "-arrow", "a", "-json", "b"}, exitUsage, `-mode "FOO"`},
		{[]string{"integration", "-mode", "VALIDATE", "-json", "b"}, exitUsage, "-arrow and -json are both required"},
		{[]string{"integration", "-mode", "JSON_TO_ARROW", "-arrow", "a", "-json", "b", "-magic", "x"}, exitUsage, `-magic "x"`},
		{[]string{"integration", "-nope"}, exitUsage, "flag provided but not defined"},
		{[]string{"integration", "-mode", "VALIDATE", "-arrow", "/nonexistent/a", "-json", "/nonexistent/b"}, exitInvalid, "no such file"},
		{[]string{"nonsense"}, exitUsage, `alkaid: unknown command "nonsense"`},
		{nil, exitUsage, "usage: alkaid COMMAND"},
	} {
		code, _, errOut := runCmd(t, tt.args...)
		require.Equal(t, tt.code, code, "%v: %s", tt.args, errOut)
		require.Contains(t, errOut, tt.msg, "%v", tt.args)
	}
	code, out, _ := runCmd(t, "help")
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "  integration  Check or convert")
	code, _, errOut := runCmd(t, "help", "integration")
	require.Equal(t, exitOK, code)
	require.Contains(t, errOut, "usage: alkaid integration")
	require.Contains(t, errOut, "JSON_TO_ARROW")
}

// TestIntegrationBinary builds the command and runs it as a process.
func TestIntegrationBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command; skipped with -short")
	}
	c := golden(t, "cpp-21.0.0", "generated_primitive")
	bin := filepath.Join(t.TempDir(), "alkaid")
	build := exec.Command("go", "build", "-o", bin, "..")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	cmd := exec.Command(bin, "integration", "-mode", "VALIDATE", "-json", c+".json.gz", "-arrow", c+".stream")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Empty(t, out)

	changed := mismatchedJSON(t, c)
	cmd = exec.Command(bin, "integration", "-mode", "VALIDATE", "-json", changed, "-arrow", c+".arrow_file")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v", err)
	require.Equal(t, exitInvalid, exit.ExitCode())
	require.Contains(t, stderr.String(), "batch 0, column int32_nonnullable, row 2: values differ: -523457288 vs -523457287")

	err = exec.Command(bin, "integration").Run()
	require.True(t, errors.As(err, &exit), "%v", err)
	require.Equal(t, exitUsage, exit.ExitCode())
}
