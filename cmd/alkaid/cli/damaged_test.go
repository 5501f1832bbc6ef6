package cli

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/ipc"
)

// A file whose footer is damaged: validate reported the footer error,
// cat read the same file silently as a stream, and messages said
// "footer: footer:". Every command now reads it the same way (the record
// batches before the footer, as a stream) and says so exactly once, in
// one short line, whether it reads to the end or stops before.
func TestDamagedFooterEveryCommandSaysSo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.ipc")
	mustCLI(t, "gen", "-rows", "30", "-batches", "3", "-columns", "int64,utf8", "-o", path)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	tail := len(ipc.Magic) + 4
	n := int(binary.LittleEndian.Uint32(raw[len(raw)-tail:]))
	footer := len(raw) - tail - n
	binary.LittleEndian.PutUint32(raw[footer:], 0xfffffff0) // the footer's root offset
	require.NoError(t, os.WriteFile(path, raw, 0o644))

	for _, c := range []struct {
		argv []string
		code int
	}{
		{[]string{"validate", path}, exitInvalid},
		{[]string{"cat", path}, exitInvalid},
		{[]string{"cat", "-n", "2", path}, exitOK},
		{[]string{"info", path}, exitInvalid},
		{[]string{"schema", path}, exitOK},
		{[]string{"convert", "-q", path, filepath.Join(dir, "out.ipc")}, exitInvalid},
		{[]string{"export", "-q", path, filepath.Join(dir, "out.csv")}, exitInvalid},
	} {
		code, _, errs := cli(t, nil, c.argv...)
		require.Equal(t, c.code, code, "%v: %s", c.argv, errs)
		require.Equal(t, 1, strings.Count(errs, "footer unreadable"), "%v: %s", c.argv, errs)
		require.Equal(t, 1, strings.Count(errs, "\n"), "%v: %s", c.argv, errs)
		require.NotContains(t, errs, "footer: footer", c.argv)
		require.Less(t, len(errs), 400, "%v: %s", c.argv, errs)
	}
	// The salvaged output holds the three batches.
	require.Contains(t, mustCLI(t, "info", filepath.Join(dir, "out.ipc")), "record batches: 3\n")
}
