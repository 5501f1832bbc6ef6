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
// panic; encrypted ones, read without keys, must give ErrAuthentication.
// expectedFailures are the files that must fail, with a part of the
// error they must give: corrupt checksums and files that are not Parquet.
var expectedFailures = map[string]string{
	"datapage_v1-corrupt-checksum.parquet":                                "CRC mismatch",
	"rle-dict-uncompressed-corrupt-checksum.parquet":                      "CRC mismatch",
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
			// Without keys (TestConformanceEncrypted reads them with theirs).
			if !errors.Is(err, ErrAuthentication) {
				t.Errorf("%s: got %v, want ErrAuthentication", name, err)
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

// nation.dict-malformed.parquet (parquet-mr of no version, PARQUET-816):
// the 25 nations of TPC-H, read as arrow-go reads them.
func TestConformanceNationDictMalformed(t *testing.T) {
	f, err := OpenFile(filepath.Join(testingDir, "nation.dict-malformed.parquet"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("../shared/conformance/parquet-testing is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	recs, err := readAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].NumRows() != 25 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	for i, want := range []string{"0", "ALGERIA", "0"} {
		if got := cell(r.Column(i), 0); got != want {
			t.Errorf("column %s row 0: %s, want %s", r.ColumnName(i), got, want)
		}
	}
	if got := cell(r.Column(1), 24); got != "UNITED STATES" {
		t.Errorf("name row 24: %s", got)
	}
}
