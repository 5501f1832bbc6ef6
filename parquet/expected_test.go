package parquet

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
)

func readRecords(t *testing.T, name string, opts ...Option) []*alkaid.Record {
	t.Helper()
	f, err := OpenFile(testingFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := readAll(f, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// cell prints one value as the expected CSV files do: strings raw, null
// as an empty cell.
func cell(a array.Array, i int) string {
	if a.IsNull(i) {
		return ""
	}
	if b, ok := a.(*array.Binary[int32]); ok {
		return string(b.Value(i))
	}
	return array.FormatValue(a, i)
}

// TestExpectedCSV checks the files that come with an _expect.csv.
func TestExpectedCSV(t *testing.T) {
	for _, name := range []string{"delta_binary_packed", "delta_byte_array", "delta_encoding_required_column"} {
		t.Run(name, func(t *testing.T) {
			recs := readRecords(t, name+".parquet", WithBatchSize(37))
			fh, err := os.Open(filepath.Join(testingDir, name+"_expect.csv"))
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			rows, err := csv.NewReader(fh).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			header, rows := rows[0], rows[1:]
			row := 0
			for _, r := range recs {
				if r.NumCols() != len(header) {
					t.Fatalf("%d columns, the CSV has %d", r.NumCols(), len(header))
				}
				for i := range r.NumRows() {
					for c := range r.NumCols() {
						if got, want := cell(r.Column(c), i), rows[row][c]; got != want {
							t.Fatalf("row %d column %s: got %q, want %q", row, header[c], got, want)
						}
					}
					row++
				}
			}
			if row != len(rows) {
				t.Errorf("%d rows, the CSV has %d", row, len(rows))
			}
		})
	}
}

// TestExpectedValues checks files whose contents are documented by the
// parquet-testing repository and the readers that test against it.
func TestExpectedValues(t *testing.T) {
	cases := []struct {
		file, column, want string
	}{
		{"alltypes_plain.parquet", "id", "[4 5 6 7 2 3 0 1]"},
		{"alltypes_plain.parquet", "timestamp_col", "[2009-03-01T00:00:00 2009-03-01T00:01:00 2009-04-01T00:00:00 2009-04-01T00:01:00 2009-02-01T00:00:00 2009-02-01T00:01:00 2009-01-01T00:00:00 2009-01-01T00:01:00]"},
		{"alltypes_plain.snappy.parquet", "id", "[6 7]"},
		{"alltypes_dictionary.parquet", "id", "[0 1]"},
		{"nested_lists.snappy.parquet", "a", `[[[["a" "b"] ["c"]] [(null) ["d"]]] [[["a" "b"] ["c" "d"]] [(null) ["e"]]] [[["a" "b"] ["c" "d"] ["e"]] [(null) ["f"]]]]`},
		{"list_columns.parquet", "int64_list", "[[1 2 3] [(null) 1] [4]]"},
		{"list_columns.parquet", "utf8_list", `[["abc" "efg" "hij"] (null) ["efg" (null) "hij" "xyz"]]`},
		{"nullable.impala.parquet", "int_array", "[[1 2 3] [(null) 1 2 (null) 3 (null)] [] (null) (null) (null) (null)]"},
		{"repeated_primitive_no_list.parquet", "Int32_list", "[[0 1 2 3] [] [4] [5 6 7 8]]"},
		{"fixed_length_decimal.parquet", "value", "[1.00 2.00 3.00 4.00 5.00 6.00 7.00 8.00 9.00 10.00 11.00 12.00 13.00 14.00 15.00 16.00 17.00 18.00 19.00 20.00 21.00 22.00 23.00 24.00]"},
		{"int32_decimal.parquet", "value", "[1.00 2.00 3.00 4.00 5.00 6.00 7.00 8.00 9.00 10.00 11.00 12.00 13.00 14.00 15.00 16.00 17.00 18.00 19.00 20.00 21.00 22.00 23.00 24.00]"},
		{"int64_decimal.parquet", "value", "[1.00 2.00 3.00 4.00 5.00 6.00 7.00 8.00 9.00 10.00 11.00 12.00 13.00 14.00 15.00 16.00 17.00 18.00 19.00 20.00 21.00 22.00 23.00 24.00]"},
		{"byte_array_decimal.parquet", "value", "[1.00 2.00 3.00 4.00 5.00 6.00 7.00 8.00 9.00 10.00 11.00 12.00 13.00 14.00 15.00 16.00 17.00 18.00 19.00 20.00 21.00 22.00 23.00 24.00]"},
		{"float16_zeros_and_nans.parquet", "x", "[(null) 0 NaN]"},
		{"nulls.snappy.parquet", "b_struct", "[{b_c_int: (null)} {b_c_int: (null)} {b_c_int: (null)} {b_c_int: (null)} {b_c_int: (null)} {b_c_int: (null)} {b_c_int: (null)} {b_c_int: (null)}]"},
		{"hadoop_lz4_compressed.parquet", "c0", "[1593604800 1593604800 1593604801 1593604801]"},
		{"non_hadoop_lz4_compressed.parquet", "c0", "[1593604800 1593604800 1593604801 1593604801]"},
		{"lz4_raw_compressed.parquet", "c0", "[1593604800 1593604800 1593604801 1593604801]"},
		{"datapage_v2.snappy.parquet", "a", `["abc" "abc" "abc" (null) "abc"]`},
	}
	for _, c := range cases {
		recs := readRecords(t, c.file, WithColumns(c.column))
		var parts []string
		for _, r := range recs {
			s := array.Format(r.Column(0))
			parts = append(parts, strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
		}
		if got := "[" + strings.Join(parts, " ") + "]"; got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.file, c.column, got, c.want)
		}
	}
}
