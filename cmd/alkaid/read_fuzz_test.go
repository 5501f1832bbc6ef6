package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
)

// FuzzReadCommands hands arbitrary bytes, as a file, to every command that
// reads one: each must exit 0 or 1 (never panic or hang), whatever types
// and values the readers let through to printing and exporting.
func FuzzReadCommands(f *testing.F) {
	for _, p := range []string{smallFile, smallStream, smallArrow} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	dir := f.TempDir()
	// Every type gen makes, with nulls, as a stream and as a file.
	for _, ext := range []string{".ipcs", ".ipc"} {
		path := filepath.Join(dir, "all"+ext)
		if code := runGen([]string{"-q", "-rows", "4", "-seed", "5", "-nulls", "0.3", "-o", path}); code != 0 {
			f.Fatalf("gen %s: exit %d", ext, code)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Files as independent writers make them (see writers_test.go).
	rec := listRecord(f, "")
	file := writeFileBytes(f, rec.Schema(), []*alkaid.Record{rec}, ipc.WithArrowCompat())
	f.Add(withoutLeadingSchema(f, file))
	f.Add(withBareLeadingSchema(f, file))
	u := unionRecord(f)
	f.Add(withUnionNullCount(f, writeFileBytes(f, u.Schema(), []*alkaid.Record{u}), 2))
	stdout, stderr := cmdStdout, cmdStderr
	cmdStdout, cmdStderr = io.Discard, io.Discard
	f.Cleanup(func() { cmdStdout, cmdStderr = stdout, stderr })
	in := filepath.Join(dir, "in")
	commands := [][]string{
		{"cat", in},
		{"info", in},
		{"schema", in},
		{"validate", "-q", in},
		{"export", "-q", "-format", "csv", in, filepath.Join(dir, "out.csv")},
		{"export", "-q", "-format", "ndjson", in, filepath.Join(dir, "out.ndjson")},
		{"convert", "-q", in, filepath.Join(dir, "out.ipcs")},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range commands {
			if code := run(args); code != exitOK && code != exitInvalid {
				t.Fatalf("alkaid %s: exit %d", strings.Join(args, " "), code)
			}
		}
	})
}
