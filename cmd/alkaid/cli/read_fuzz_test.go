package cli

import (
	"fmt"
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
// and values the readers let through to printing and exporting. It makes
// hundreds, not thousands, of executions per second: each runs seven
// commands, which each open the file and set up 1 MiB read buffers.
//
// The seeds are small (a few columns each, about 1 KB): the fuzzer
// minimises every new input it finds, and spent its whole run on
// mutations of the 8 KB files under testdata.
func FuzzReadCommands(f *testing.F) {
	dir := f.TempDir()
	// Every type gen makes, a few at a time, with nulls, as a stream and
	// as a file (ARROW1 magic for one).
	for i, cols := range []string{
		"int64,utf8", "bool,float64,decimal128,date32,timestamp_us_utc", "binary,list,struct",
		"map,dense_union", "dictionary,list_of_dictionary", "run_end_encoded,int32",
	} {
		for _, ext := range []string{".ipcs", ".ipc", ".arrow"} {
			path := filepath.Join(dir, fmt.Sprint(i)+ext)
			if code := runGen([]string{"-q", "-rows", "3", "-batches", "2", "-seed", "5", "-nulls", "0.3", "-columns", cols, "-o", path}); code != 0 {
				f.Fatalf("gen %s %s: exit %d", cols, ext, code)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	// Parquet files (PAR1), of the types Parquet holds, one row group of
	// three rows each.
	for i, cols := range []string{"int64,utf8", "bool,float64,decimal128,date32", "list,struct,map", "dictionary,run_end_encoded"} {
		path := filepath.Join(dir, fmt.Sprint(i)+".parquet")
		if code := runGen([]string{"-q", "-rows", "3", "-seed", "5", "-nulls", "0.3", "-columns", cols, "-codec", "uncompressed", "-o", path}); code != 0 {
			f.Fatalf("gen %s parquet: exit %d", cols, code)
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
		// To stdout (discarded): writing files, each synced and renamed
		// into place, took most of the time of an execution.
		{"export", "-q", "-format", "csv", in, "-"},
		{"export", "-q", "-format", "ndjson", in, "-"},
		{"convert", "-q", in, "-"},
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
