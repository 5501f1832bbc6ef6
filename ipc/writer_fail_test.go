package ipc

import (
	"bytes"
	"errors"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

var errDiskFull = errors.New("disk full")

// failingWriter accepts k bytes, then fails every write.
type failingWriter struct {
	buf bytes.Buffer
	k   int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	room := w.k - w.buf.Len()
	if room >= len(p) {
		return w.buf.Write(p)
	}
	if room > 0 {
		w.buf.Write(p[:room])
		return room, errDiskFull
	}
	return 0, errDiskFull
}

// TestWritersOnFailingWriter makes the underlying writer fail at every
// byte k: the writers return the error (never panic), and what they left
// is a prefix that the stream reader salvages up to the last complete
// batch.
func TestWritersOnFailingWriter(t *testing.T) {
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	s := schemaOf(field("i", datatype.Int32), field("d", dt), field("l", datatype.ListOf(datatype.String)))
	rec := randdata.New(3).Record(s, 10)
	recs := []*alkaid.Record{rec, rec.Slice(2, 6), rec}
	sizes := map[bool]int{true: len(writeFile(t, s, recs)), false: len(writeStream(t, s, recs))}
	for k := 0; k < sizes[true]; k++ {
		for _, file := range []bool{false, true} {
			if k >= sizes[file] {
				continue
			}
			w := &failingWriter{k: k}
			err := writeAll(w, s, recs, file)
			require.ErrorIs(t, err, errDiskFull, "k=%d file=%v", k, file)
			// Salvage: the prefix reads as a stream without a panic, and
			// yields only complete batches.
			r, rerr := NewStreamReader(bytes.NewReader(w.buf.Bytes()))
			if rerr != nil {
				continue
			}
			n := 0
			for got, err := range r.Records() {
				if err != nil {
					break // a torn last message: the batches before it were yielded
				}
				require.Equal(t, recs[n].String(), got.String())
				n++
			}
		}
	}
}

func writeAll(w *failingWriter, s *alkaid.Schema, recs []*alkaid.Record, file bool) error {
	if file {
		fw, err := NewFileWriter(w, s)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if err := fw.Write(r); err != nil {
				return err
			}
		}
		return fw.Close()
	}
	sw, err := NewStreamWriter(w, s)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := sw.Write(r); err != nil {
			return err
		}
	}
	return sw.Close()
}

// TestConcurrentFileReads reads random batches of one file from several
// goroutines (run with -race).
func TestConcurrentFileReads(t *testing.T) {
	s, recs := randomBatches(6)
	raw := writeFile(t, s, recs, WithCompression(LZ4Frame, 0))
	fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	want := make([]string, len(recs))
	for i := range recs {
		want[i] = recs[i].String()
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				i := (g + j) % len(recs)
				rec, err := fr.Record(i)
				if err != nil {
					errs <- err
					return
				}
				if rec.String() != want[i] {
					errs <- errors.New("batch differs")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// TestMalformedPeakMemory checks the documented bound: reading malformed
// (uncompressed) input of n bytes allocates at most a small multiple of n
// plus a constant, whatever sizes it claims.
func TestMalformedPeakMemory(t *testing.T) {
	for _, c := range malformedCases() {
		if c.name == "compressed length lying (larger)" || len(c.in) == 0 {
			continue
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_ = readStreamFully(c.in, c.opts...)
		runtime.ReadMemStats(&after)
		allocated := after.TotalAlloc - before.TotalAlloc
		bound := uint64(64*len(c.in) + 1<<20)
		require.LessOrEqual(t, allocated, bound, "%s: %d bytes of input allocated %d", c.name, len(c.in), allocated)
	}
}
