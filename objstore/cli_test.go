package objstore

import (
	"bytes"
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

	// A missing object is named; other commands refuse s3:// by name.
	if code, _, errs := runCLI("join", "-on", "id", root+"/sales", root+"/sales"); code != 2 || !strings.Contains(errs, "s3:// locations are not supported by join") {
		t.Errorf("join: exit %d, %s", code, errs)
	}
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
	if out, err = run("help"); err != nil || !strings.Contains(out, "take s3:// locations") {
		t.Fatalf("alkaid help: %v\n%s", err, out)
	}
}

// sortedLines sorts the lines of s.
func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
