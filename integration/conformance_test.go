package integration

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/ipc"
)

// conformanceDir holds the Arrow integration golden files; it lives beside
// the repository and is absent in a user's fresh clone.
const conformanceDir = "../../shared/conformance/arrow-testing"

// conformanceCases returns the path of every case without its extension
// ("…/cpp-21.0.0/generated_map"), or skips the test.
func conformanceCases(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(conformanceDir, "*", "*.json.gz"))
	if len(files) == 0 {
		t.Skipf("no conformance files under %s (../shared is absent in a fresh clone)", conformanceDir)
	}
	cases := make([]string, len(files))
	for i, f := range files {
		cases[i] = strings.TrimSuffix(f, ".json.gz")
	}
	return cases
}

func caseName(c string) string { return filepath.Base(filepath.Dir(c)) + "/" + filepath.Base(c) }

// goldenOptions are the comparison options for a golden binary file: the
// one documented exception is Arrow C++'s map_non_canonical stream, which
// names the map's fields "entries", "key" and "value" although the JSON
// (and the .arrow_file) keep the schema's other names.
func goldenOptions(path string) []CompareOption {
	if strings.HasSuffix(path, "generated_map_non_canonical.stream") {
		return []CompareOption{IgnoreMapFieldNames()}
	}
	return nil
}

// TestConformanceValidate is VALIDATE over every golden case: the JSON
// must equal both the .stream and the .arrow_file.
func TestConformanceValidate(t *testing.T) {
	passed, failed := 0, 0
	for _, c := range conformanceCases(t) {
		want, err := ReadFile(c + ".json.gz")
		require.NoError(t, err)
		for _, ext := range []string{".stream", ".arrow_file"} {
			ok := t.Run(caseName(c)+ext, func(t *testing.T) {
				got, err := ReadIPC(c + ext)
				require.NoError(t, err)
				require.NoError(t, Compare(want, got, goldenOptions(c+ext)...))
			})
			if ok {
				passed++
			} else {
				failed++
			}
		}
	}
	t.Logf("conformance: %d passed, %d failed", passed, failed)
}

// TestConformanceRoundTrip writes every golden JSON with this library's
// stream and file writers (both magics) and its JSON writer, and reads
// each back: all must equal the JSON.
func TestConformanceRoundTrip(t *testing.T) {
	passed, failed := 0, 0
	for _, c := range conformanceCases(t) {
		want, err := ReadFile(c + ".json.gz")
		require.NoError(t, err)
		ok := t.Run(caseName(c), func(t *testing.T) {
			for _, v := range []struct {
				name string
				opts []ipc.Option
			}{{"alkaid", nil}, {"arrow", []ipc.Option{ipc.WithArrowCompat()}}} {
				var sbuf, fbuf bytes.Buffer
				require.NoError(t, WriteIPCStream(&sbuf, want, v.opts...))
				got, err := ReadIPCStream(&sbuf)
				require.NoError(t, err)
				require.NoError(t, Compare(want, got), "stream, %s", v.name)

				require.NoError(t, WriteIPCFile(&fbuf, want, v.opts...))
				wantMagic := ipc.Magic
				if v.opts != nil {
					wantMagic = ipc.ArrowMagic
				}
				require.Equal(t, wantMagic, ipc.DetectMagic(fbuf.Bytes()))
				fr, err := ipc.NewFileReader(bytes.NewReader(fbuf.Bytes()), int64(fbuf.Len()), ipc.WithValidation(array.ValidateFull))
				require.NoError(t, err)
				got = &File{Schema: fr.Schema()}
				for rec, err := range fr.Records() {
					require.NoError(t, err)
					got.Records = append(got.Records, rec)
				}
				require.NoError(t, Compare(want, got), "file, %s", v.name)
			}

			var jbuf bytes.Buffer
			require.NoError(t, want.Write(&jbuf))
			back, err := Read(&jbuf)
			require.NoError(t, err)
			require.NoError(t, Compare(want, back), "JSON")
			require.Equal(t, want.DictionaryIDs, back.DictionaryIDs)
		})
		if ok {
			passed++
		} else {
			failed++
		}
	}
	t.Logf("round trip: %d passed, %d failed", passed, failed)
}
