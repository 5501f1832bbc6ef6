package ipc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func TestRangeOfCoversInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 4<<20 + 3, 9 << 20} {
		for parts := 1; parts <= 5; parts++ {
			next := 0
			for k := range parts {
				lo, hi := rangeOf(k, parts, n)
				require.Equal(t, next, lo, "n=%d parts=%d range %d", n, parts, k)
				require.LessOrEqual(t, lo, hi)
				next = hi
			}
			require.Equal(t, n, next, "n=%d parts=%d", n, parts)
		}
	}
}

func TestParallelGatherMatchesJoin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, total := range []int{0, 1000, splitCopyMin - 1, splitCopyMin, 3*splitCopyMin + 7} {
		var pieces [][]byte
		for left := total; left > 0; {
			n := min(left, r.IntN(total/3+2))
			if r.IntN(5) == 0 {
				n = 0
			}
			p := make([]byte, n)
			for i := range p {
				p[i] = byte(r.Uint32())
			}
			pieces = append(pieces, p)
			left -= n
		}
		want := bytes.Join(pieces, nil)
		for _, workers := range []int{1, 2, 3, 7} {
			dst := bytes.Repeat([]byte{0xA5}, total)
			gather(dst, pieces, copySplit{workers, splitCopyMin})
			require.True(t, bytes.Equal(want, dst), "total %d, %d workers", total, workers)
		}
	}
}

// bigRecord has a body of about 9 MiB, above splitCopyMin.
func bigRecord(t *testing.T, seed int64) *alkaid.Record {
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	sb := array.NewBinaryBuilder[int32](datatype.String)
	for i := range 1 << 20 {
		ib.Append(seed*int64(i) ^ int64(i)<<20)
		if i%7 == 0 {
			sb.AppendNull()
		} else {
			sb.AppendString("v" + string(rune('a'+i%26)))
		}
	}
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "i", Type: datatype.Int64},
		{Name: "s", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{ib.Finish(), sb.Finish()}, -1)
	require.NoError(t, err)
	return rec
}

// TestParallelCopyWritesTheSameBytes writes large bodies with several
// goroutines into sinks that lend their room (a fresh bytes.Buffer, a
// reused one holding stale bytes, a big bufio.Writer) and into ones that
// cannot (a small bufio.Writer): the bytes are those one goroutine writes.
func TestParallelCopyWritesTheSameBytes(t *testing.T) {
	a, b := bigRecord(t, 3), bigRecord(t, 5)
	recs := []*alkaid.Record{a, b.Slice(1000, 600000)}
	for _, file := range []bool{false, true} {
		write := func(w io.Writer, workers int) {
			var err error
			var wr interface {
				Write(*alkaid.Record) error
				Close() error
			}
			if file {
				wr, err = NewFileWriter(w, a.Schema(), WithConcurrency(workers))
			} else {
				wr, err = NewStreamWriter(w, a.Schema(), WithConcurrency(workers))
			}
			require.NoError(t, err)
			for _, r := range recs {
				require.NoError(t, wr.Write(r))
			}
			require.NoError(t, wr.Close())
		}
		var want bytes.Buffer
		write(&want, 1)

		var fresh bytes.Buffer
		write(&fresh, 2)
		require.True(t, bytes.Equal(want.Bytes(), fresh.Bytes()), "file=%v: fresh bytes.Buffer", file)

		var reused bytes.Buffer
		reused.Write(bytes.Repeat([]byte{0xA5}, 3*want.Len()))
		reused.Reset()
		write(&reused, 3)
		require.True(t, bytes.Equal(want.Bytes(), reused.Bytes()), "file=%v: reused bytes.Buffer", file)

		for _, size := range []int{4096, 32 << 20} {
			var out bytes.Buffer
			bw := bufio.NewWriterSize(&out, size)
			write(bw, 2)
			require.NoError(t, bw.Flush())
			require.True(t, bytes.Equal(want.Bytes(), out.Bytes()), "file=%v: bufio.Writer of %d bytes", file, size)
		}
	}
}

// failingAt is a positioned reader whose ReadAt fails when it reads any
// of the MiB from an offset.
type failingAt struct {
	*bytes.Reader
	from int64
}

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off < f.from+1<<20 && off+int64(len(p)) > f.from {
		return 0, errors.New("disk on fire")
	}
	return f.Reader.ReadAt(p, off)
}

// unseekable is a reader that has ReadAt and Seek but cannot seek, as a
// pipe opened as an os.File.
type unseekable struct{ *bytes.Reader }

func (unseekable) Seek(int64, int) (int64, error) { return 0, errors.New("illegal seek") }

// requireEqualRecords compares records column by column with array.Equal
// (requireSameRecords prints them, which is slow for a million rows).
func requireEqualRecords(t *testing.T, want, got []*alkaid.Record, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: number of batches", what)
	for i := range want {
		for c := range want[i].NumCols() {
			require.True(t, array.Equal(want[i].Column(c), got[i].Column(c)), "%s: batch %d column %d", what, i, c)
		}
	}
}

