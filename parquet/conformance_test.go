package parquet

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testingDir = "../../shared/conformance/parquet-testing/data"

// testingFile is the path of a parquet-testing file; the test skips with a
// message when ../shared is absent (a fresh clone) and fails on any other
// error.
func testingFile(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(testingDir, name)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent (../shared is missing in a fresh clone)", path)
	} else if err != nil {
		t.Fatal(err)
	}
	return path
}

// readWhole reads every record of a file; it returns the rows read.
func readWhole(path string) (int, error) {
	f, err := OpenFile(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rows := 0
	for r, err := range f.Records() {
		if err != nil {
			return rows, err
		}
		rows += r.NumRows()
	}
	if int64(rows) != f.NumRows() {
		return rows, errors.New("row count differs from the footer's")
	}
	return rows, nil
}

// TestConformanceAllFiles reads every file of parquet-testing: none may
// panic; encrypted ones must give ErrNotSupported.
// expectedFailures are the files that must fail, with a part of the
// error they must give: corrupt checksums, a malformed dictionary page,
// and files that are not Parquet.
var expectedFailures = map[string]string{
	"datapage_v1-corrupt-checksum.parquet":                                "CRC mismatch",
	"rle-dict-uncompressed-corrupt-checksum.parquet":                      "CRC mismatch",
	"nation.dict-malformed.parquet":                                       "exceeds the chunk",
	"bloom_filter.bin":                                                    "no PAR1 magic",
	"bloom_filter.xxhash.bin":                                             "no PAR1 magic",
	"_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json": "no PAR1 magic",
}

func TestConformanceAllFiles(t *testing.T) {
	entries, err := os.ReadDir(testingFile(t, "."))
	if err != nil {
		t.Fatal(err)
	}
	ok, total := 0, 0
	for _, e := range entries {
		name := e.Name()
		if !strings.Contains(name, ".parquet") && !strings.HasSuffix(name, ".bin") {
			continue
		}
		total++
		rows, err := readWhole(filepath.Join(testingDir, name))
		switch {
		case strings.HasSuffix(name, ".encrypted"):
			if !errors.Is(err, ErrNotSupported) {
				t.Errorf("%s: got %v, want ErrNotSupported", name, err)
			} else {
				ok++
			}
		case expectedFailures[name] != "":
			if !strings.Contains(fmt.Sprint(err), expectedFailures[name]) {
				t.Errorf("%s: got %v, want an error containing %q", name, err, expectedFailures[name])
			} else {
				ok++
			}
		case err != nil:
			t.Errorf("%s: %v", name, err)
		default:
			ok++
			t.Logf("%s: %d rows", name, rows)
		}
	}
	t.Logf("%d of %d files behave as expected", ok, total)
}
