package parquet

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// Writing a row group holds its buffered values and the pages being
// compressed, not every page of the row group until the last is done:
// pages go to the file as they are compressed, and a chunk's values are
// copied once. Here the pages of one uncompressed row group are as big
// as its values; the heap it takes beyond the input stays well under
// the two copies that holding them all would take.
func TestWriterMemoryFollowsPages(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 24 MiB row group")
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String}}, datatype.Metadata{})
	const rows, width = 240_000, 100
	var recs []*alkaid.Record
	for at := 0; at < rows; at += 8192 {
		n := min(8192, rows-at)
		strs := make([]string, n)
		for i := range strs {
			strs[i] = fmt.Sprintf("%0*d", width, at+i)
		}
		b := array.NewBuilder(datatype.String).(*array.BinaryBuilder[int32])
		b.AppendStrings(strs, nil)
		rec, err := alkaid.NewRecord(s, []array.Array{b.NewArray()}, n)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	pooledBase := rawmem.Pooled()
	var err error
	peak, _ := memoryOf(func() {
		var w *Writer
		if w, err = NewWriter(io.Discard, s, WithCompression(Uncompressed, 0), WithDictionary(false, 0),
			WithRowGroupBytes(256<<20), WithConcurrency(1)); err != nil {
			return
		}
		for _, r := range recs {
			if err = w.Write(r); err != nil {
				return
			}
		}
		err = w.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	used := int64(peak) - int64(base.HeapInuse-min(base.HeapInuse, pooledBase))
	t.Logf("values %d MiB, heap beyond the input %d MiB", rows*width>>20, used>>20)
	// Holding the row group would take the values and their encoded
	// pages, twice the values; recycled large buffers (internal/rawmem)
	// can outlive a collection or two at this GOGC, hence 7/4.
	if used > rows*width*7/4 {
		t.Errorf("writing %d MiB of values took %d MiB of heap", rows*width>>20, used>>20)
	}
}
