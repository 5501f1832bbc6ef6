package cli

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// writeGroups writes a Parquet file of 8 row groups of 100 rows: id
// (0…799, in order, so each row group's statistics cover 100 ids), v
// (float64) and, when wide, s (500 random letters a row, the bulk of
// the file), in pages of about 10 rows (for the page index).
func writeGroups(t *testing.T, path string, wide bool) {
	t.Helper()
	fields := []datatype.Field{{Name: "id", Type: datatype.Int64}, {Name: "v", Type: datatype.Float64}}
	if wide {
		fields = append(fields, datatype.Field{Name: "s", Type: datatype.String})
	}
	schema := alkaid.NewSchema(fields, datatype.Metadata{})
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := parquet.NewWriter(f, schema, parquet.WithRowGroupRows(100), parquet.WithPageSize(80),
		parquet.WithDictionary(false, 0))
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(7, 8))
	id := array.NewPrimitiveBuilder[int64](datatype.Int64)
	v := array.NewPrimitiveBuilder[float64](datatype.Float64)
	s := array.NewBinaryBuilder[int32](datatype.String)
	letters := make([]byte, 500)
	for i := range 800 {
		id.Append(int64(i))
		v.Append(float64(i%7) - 3)
		for k := range letters {
			letters[k] = byte('a' + rng.IntN(26))
		}
		s.AppendString(string(letters))
	}
	cols := []array.Array{id.NewArray(), v.NewArray()}
	if wide {
		cols = append(cols, s.NewArray())
	}
	rec, err := alkaid.NewRecord(schema, cols, 800)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// countingFile counts the bytes read from a file at offsets.
type countingFile struct {
	*os.File
	n atomic.Int64
}

func (c *countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.File.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// scanFile reads the Parquet file at path as the reading commands do,
// with -where and -select, and returns the rows read, the scan's
// statistics and the bytes read from the file.
func scanFile(t *testing.T, path string, q queryFlags) (rows int64, st dataset.Stats, bytes int64) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	info, err := f.Stat()
	require.NoError(t, err)
	cf := &countingFile{File: f}
	in, err := openFile(path, cf, info.Size(), f, nil)
	require.NoError(t, err)
	defer in.Close()
	require.NoError(t, q.apply(in))
	for rec, err := range in.Records() {
		require.NoError(t, err)
		rows += int64(rec.NumRows())
	}
	require.NotNil(t, in.scan, "the file was not read through a dataset scan")
	return rows, in.scan.Stats(), cf.n.Load()
}

// TestParquetFileWherePrunes checks that -where on a single Parquet file
// skips the row groups and pages its statistics rule out, exactly, and
// that the output is that of the same filter over an unpruned input (the
// file converted to an IPC file, which has no statistics).
func TestParquetFileWherePrunes(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "groups.parquet")
	writeGroups(t, pq, false)
	ipcPath := filepath.Join(dir, "groups.arrow")
	mustCLI(t, "convert", "-q", pq, ipcPath)

	for _, c := range []struct {
		where               string
		rows                int64
		groupsPruned, pages int
	}{
		// A row group's two pages per column hold rows 0…63 and 64…99 (the
		// writer checks a page's size every 64 rows). Row groups 2, 3 and 4
		// hold ids 200…499; in 4 the pages of ids 464…499 are skipped, of
		// both columns.
		{"id >= 250 AND id < 420", 170, 5, 2},
		{"id = 799", 1, 7, 2}, // ids 700…763 skipped, of both columns
		{"id < 0 OR id > 1000", 0, 8, 0},
		{"v > 100", 0, 8, 0},                    // every row group's max of v is 3
		{"v > 0", 800 * 3 / 7, 0, 0},            // no statistic rules a row group out
		{"id IN (5, 705) AND v <> 99", 2, 6, 0}, // IN: statistics of row groups 0 and 7, no page index
	} {
		t.Run(c.where, func(t *testing.T) {
			rows, st, _ := scanFile(t, pq, queryFlags{where: c.where})
			require.Equal(t, c.rows, rows)
			require.Equal(t, 8, st.RowGroups)
			require.Equal(t, c.groupsPruned, st.RowGroupsPruned, "row groups pruned")
			require.EqualValues(t, c.pages, st.PagesPruned, "pages pruned")
			require.Equal(t, c.rows, st.Rows)
			require.Equal(t, csvOf(t, ipcPath, c.where, ""), csvOf(t, pq, c.where, ""))
		})
	}
}

// csvOf is the CSV export of path with -where and -select (when not "").
func csvOf(t *testing.T, path, where, sel string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.csv")
	args := []string{"export", "-q"}
	if where != "" {
		args = append(args, "-where", where)
	}
	if sel != "" {
		args = append(args, "-select", sel)
	}
	mustCLI(t, append(args, path, out)...)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return string(b)
}

// TestSelectProjectsScan checks that -select reads only the columns its
// expressions and -where's name, from a Parquet file and from a dataset:
// the wide column s, nearly all of the file, is read only when named;
// the output is that of the unprojected IPC file.
func TestSelectProjectsScan(t *testing.T) {
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.parquet")
	writeGroups(t, wide, true)
	ipcPath := filepath.Join(dir, "wide.arrow")
	mustCLI(t, "convert", "-q", wide, ipcPath)
	info, err := os.Stat(wide)
	require.NoError(t, err)
	size := info.Size()

	for _, c := range []struct {
		name     string
		q        queryFlags
		readsS   bool
		wantRows int64
	}{
		{"select", queryFlags{sel: "id * 2 AS d, v"}, false, 800},
		{"select and where", queryFlags{sel: "id + 1 AS n", where: "v > 0"}, false, 342},
		{"select of no column", queryFlags{sel: "1 AS one"}, false, 800},
		{"select of s", queryFlags{sel: "length(s) AS n, id"}, true, 800},
		{"where names s", queryFlags{sel: "id", where: "s <> ''"}, true, 800},
		{"where alone reads every column", queryFlags{where: "v > 0"}, true, 342},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, st, bytes := scanFile(t, wide, c.q)
			require.Equal(t, c.wantRows, rows)
			require.Equal(t, 8, st.RowGroups)
			if c.readsS {
				require.Greater(t, bytes, size*9/10, "bytes read of %d", size)
			} else {
				require.Less(t, bytes, size/10, "bytes read of %d", size)
			}
			require.Equal(t, csvOf(t, ipcPath, c.q.where, c.q.sel), csvOf(t, wide, c.q.where, c.q.sel))
		})
	}

	// A dataset: a directory holding the file, with a partition column.
	ds := filepath.Join(dir, "ds", "k=1")
	require.NoError(t, os.MkdirAll(ds, 0o777))
	require.NoError(t, os.Link(wide, filepath.Join(ds, "part-0.parquet")))
	in, err := openInput(filepath.Dir(ds))
	require.NoError(t, err)
	defer in.Close()
	require.NoError(t, (&queryFlags{sel: "id + k AS n", where: "v > 0"}).apply(in))
	require.Equal(t, "n", in.Schema().Field(0).Name)
	rows := 0
	for rec, err := range in.Records() {
		require.NoError(t, err)
		rows += rec.NumRows()
	}
	require.Equal(t, 342, rows)
	require.Less(t, in.scan.Stats().BytesRead, size/10, "bytes read of %d", size)
}
