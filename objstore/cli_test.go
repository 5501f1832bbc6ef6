package objstore

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/cmd/alkaid/cli"
)

// runCLI runs the alkaid command with s3:// registered against the test
// server, returning its exit code, stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Main(args, CLIOption(testOptions(server.endpoint)...), cli.WithStdio(bytes.NewReader(nil), &out, &errb))
	return code, out.String(), errb.String()
}

// mustAlkaid runs alkaid and fails t unless it exits 0.
func mustAlkaid(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runCLI(args...)
	if code != 0 {
		t.Fatalf("alkaid %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

// TestCLIOnS3: cat, schema, export and convert on s3:// objects,
// prefixes and patterns print what they print for the same files on
// disk.
func TestCLIOnS3(t *testing.T) {
	bucket := newBucket(t)
	root := "s3://" + bucket + "/warehouse"
	fsys, err := Open(root, testOptions(server.endpoint)...)
	if err != nil {
		t.Fatal(err)
	}
	written := writeDataset(t, fsys, "sales")
	// The same files on disk, each fetched whole.
	local := filepath.Join(t.TempDir(), "sales")
	for _, name := range written {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(local, filepath.FromSlash(strings.TrimPrefix(name, "sales/")))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := written[0]
	for _, c := range []struct{ remote, local []string }{
		{[]string{"cat", "-n", "5", root + "/sales"}, []string{"cat", "-n", "5", local}},
		{[]string{"cat", "-where", "year = 2024", "-columns", "id", root + "/sales"}, []string{"cat", "-where", "year = 2024", "-columns", "id", local}},
		{[]string{"cat", "-n", "3", root + "/" + first}, []string{"cat", "-n", "3", filepath.Join(local, strings.TrimPrefix(first, "sales/"))}},
		{[]string{"cat", "-n", "3", root + "/sales/year=2024/*/*.parquet"}, []string{"cat", "-n", "3", filepath.Join(local, "year=2024", "*", "*.parquet")}},
		{[]string{"schema", root + "/sales"}, []string{"schema", local}},
		{[]string{"info", root + "/sales"}, []string{"info", local}},
		{[]string{"validate", root + "/sales"}, []string{"validate", local}},
		{[]string{"schema", root + "/" + first}, []string{"schema", filepath.Join(local, strings.TrimPrefix(first, "sales/"))}},
		{[]string{"export", "-q", "-format", "csv", root + "/sales", "-"}, []string{"export", "-q", "-format", "csv", local, "-"}},
	} {
		t.Run(strings.Join(c.remote, " "), func(t *testing.T) {
			// info prints the location as given.
			got := mustAlkaid(t, c.remote...)
			want := strings.ReplaceAll(mustAlkaid(t, c.local...), local, root+"/sales")
			if got != want || got == "" {
				t.Fatalf("on s3:\n%s\non disk:\n%s", got, want)
			}
		})
	}

	// convert writes a partitioned dataset to a prefix, read back whole.
	mustAlkaid(t, "convert", "-q", "-partition-by", "region", root+"/sales", root+"/byregion")
	back := t.TempDir()
	mustAlkaid(t, "convert", "-q", "-partition-by", "region", local, back)
	got := mustAlkaid(t, "export", "-q", "-format", "csv", root+"/byregion", "-")
	if want := mustAlkaid(t, "export", "-q", "-format", "csv", back, "-"); got != want {
		t.Fatalf("written to s3 and read back:\n%.500s\nwritten locally:\n%.500s", got, want)
	}

	// join, import, gen, convert, integration and export read and write
	// objects: the objects written are the files the same commands write
	// on disk.
	ldir := t.TempDir()
	for _, c := range []struct {
		remote, local []string
		out           string
	}{
		{[]string{"gen", "-q", "-rows", "5000", "-columns", "int64,utf8", "-o", root + "/gen.parquet"},
			[]string{"gen", "-q", "-rows", "5000", "-columns", "int64,utf8", "-o", filepath.Join(ldir, "gen.parquet")}, "gen.parquet"},
		{[]string{"import", "-q", "-format", "csv", root + "/gen.csv", root + "/imported.arrow"},
			[]string{"import", "-q", "-format", "csv", filepath.Join(ldir, "gen.csv"), filepath.Join(ldir, "imported.arrow")}, "imported.arrow"},
		{[]string{"join", "-on", "id", root + "/sales", root + "/imported.arrow", root + "/joined.parquet"},
			[]string{"join", "-on", "id", local, filepath.Join(ldir, "imported.arrow"), filepath.Join(ldir, "joined.parquet")}, "joined.parquet"},
		{[]string{"convert", "-q", root + "/sales", root + "/one.arrow"},
			[]string{"convert", "-q", local, filepath.Join(ldir, "one.arrow")}, "one.arrow"},
		{[]string{"integration", "-mode", "ARROW_TO_JSON", "-arrow", root + "/one.arrow", "-json", root + "/one.json"},
			[]string{"integration", "-mode", "ARROW_TO_JSON", "-arrow", filepath.Join(ldir, "one.arrow"), "-json", filepath.Join(ldir, "one.json")}, "one.json"},
		{[]string{"integration", "-mode", "JSON_TO_ARROW", "-json", root + "/one.json", "-arrow", root + "/two.arrow"},
			[]string{"integration", "-mode", "JSON_TO_ARROW", "-json", filepath.Join(ldir, "one.json"), "-arrow", filepath.Join(ldir, "two.arrow")}, "two.arrow"},
		{[]string{"export", "-q", "-format", "csv", root + "/joined.parquet", root + "/joined.csv"},
			[]string{"export", "-q", "-format", "csv", filepath.Join(ldir, "joined.parquet"), filepath.Join(ldir, "joined.csv")}, "joined.csv"},
	} {
		if c.out == "imported.arrow" {
			// The CSV imported: the ids of the dataset and a few more.
			mustAlkaid(t, "export", "-q", "-format", "csv", "-select", "id", root+"/sales/year=2024/region=eu/part-0.parquet", filepath.Join(ldir, "gen.csv"))
			data, err := os.ReadFile(filepath.Join(ldir, "gen.csv"))
			if err != nil {
				t.Fatal(err)
			}
			w, err := fsys.Create("gen.csv")
			if err == nil {
				_, err = w.Write(data)
			}
			if err == nil {
				err = w.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		mustAlkaid(t, c.remote...)
		mustAlkaid(t, c.local...)
		got, err := fs.ReadFile(fsys, c.out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(ldir, c.out))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || len(got) == 0 {
			t.Errorf("%s: %d bytes written to S3, %d on disk, not the same", strings.Join(c.remote, " "), len(got), len(want))
		}
	}

	// -where with -select on an IPC object reads the columns they name
	// (ranged reads of their buffers) and prints what it prints on disk.
	got = mustAlkaid(t, "cat", "-where", "a > 0.5", "-select", "id, s", root+"/one.arrow")
	if want := mustAlkaid(t, "cat", "-where", "a > 0.5", "-select", "id, s", filepath.Join(ldir, "one.arrow")); got != want || got == "" {
		t.Errorf("cat -select of an IPC object:\n%.500s\non disk:\n%.500s", got, want)
	}

	// A missing object is named.
	if code, _, errs := runCLI("cat", root+"/nothing.parquet"); code != 1 || !strings.Contains(errs, root+"/nothing.parquet") {
		t.Errorf("cat of a missing object: exit %d, %s", code, errs)
	}
}

// TestCommandBinary builds objstore/cmd/alkaid and runs it as a process,
// the endpoint and credentials in the standard environment variables.
func TestCommandBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command; skipped with -short")
	}
	bucket := newBucket(t)
	root := "s3://" + bucket + "/warehouse"
	fsys, err := Open(root, testOptions(server.endpoint)...)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, fsys, "sales")
	bin := filepath.Join(t.TempDir(), "alkaid")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/alkaid").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "AWS_ENDPOINT_URL="+server.endpoint, "AWS_ACCESS_KEY_ID="+testAccess,
			"AWS_SECRET_ACCESS_KEY="+testSecret, "AWS_REGION=us-east-1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("schema", root+"/sales")
	if err != nil || !strings.Contains(out, "year") || !strings.Contains(out, "region") {
		t.Fatalf("alkaid schema: %v\n%s", err, out)
	}
	if out, err = run("convert", "-q", "-partition-by", "region", root+"/sales", root+"/copy"); err != nil {
		t.Fatalf("alkaid convert: %v\n%s", err, out)
	}
	want := mustAlkaid(t, "export", "-q", "-format", "csv", "-select", "id", root+"/sales", "-")
	if out, err = run("export", "-q", "-format", "csv", "-select", "id", root+"/copy", "-"); err != nil || out == "" || sortedLines(out) != sortedLines(want) {
		t.Fatalf("alkaid export of the copy: %v\n%.300s\nwant\n%.300s", err, out, want)
	}
	if out, err = run("help"); err != nil || !strings.Contains(out, "takes s3:// locations") {
		t.Fatalf("alkaid help: %v\n%s", err, out)
	}
}

// sortedLines sorts the lines of s.
func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// An alkaid command failing after parts of its output were uploaded
// leaves no object, no temporary object and no incomplete upload.
func TestCLIFailedOutputLeavesNothing(t *testing.T) {
	bucket := newBucket(t)
	px := newProxy(t, server.endpoint)
	root := "s3://" + bucket
	fsys, err := Open(root, testOptions(server.endpoint)...)
	if err != nil {
		t.Fatal(err)
	}
	// 1.5M rows of int64 (12 MB imported, over two 5 MiB parts), then
	// a row that is not an int64.
	var csv bytes.Buffer
	csv.WriteString("a\n")
	for i := range 1_500_000 {
		fmt.Fprintf(&csv, "%d\n", i)
	}
	csv.WriteString("x\n")
	for name, data := range map[string][]byte{"in.csv": csv.Bytes(), "a.txt": []byte("a: int64\n")} {
		w, err := fsys.Create(name)
		if err == nil {
			_, err = w.Write(data)
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	code := cli.Main([]string{"import", "-q", "-schema", root + "/a.txt", root + "/in.csv", root + "/out.arrows"},
		CLIOption(testOptions(px.URL(), WithPartSize(MinPartSize))...), cli.WithStdio(bytes.NewReader(nil), &out, &errb))
	if code != 1 || !strings.Contains(errb.String(), "in.csv") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	parts := 0
	for _, r := range px.settled() {
		if r.method == "PUT" && strings.Contains(r.key, ".out.arrows.tmp-") {
			parts++
		}
	}
	if parts < 2 {
		t.Errorf("%d parts uploaded before the failure, want at least 2", parts)
	}
	fsys, _ = Open(root, testOptions(server.endpoint)...)
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"a.txt", "in.csv"}) {
		t.Errorf("objects left: %v, want only the inputs", names)
	}
	if n := incomplete(t, bucket); n != 0 {
		t.Errorf("%d incomplete uploads left", n)
	}
}