// TestParallelCopyReads reads streams of large bodies with several
// goroutines from readers that can read at an offset, and from ones that
// only seem to; truncated and failing inputs are errors.
func TestParallelCopyReads(t *testing.T) {
	recs := []*alkaid.Record{bigRecord(t, 3), bigRecord(t, 5)}
	raw := writeStream(t, recs[0].Schema(), recs)
	path := filepath.Join(t.TempDir(), "big.ipcs")
	require.NoError(t, os.WriteFile(path, raw, 0o644))

	readFrom := func(r io.Reader, workers int) ([]*alkaid.Record, error) {
		sr, err := NewStreamReader(r, WithConcurrency(workers))
		if err != nil {
			return nil, err
		}
		var got []*alkaid.Record
		for rec, err := range sr.Records() {
			if err != nil {
				return nil, err
			}
			got = append(got, rec)
		}
		return got, nil
	}
	for _, workers := range []int{1, 2, 3} {
		got, err := readFrom(bytes.NewReader(raw), workers)
		require.NoError(t, err)
		requireEqualRecords(t, recs, got, "bytes.Reader")

		f, err := os.Open(path)
		require.NoError(t, err)
		got, err = readFrom(f, workers)
		require.NoError(t, err)
		requireEqualRecords(t, recs, got, "os.File")
		require.NoError(t, f.Close())

		got, err = readFrom(unseekable{bytes.NewReader(raw)}, workers)
		require.NoError(t, err)
		requireEqualRecords(t, recs, got, "unseekable")

		got, err = readFrom(io.NewSectionReader(bytes.NewReader(raw), 0, int64(len(raw))), workers)
		require.NoError(t, err)
		requireEqualRecords(t, recs, got, "io.SectionReader")
	}

	cut := raw[:len(raw)-1<<20]
	_, err := readFrom(bytes.NewReader(cut), 2)
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "message body of")
	require.NoError(t, os.WriteFile(path, cut, 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	_, err = readFrom(f, 2)
	require.ErrorContains(t, err, "truncated message body")

	_, err = readFrom(failingAt{bytes.NewReader(raw), int64(len(raw)) - 2<<20}, 2)
	require.ErrorContains(t, err, "disk on fire")
}

// TestParallelCopyFileReader reads a file of large bodies through
// NewFileReader (ReadAt into fresh memory) serially and in ranges.
func TestParallelCopyFileReader(t *testing.T) {
	recs := []*alkaid.Record{bigRecord(t, 3), bigRecord(t, 5)}
	raw := writeFile(t, recs[0].Schema(), recs)
	for _, workers := range []int{1, 2, 3} {
		fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)), WithConcurrency(workers))
		require.NoError(t, err)
		var got []*alkaid.Record
		for i := range fr.NumRecords() {
			rec, err := fr.Record(i)
			require.NoError(t, err)
			got = append(got, rec)
		}
		requireEqualRecords(t, recs, got, "file reader")
	}
	fr, err := NewFileReader(failingAt{bytes.NewReader(raw), int64(len(raw)) - 4<<20}, int64(len(raw)), WithConcurrency(2))
	require.NoError(t, err)
	_, err = fr.Record(1)
	require.ErrorContains(t, err, "disk on fire")
}

// readSplitAt and writeSplitAt lower the size from which bodies are copied
// in ranges, so that small test inputs take the parallel paths.
func readSplitAt(n int64) Option  { return func(s *settings) { s.r.splitMin = n } }
func writeSplitAt(n int64) Option { return func(s *settings) { s.w.splitMin = n } }

// TestParallelCopySmallBodies copies every body of batches of every type
// in ranges of a few bytes: the bytes written and the records read are
// those of the serial paths, and every malformed stream gets the error
// it gets serially, from every kind of reader.
func TestParallelCopySmallBodies(t *testing.T) {
	s, recs := randomBatches(7)
	for _, file := range []bool{false, true} {
		write := writeStream
		if file {
			write = writeFile
		}
		want := write(t, s, recs, WithConcurrency(1))
		got := write(t, s, recs, WithConcurrency(3), writeSplitAt(64))
		require.True(t, bytes.Equal(want, got), "file=%v", file)
	}
	raw := writeStream(t, s, recs)
	opts := []Option{WithConcurrency(3), readSplitAt(64), WithValidation(array.ValidateFull)}
	r, err := NewStreamReader(bytes.NewReader(raw), opts...)
	require.NoError(t, err)
	var got []*alkaid.Record
	for rec, err := range r.Records() {
		require.NoError(t, err)
		got = append(got, rec)
	}
	requireSameRecords(t, recs, got, "stream read in ranges")

	fraw := writeFile(t, s, recs)
	fr, err := NewFileReader(bytes.NewReader(fraw), int64(len(fraw)), opts...)
	require.NoError(t, err)
	got = got[:0]
	for rec, err := range fr.Records() {
		require.NoError(t, err)
		got = append(got, rec)
	}
	requireSameRecords(t, recs, got, "file read in ranges")

	for _, c := range malformedCases() {
		want := readStreamFully(c.in, c.opts...)
		for _, split := range []Option{readSplitAt(1), readSplitAt(64)} {
			opts := append([]Option{WithConcurrency(3), split}, c.opts...)
			err := readStreamFully(c.in, opts...)
			require.Equal(t, want, err, "%s", c.name)
		}
	}
}
