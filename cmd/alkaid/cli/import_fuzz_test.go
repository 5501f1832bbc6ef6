package cli

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzImport feeds arbitrary text to `alkaid import` as CSV and as NDJSON:
// it must exit 0 or 1 (never panic or hang), and whatever it writes must
// validate.
func FuzzImport(f *testing.F) {
	for _, seed := range []string{
		"a,b,c\n1,2.5,x\n3,,y\n",
		"t,when\ntrue,2024-01-02T03:04:05Z\nfalse,2024-01-02T03:04:06+02:00\n",
		`{"a": 1, "b": {"c": [1, 2]}, "s": "x"}` + "\n" + `{"a": null, "b": {"c": []}}` + "\n",
		`{"x": [[1], [2, 3]], "y": 1e308}` + "\n",
		"a\n\"unterminated\n",
		"{\"a\": 1}\n{\"a\": \"str\"}\n",
	} {
		f.Add(seed)
	}
	dir := f.TempDir()
	stderr := cmdStderr
	cmdStderr = io.Discard
	f.Cleanup(func() { cmdStderr = stderr })
	f.Fuzz(func(t *testing.T, text string) {
		in := filepath.Join(dir, "in.txt")
		out := filepath.Join(dir, "out.ipcs")
		if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"csv", "ndjson"} {
			os.Remove(out)
			code := runImport([]string{"-q", "-format", format, "-batch-rows", "7", in, out})
			if code != 0 && code != 1 {
				t.Fatalf("%s: exit %d", format, code)
			}
			if code == 0 {
				if v := runValidate([]string{"-q", out}); v != 0 {
					t.Fatalf("%s: import wrote data that does not validate", format)
				}
			}
		}
	})
}
