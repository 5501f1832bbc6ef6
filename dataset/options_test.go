package dataset

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestOptionCalls gives every option to every call: where it applies the
// call succeeds, elsewhere it fails with ErrInvalid naming the option,
// the calls it applies to and the call given it.
func TestOptionCalls(t *testing.T) {
	fsys := hiveSales(t)
	hive := WithPartitioning(Partitioning{Style: Hive})
	d, err := Open(fsys, "sales", hive)
	require.NoError(t, err)
	fileSchema := seqRec(t, 0, 1).Schema()
	const (
		open  = "Open/OpenFiles/OpenGlob"
		scan  = "Scan/CountRows"
		write = "Write"
	)
	opts := []struct {
		name    string
		opt     Option
		applies string // the calls it applies to, as the error says
	}{
		{"WithFormat", WithFormat(files.FormatParquet), open + " and " + write},
		{"WithPartitioning", hive, open},
		{"WithSchema", WithSchema(fileSchema), open},
		{"WithSkipCorrupt", WithSkipCorrupt(), open},
		{"WithParquetOptions", WithParquetOptions(parquet.WithConcurrency(1)), open + " and " + write},
		{"WithIPCOptions", WithIPCOptions(), open + " and " + write},
		{"WithCSVOptions", WithCSVOptions(), open + " and " + write},
		{"WithNDJSONOptions", WithNDJSONOptions(), open + " and " + write},
		{"WithColumns", WithColumns("x"), scan},
		{"WithBatchSize", WithBatchSize(10), scan},
		{"WithConcurrency", WithConcurrency(2), scan},
		{"WithReadahead", WithReadahead(1 << 20), scan},
		{"WithUnordered", WithUnordered(), scan},
		{"WithFiles", WithFiles(d.Files()[0]), scan},
		{"WithFilter", WithFilter(where(t, "x > 1")), scan},
		{"WithPartitionBy", WithPartitionBy("x"), write},
		{"WithLayout", WithLayout(Directory), write},
		{"WithFileName", WithFileName("f-{i}.parquet"), write},
		{"WithMaxRowsPerFile", WithMaxRowsPerFile(50), write},
		{"WithExisting", WithExisting(ExistingOverwriteOrIgnore), write},
	}
	calls := []struct {
		name string
		kind string
		run  func(Option) error
	}{
		{"Open", open, func(o Option) error { _, err := Open(fsys, "sales", o); return err }},
		{"OpenGlob", open, func(o Option) error { _, err := OpenGlob(fsys, "sales/**/*.parquet", o); return err }},
		{"OpenFiles", open, func(o Option) error { _, err := OpenFiles(fsys, "sales", d.Files(), o); return err }},
		{"Scan", scan, func(o Option) error {
			s, err := d.Scan(context.Background(), o)
			if err != nil {
				return err
			}
			_, err = alkaid.ReadAll(s)
			return err
		}},
		{"CountRows", scan, func(o Option) error { _, _, err := d.CountRows(context.Background(), o); return err }},
		{"Write", write, func(o Option) error {
			_, err := Write(context.Background(), DirFS(t.TempDir()), "out", recs{list: []*alkaid.Record{seqRec(t, 0, 100)}}, o)
			return err
		}},
	}
	for _, o := range opts {
		for _, c := range calls {
			t.Run(o.name+"/"+c.name, func(t *testing.T) {
				err := c.run(o.opt)
				if strings.Contains(o.applies, c.kind) {
					require.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, ErrInvalid)
				require.EqualError(t, err, fmt.Sprintf("dataset: %s: %s applies to %s, not to %s", ErrInvalid, o.name, o.applies, c.name))
			})
		}
	}
}

// TestOptionValues: an invalid value, a nil option and FormatAuto for
// Write are ErrInvalid errors naming the option.
func TestOptionValues(t *testing.T) {
	src := recs{list: []*alkaid.Record{seqRec(t, 0, 10)}}
	for _, tc := range []struct {
		opt  Option
		want string
	}{
		{WithFormat(files.Format(99)), "dataset: WithFormat(99): "},
		{WithFormat(files.FormatAuto), "dataset: WithFormat(auto): "},
		{nil, "dataset: Write: "},
	} {
		_, err := Write(context.Background(), DirFS(t.TempDir()), "out", src, tc.opt)
		require.ErrorIs(t, err, ErrInvalid)
		require.ErrorContains(t, err, tc.want)
	}
	_, err := Open(hiveSales(t), "sales", WithSchema(nil))
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "dataset: WithSchema: ")
}
