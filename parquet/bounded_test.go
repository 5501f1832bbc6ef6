package parquet

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/parquet/internal/encoding"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/klauspost/compress/zstd"
)

// rleRun is one RLE run of n copies of v at bit width bw (no length
// prefix).
func rleRun(n int, v byte, bw int) []byte {
	b := binary.AppendUvarint(nil, uint64(n)<<1)
	if bw > 0 {
		b = append(b, v)
	}
	return b
}

// prefixed is b after its 4-byte length, as v1 page levels are.
func prefixed(b []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
}

// memoryOf runs f and returns the most heap in use while it ran
// (sampled) and the bytes it allocated.
func memoryOf(f func()) (peak, total uint64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse-min(m.HeapInuse, rawmem.Pooled()))
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return peak, after.TotalAlloc - before.TotalAlloc
}

// zeros compresses n zero bytes with w, written a block at a time.
func zeros(t *testing.T, n int, w interface {
	Write([]byte) (int, error)
	Close() error
}) {
	block := make([]byte, 1<<20)
	for ; n > 0; n -= len(block) {
		if _, err := w.Write(block[:min(n, len(block))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDecodedSizeBounded: small files whose pages declare far more than
// they hold (RLE runs of dictionary indices, of nulls, of empty lists,
// compressed zeros, DELTA_BYTE_ARRAY prefixes, pages shared by many
// chunks), each declaring 1 GiB or more, are refused with ErrLimit once
// what the read decodes passes MaxCompressionRatio times the file's size
// plus 64 MiB, in memory well under what they declare (the heap may hold
// up to twice what is live before the collector runs), whatever the
// batch size.
func TestDecodedSizeBounded(t *testing.T) {
	i64 := datatype.Field{Name: "x", Type: datatype.Int64}
	opt64 := datatype.Field{Name: "x", Type: datatype.Int64, Nullable: true}
	str := datatype.Field{Name: "x", Type: datatype.String}
	list := datatype.Field{Name: "x", Type: datatype.ListOf(datatype.Int32), Nullable: true}
	const big = 1 << 24 // entries of a page: MaxPageValues
	const many = 16     // pages of a chunk: 2^28 entries, MaxChunkValues
	repeat := func(n int, page []byte) []byte { return bytes.Repeat(page, n) }
	dictIndices := func(n int) []byte {
		return dataPageV1(n, format.RLEDictionary, append([]byte{1}, rleRun(n, 0, 1)...))
	}
	nulls := func(n int) []byte { return dataPageV1(n, format.Plain, prefixed(rleRun(n, 0, 1))) }
	emptyLists := func(n int) []byte {
		return dataPageV1(n, format.Plain, append(prefixed(rleRun(n, 0, 1)), prefixed(rleRun(n, 1, 2))...))
	}
	compressed := func(codec format.Codec, n int, w interface {
		Write([]byte) (int, error)
		Close() error
	}, buf *bytes.Buffer) []byte {
		zeros(t, n, w)
		return pageBytes(format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(n),
			DataPageHeader: &format.DataPageHeader{NumValues: int32(n / 8), Encoding: format.Plain,
				DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}}, buf.Bytes())
	}
	withCodec := func(data []byte, c format.Codec) []byte {
		f, err := NewFileBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		md := f.meta
		for i := range md.RowGroups {
			md.RowGroups[i].Columns[0].MetaData.Codec = c
		}
		return refooter(data, &md)
	}
	var zbuf, gbuf bytes.Buffer
	zw, _ := zstd.NewWriter(&zbuf)
	zstdPage := compressed(format.Zstd, 32<<20, zw, &zbuf)
	gw := gzip.NewWriter(&gbuf)
	gzipPage := compressed(format.Gzip, 128<<20, gw, &gbuf)
	deltaPage := func() []byte {
		// One value of 4 KiB, then values repeating it whole: 1 GiB.
		const n, size = 1 << 18, 4096
		prefixes := make([]int64, n)
		for i := 1; i < n; i++ {
			prefixes[i] = size
		}
		suffixes := encoding.Binary{Offsets: make([]int32, n+1), Data: bytes.Repeat([]byte{'a'}, size)}
		for i := range suffixes.Offsets[1:] {
			suffixes.Offsets[i+1] = size
		}
		body := encoding.AppendDeltaLengthByteArray(encoding.AppendDeltaBinaryPacked(nil, prefixes), suffixes)
		return dataPageV1(n, format.DeltaByteArray, body)
	}()
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"dictionary indices", chunkFile(t, i64, []int64{big * many}, big*many, append(dictPage(1, int32s(7, 7)), repeat(many, dictIndices(big))...), false)},
		{"small pages of dictionary indices", chunkFile(t, i64, []int64{1 << 28}, 1<<28, append(dictPage(1, int32s(7, 7)), repeat(1<<12, dictIndices(1<<16))...), false)},
		{"nulls", chunkFile(t, opt64, []int64{big * many}, big*many, repeat(many, nulls(big)), false)},
		{"small pages of nulls", chunkFile(t, opt64, []int64{1 << 28}, 1<<28, repeat(1<<12, nulls(1<<16)), false)},
		{"empty lists", chunkFile(t, list, []int64{big * many}, big*many, repeat(many, emptyLists(big)), false)},
		{"zstd zeros", withCodec(chunkFile(t, i64, []int64{32 << 22}, 32<<22, repeat(32, zstdPage), false), format.Zstd)},
		{"gzip zeros", withCodec(chunkFile(t, i64, []int64{1 << 24}, 1<<24, gzipPage, true), format.Gzip)},
		{"shared gzip page", withCodec(chunkFile(t, i64, []int64{1 << 24, 1 << 24, 1 << 24, 1 << 24}, 1<<24, gzipPage, true), format.Gzip)},
		{"delta byte array", chunkFile(t, str, []int64{1 << 18}, 1<<18, deltaPage, false)},
		{"shared page", chunkFile(t, i64, repeatRows(2000, 1<<16), 1<<16, dataPageV1(1<<16, format.Plain, make([]byte, 8<<16)), true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, batch := range []int{DefaultBatchSize, 1 << 20} {
				var err error
				peak, total := memoryOf(func() { err = readErr(tc.data, WithBatchSize(batch)) })
				if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), `column "x`) {
					t.Fatalf("batch %d: got %v, want ErrLimit naming the column", batch, err)
				}
				t.Logf("file of %d bytes, batch %d: peak heap %d MiB, allocated %d MiB: %v", len(tc.data), batch, peak>>20, total>>20, err)
				if peak > 384<<20 {
					t.Errorf("batch %d: peak heap %d MiB", batch, peak>>20)
				}
				// The work is linear in the file's size: a small multiple
				// of what the read may decode.
				if budget := uint64(1000*len(tc.data) + expansionAllowance); total > 6*budget {
					t.Errorf("batch %d: allocated %d MiB for a budget of %d MiB", batch, total>>20, budget>>20)
				}
			}
		})
	}
}

func repeatRows(n int, rows int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = rows
	}
	return out
}
