package dataset

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/files"
)

// FuzzOpenScan reads arbitrary bytes as a dataset file, found by content
// or forced to each format: opening and scanning either succeed or fail
// with a FileError naming the file, never panic or hang.
func FuzzOpenScan(f *testing.F) {
	r := mkRec(f, col{"x:int64", "[1,null,3]"}, col{"s:utf8", `["a","b",null]`})
	for _, format := range []files.Format{files.FormatParquet, files.FormatIPCFile, files.FormatIPCStream, files.FormatCSV, files.FormatNDJSON} {
		f.Add(encode(f, format, []*alkaid.Record{r}), uint8(format))
	}
	f.Add([]byte("PAR1"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		opts := []Option{WithFormat(files.Format(format % 6))}
		fsys := fstest.MapFS{"d/k=1/f.csv": {Data: data}}
		d, err := Open(fsys, "d", append(opts, WithPartitioning(Partitioning{Style: Hive}))...)
		if err == nil {
			s, serr := d.Scan(context.Background(), WithBatchSize(2))
			if serr != nil {
				t.Fatal(serr)
			}
			for _, e := range s.Records() {
				err = e
			}
		}
		var fe *FileError
		if err != nil && (!errors.As(err, &fe) || fe.Path != "d/k=1/f.csv") {
			t.Fatalf("error not naming the file: %v", err)
		}
	})
}
