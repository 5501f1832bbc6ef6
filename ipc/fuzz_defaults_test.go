package ipc

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// smallSeeds adds small streams (or files) for the default-limit
// targets: a few types, compressed and not, dictionary deltas, and the
// hostile shapes of the reliability tests at small sizes (shared
// metadata, a zstd bomb, a delta before any dictionary).
func smallSeeds(f *testing.F, files bool) {
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.Bool, false)
	s := schemaOf(field("i", datatype.Int32), field("s", datatype.String), field("d", dt))
	idx := arrayjson.MustParse(datatype.Int8, `[0, 1, null]`)
	for _, codec := range []Codec{Uncompressed, Zstd, LZ4Frame} {
		var buf bytes.Buffer
		opts := []Option{WithCompression(codec, 0), WithDictionaryDeltas()}
		var w interface {
			Write(*alkaid.Record) error
			Close() error
		}
		if files {
			w, _ = NewFileWriter(&buf, s, opts...)
		} else {
			w, _ = NewStreamWriter(&buf, s, opts...)
		}
		bools := arrayjson.MustParse(datatype.Bool, `[true, false, null]`)
		for n := 2; n <= 3; n++ {
			d, _ := array.NewDictionaryArray(dt, idx, array.Slice(bools, 0, n))
			rec, _ := alkaid.NewRecord(s, []array.Array{
				arrayjson.MustParse(datatype.Int32, `[1, null, 3]`), arrayjson.MustParse(datatype.String, `["a", "", null]`), d}, -1)
			_ = w.Write(rec)
		}
		_ = w.Close()
		f.Add(buf.Bytes())
	}
	if files {
		return
	}
	for _, kind := range []string{"metadata", "names", "timezones"} {
		f.Add(cat(sharedSchemaMsg(kind, 3, 16), eos))
	}
	f.Add(bombStream(1, 2))
	i8, _ := datatype.NewDictionary(datatype.Int8, datatype.Int32, false)
	f.Add(cat(schemaMsg(schemaOf(field("d", i8))), rb(func(b *batch) { b.dictID, b.delta = 0, true }), eos))
}

// readDefault reads every batch with the default limits and validation,
// printing the small ones; it returns the batches read and the error.
func readDefault(r *StreamReader) (int, error) {
	n := 0
	for rec, err := range r.Records() {
		if err != nil {
			return n, err
		}
		n++
		if rec.NumRows() <= 64 {
			touch(rec)
		}
	}
	return n, nil
}

// FuzzStreamDefaultLimits reads streams with the default limits (the
// other targets use small ones, under which inputs that cost gigabytes
// went unnoticed): whatever the bytes, reading ends with batches or a
// classified error, and the allocation bounds of the default limits hold
// (a test that exceeds memory fails the run).
func FuzzStreamDefaultLimits(f *testing.F) {
	smallSeeds(f, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := NewStreamReaderBytes(in)
		if err == nil {
			_, err = readDefault(r)
		}
		if err != nil && !classified(err) {
			t.Fatalf("unclassified error: %v", err)
		}
		d := mustDecoder(t)
		_, _ = d.Write(in)
		for {
			ev, err := d.Next()
			if err != nil || ev.Kind == EventEnd {
				break
			}
		}
	})
}

// FuzzFileDefaultLimits reads files through their footer with the
// default limits.
func FuzzFileDefaultLimits(f *testing.F) {
	smallSeeds(f, true)
	f.Fuzz(func(t *testing.T, in []byte) {
		fr, err := NewFileReader(bytes.NewReader(in), int64(len(in)))
		if err != nil {
			if !classified(err) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		for i := range fr.NumRecords() {
			rec, err := fr.Record(i)
			if err != nil {
				if !classified(err) {
					t.Fatalf("record %d: unclassified error: %v", i, err)
				}
				return
			}
			if rec.NumRows() <= 64 {
				touch(rec)
			}
		}
	})
}

// classified reports whether err is one of the kinds a caller branches on,
// with the package prefix first.
func classified(err error) bool {
	return (errors.Is(err, ErrInvalid) || errors.Is(err, ErrLimit) || errors.Is(err, ErrNotSupported)) &&
		strings.HasPrefix(err.Error(), "ipc: ")
}
