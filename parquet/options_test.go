package parquet

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

var (
	_ alkaid.RecordReader = (*File)(nil)
	_ alkaid.RecordWriter = (*Writer)(nil)
)

// An invalid option value, or an option of the other side, makes the
// constructor fail with ErrInvalid (ErrNotSupported for a codec this
// package lacks) naming the option; nothing is clamped.
func TestOptionErrors(t *testing.T) {
	data := smallFile()
	s := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int64}}, datatype.Metadata{})
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		open func() error
		want error
		says string
	}{
		{"reader option to a writer", writerWith(s, WithColumns("a")), ErrInvalid, "WithColumns is an option of a reader"},
		{"batch size to a writer", writerWith(s, WithBatchSize(10)), ErrInvalid, "WithBatchSize"},
		{"writer option to a reader", fileWith(data, WithRowGroupRows(10)), ErrInvalid, "WithRowGroupRows is an option of a Writer"},
		{"compression to a reader", fileWith(data, WithCompression(Zstd, 3)), ErrInvalid, "WithCompression"},
		{"negative concurrency, reader", fileWith(data, WithConcurrency(-1)), ErrInvalid, "WithConcurrency(-1)"},
		{"negative concurrency, writer", writerWith(s, WithConcurrency(-2)), ErrInvalid, "WithConcurrency(-2)"},
		{"zero batch size", fileWith(data, WithBatchSize(0)), ErrInvalid, "WithBatchSize(0)"},
		{"negative limit", fileWith(data, WithLimits(Limits{MaxPageSize: -1})), ErrInvalid, "WithLimits: MaxPageSize -1"},
		{"nil read stats", fileWith(data, WithReadStats(nil)), ErrInvalid, "WithReadStats(nil)"},
		{"row filter to a writer", writerWith(s, WithRowFilter([]string{"a"}, func(*alkaid.Record) (*array.Boolean, error) { return nil, nil })), ErrInvalid, "WithRowFilter is an option of a reader"},
		{"nil row filter", fileWith(data, WithRowFilter([]string{"a"}, nil)), ErrInvalid, "WithRowFilter: no keep function"},
		{"row filter on no column", fileWith(data, WithRowFilter([]string{"zz"}, func(*alkaid.Record) (*array.Boolean, error) { return nil, nil })), ErrInvalid, `WithRowFilter: no column "zz"`},
		{"unknown column", fileWith(data, WithColumns("nope")), ErrInvalid, `WithColumns: no column "nope"`},
		{"row group out of range", fileWith(data, WithRowGroups(7)), ErrInvalid, "WithRowGroups: row group 7"},
		{"predicate on no column", fileWith(data, WithPredicates(Predicate{Column: "zz", Op: IsNull})), ErrInvalid, `WithPredicates: no column "zz"`},
		{"zero row group rows", writerWith(s, WithRowGroupRows(0)), ErrInvalid, "WithRowGroupRows(0)"},
		{"zero row group bytes", writerWith(s, WithRowGroupBytes(0)), ErrInvalid, "WithRowGroupBytes(0)"},
		{"zero page size", writerWith(s, WithPageSize(0)), ErrInvalid, "WithPageSize(0)"},
		{"zero max columns", writerWith(s, WithMaxColumns(0)), ErrInvalid, "WithMaxColumns(0)"},
		{"negative dictionary limit", writerWith(s, WithDictionary(true, -1)), ErrInvalid, "WithDictionary(true, -1)"},
		{"level out of range", writerWith(s, WithCompression(Gzip, 10)), ErrInvalid, "WithCompression(GZIP, 10)"},
		{"codec not supported", writerWith(s, WithCompression(Codec(3), 0)), ErrNotSupported, "WithCompression("},
		{"nil option", fileWith(data, nil), ErrInvalid, "nil Option"},
		{"Select of an open option", func() error { _, err := f.Select(WithLimits(Limits{})); return err }, ErrInvalid, "WithLimits is taken when the file is opened"},
		{"Select of a writer option", func() error { _, err := f.Select(WithPageSize(10)); return err }, ErrInvalid, "WithPageSize is an option of a Writer"},
	} {
		err := c.open()
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) || !strings.HasPrefix(err.Error(), "parquet: ") {
			t.Errorf("%s: %v, want %v saying %q", c.name, err, c.want, c.says)
		}
	}
}

func fileWith(data []byte, opts ...Option) func() error {
	return func() error { _, err := NewFileBytes(data, opts...); return err }
}

func writerWith(s *alkaid.Schema, opts ...Option) func() error {
	return func() error { _, err := NewWriter(&bytes.Buffer{}, s, opts...); return err }
}

// Select reads another projection of an open file with the File's own
// options (here its batch size) under the new ones; the File is unchanged.
func TestSelect(t *testing.T) {
	data := smallFile()
	f, err := NewFileBytes(data, WithBatchSize(1))
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.Select(WithColumns("s"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Schema().NumFields() != 1 || g.Schema().Field(0).Name != "s" {
		t.Fatalf("selected schema %s", g.Schema())
	}
	whole, err := alkaid.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	part, err := alkaid.ReadAll(g)
	if err != nil {
		t.Fatal(err)
	}
	if whole.NumRows() != part.NumRows() || whole.Schema().NumFields() == 1 {
		t.Fatalf("whole %d rows of %s, part %d rows", whole.NumRows(), whole.Schema(), part.NumRows())
	}
	for r, err := range g.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if r.NumRows() != 1 {
			t.Fatalf("a record of %d rows under the File's WithBatchSize(1)", r.NumRows())
		}
	}
}

// Reading with goroutines fails as a serial read does: of two broken row
// groups, the first; of two broken columns of a row group, the same one.
func TestConcurrentReadErrorIsSerial(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int64}, {Name: "b", Type: datatype.Int64},
		{Name: "c", Type: datatype.Int64}}, datatype.Metadata{})
	data, f := writeAndOpen(t, randRecord(s, 400), WithRowGroupRows(100), WithCompression(Uncompressed, 0), WithDictionary(false, 0))
	broken := bytes.Clone(data)
	for _, at := range [][2]int{{1, 2}, {1, 0}, {2, 1}, {3, 0}} {
		// The first page header of column at[1] of row group at[0].
		off := f.meta.RowGroups[at[0]].Columns[at[1]].MetaData.DataPageOffset
		copy(broken[off:], bytes.Repeat([]byte{0xff}, 8))
	}
	var errs []string
	for _, n := range []int{1, 2, 4, 8} {
		g, err := NewFileBytes(broken, WithConcurrency(n))
		if err != nil {
			t.Fatal(err)
		}
		_, err = alkaid.ReadAll(g)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "row group 1 ") {
			t.Fatalf("concurrency %d: %v, want ErrInvalid in row group 1", n, err)
		}
		errs = append(errs, err.Error())
	}
	for _, e := range errs[1:] {
		if e != errs[0] {
			t.Errorf("parallel %q, serial %q", e, errs[0])
		}
	}
}
