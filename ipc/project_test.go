package ipc

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// projectRecords keeps the columns of recs named in names, as WithColumns
// reads them: in schema order.
func projectRecords(t *testing.T, recs []*alkaid.Record, names ...string) []*alkaid.Record {
	t.Helper()
	var out []*alkaid.Record
	for _, rec := range recs {
		var fields []datatype.Field
		var cols []array.Array
		for i, f := range rec.Schema().Fields() {
			for _, n := range names {
				if f.Name == n {
					fields = append(fields, f)
					cols = append(cols, rec.Column(i))
					break
				}
			}
		}
		s := alkaid.NewSchema(fields, rec.Schema().Metadata())
		p, err := alkaid.NewRecord(s, cols, int(rec.NumRows()))
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

// readRecords drains r.
func readRecords(t *testing.T, r alkaid.RecordReader) []*alkaid.Record {
	t.Helper()
	var got []*alkaid.Record
	for rec, err := range r.Records() {
		require.NoError(t, err)
		got = append(got, rec)
	}
	return got
}

// TestWithColumnsSameAsFullRead: every reader with WithColumns returns
// the selected columns of what it returns without, for every type
// (dictionaries, nested dictionaries, views, unions), compressed or not.
func TestWithColumnsSameAsFullRead(t *testing.T) {
	s, recs := randomBatches(3)
	var every3, dicts []string
	for i, f := range s.Fields() {
		if i%3 == 1 {
			every3 = append(every3, f.Name)
		}
		if _, ok := f.Type.(*datatype.DictionaryType); ok && len(dicts) < 2 {
			dicts = append(dicts, f.Name)
		}
	}
	require.NotEmpty(t, dicts)
	dir := t.TempDir()
	for _, codec := range []Codec{Uncompressed, LZ4Frame, Zstd} {
		stream := writeStream(t, s, recs, WithCompression(codec, 0))
		file := writeFile(t, s, recs, WithCompression(codec, 0))
		path := filepath.Join(dir, codec.String()+".arrow")
		require.NoError(t, os.WriteFile(path, file, 0o644))
		for _, names := range [][]string{every3, dicts, {s.Field(0).Name}, {}} {
			opts := []Option{WithColumns(names...), WithValidation(array.ValidateFull), WithConcurrency(2)}
			want := projectRecords(t, readAll(t, stream, WithValidation(array.ValidateFull)), names...)
			for name, open := range map[string]func() (alkaid.RecordReader, error){
				"NewStreamReader":      func() (alkaid.RecordReader, error) { return NewStreamReader(bytes.NewReader(stream), opts...) },
				"NewStreamReaderBytes": func() (alkaid.RecordReader, error) { return NewStreamReaderBytes(stream, opts...) },
				"NewFileReader": func() (alkaid.RecordReader, error) {
					return NewFileReader(bytes.NewReader(file), int64(len(file)), opts...)
				},
				"OpenFile": func() (alkaid.RecordReader, error) { return OpenFile(path, opts...) },
			} {
				t.Run(fmt.Sprintf("%s/%s/%d columns", codec, name, len(names)), func(t *testing.T) {
					r, err := open()
					require.NoError(t, err)
					require.Equal(t, len(names), r.Schema().NumFields())
					got := readRecords(t, r)
					requireSameRecords(t, want, got, name)
					for _, rec := range got {
						require.True(t, rec.Schema().Equal(r.Schema()))
					}
				})
			}
		}
	}
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestWithColumnsReadsOnlySelectedBytes: the file reader on an
// io.ReaderAt reads the footer, the metadata and the selected column's
// buffers, not the big column beside it.
func TestWithColumnsReadsOnlySelectedBytes(t *testing.T) {
	s := schemaOf(field("id", datatype.Int32), field("blob", datatype.Binary), field("n", datatype.Float64))
	gen := randdata.New(5)
	var recs []*alkaid.Record
	for range 3 {
		recs = append(recs, gen.Record(s, 2000))
	}
	// A big column: 1 MiB of random bytes per batch, which no codec
	// shrinks.
	blob := make([]byte, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	for i, rec := range recs {
		b := array.NewBinaryBuilder[int32](datatype.Binary)
		for j := range 2000 {
			b.Append(blob[j*(len(blob)/2000) : (j+1)*(len(blob)/2000)])
		}
		big := b.Finish()
		var err error
		recs[i], err = alkaid.NewRecord(s, []array.Array{rec.Column(0), big, rec.Column(2)}, 2000)
		require.NoError(t, err)
	}
	for _, codec := range []Codec{Uncompressed, Zstd} {
		t.Run(codec.String(), func(t *testing.T) {
			file := writeFile(t, s, recs, WithCompression(codec, 0))
			full, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
			require.NoError(t, err)
			want := projectRecords(t, readRecords(t, full), "id", "n")
			c := &countingReaderAt{r: bytes.NewReader(file)}
			fr, err := NewFileReader(c, int64(len(file)), WithColumns("n", "id"))
			require.NoError(t, err)
			got := readRecords(t, fr)
			requireSameRecords(t, want, got, "projected")
			read := c.n.Load()
			t.Logf("%s: read %d of %d bytes", codec, read, len(file))
			require.Less(t, read, int64(len(file))/20, "bytes read of a %d-byte file", len(file))
		})
	}
}

// An unknown column is an error naming it, from every reader; WithColumns
// given to a writer is refused.
func TestWithColumnsErrors(t *testing.T) {
	s := schemaOf(field("a", datatype.Int32))
	rec := int64Record(t, 1, 2)
	stream := writeStream(t, rec.Schema(), []*alkaid.Record{rec})
	file := writeFile(t, rec.Schema(), []*alkaid.Record{rec})
	_, err := NewStreamReader(bytes.NewReader(stream), WithColumns("nope"))
	require.ErrorIs(t, err, datatype.ErrInvalid)
	require.ErrorContains(t, err, `ipc: invalid: WithColumns: no column "nope" in the schema`)
	_, err = NewFileReader(bytes.NewReader(file), int64(len(file)), WithColumns(rec.Schema().Field(0).Name, "nope"))
	require.ErrorIs(t, err, datatype.ErrInvalid)
	require.ErrorContains(t, err, `"nope"`)
	_, err = NewStreamWriter(io.Discard, s, WithColumns("a"))
	require.ErrorIs(t, err, datatype.ErrInvalid)
	require.ErrorContains(t, err, "WithColumns is a reader option")
}

// A column not read is not validated: a corrupt string column beside the
// one selected does not fail the read, which does fail without
// WithColumns.
func TestWithColumnsSkipsValidationOfOthers(t *testing.T) {
	s := schemaOf(field("i", datatype.Int32), field("s", datatype.String))
	rec, err := alkaid.NewRecord(s, []array.Array{
		arrayjson.MustParse(datatype.Int32, `[7, 8, 9]`), arrayjson.MustParse(datatype.String, `["ab", "c", "def"]`)}, 3)
	require.NoError(t, err)
	stream := writeStream(t, s, []*alkaid.Record{rec})
	// The string column's offsets, 0 2 3 6 as int32: the last made 127,
	// beyond its values.
	offsets := []byte{0, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0}
	at := bytes.Index(stream, offsets)
	require.Positive(t, at)
	bad := append([]byte(nil), stream...)
	bad[at+12] = 127
	r, err := NewStreamReaderBytes(bad)
	require.NoError(t, err)
	_, err = drain(r)
	require.ErrorIs(t, err, datatype.ErrInvalid)
	r, err = NewStreamReaderBytes(bad, WithColumns("i"))
	require.NoError(t, err)
	requireSameRecords(t, projectRecords(t, []*alkaid.Record{rec}, "i"), readRecords(t, r), "i only")
}

// FuzzWithColumns reads the input as a file and as a stream, whole and
// with every other column: a batch read whole is read projected too, as
// the columns selected of it; errors are classified.
func FuzzWithColumns(f *testing.F) {
	seedInputs(f, true)
	seedInputs(f, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, file := range []bool{true, false} {
			open := func(opts ...Option) (alkaid.RecordReader, error) {
				opts = append(opts, WithLimits(fuzzLimits))
				if file {
					return NewFileReader(bytes.NewReader(in), int64(len(in)), opts...)
				}
				return NewStreamReader(bytes.NewReader(in), opts...)
			}
			full, err := open()
			if err != nil {
				continue
			}
			var names []string
			for i, fl := range full.Schema().Fields() {
				if i%2 == 0 {
					names = append(names, fl.Name)
				}
			}
			proj, err := open(WithColumns(names...))
			if err != nil {
				t.Fatalf("file %v: the projected reader fails where the whole one opens: %v", file, err)
			}
			var got []*alkaid.Record
			var projErr error
			for rec, err := range proj.Records() {
				if err != nil {
					if !classified(err) {
						t.Fatalf("unclassified error: %v", err)
					}
					projErr = err
					break
				}
				got = append(got, rec)
			}
			i := 0
			for rec, err := range full.Records() {
				if err != nil {
					break
				}
				if i >= len(got) {
					t.Fatalf("file %v: batch %d read whole but not projected: %v", file, i, projErr)
				}
				want := projectRecords(t, []*alkaid.Record{rec}, names...)[0]
				if want.String() != got[i].String() {
					t.Fatalf("file %v: batch %d differs projected", file, i)
				}
				i++
			}
		}
	})
}

// A dictionary only columns not read use is not decoded: a corrupt one
// fails the whole read, file and stream, but not one of the other
// column.
func TestWithColumnsSkipsOtherDictionaries(t *testing.T) {
	dt, err := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	require.NoError(t, err)
	s := schemaOf(field("i", datatype.Int32), field("d", dt))
	d, err := array.NewDictionaryArray(dt, arrayjson.MustParse(datatype.Int8, `[0, 1, 2]`),
		arrayjson.MustParse(datatype.String, `["ab", "c", "def"]`))
	require.NoError(t, err)
	rec, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(datatype.Int32, `[7, 8, 9]`), d}, 3)
	require.NoError(t, err)
	want := projectRecords(t, []*alkaid.Record{rec}, "i")
	// The dictionary's offsets, 0 2 3 6 as int32: the last made 127.
	offsets := []byte{0, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0}
	corrupt := func(raw []byte) []byte {
		at := bytes.Index(raw, offsets)
		require.Positive(t, at)
		bad := append([]byte(nil), raw...)
		bad[at+12] = 127
		return bad
	}
	file := corrupt(writeFile(t, s, []*alkaid.Record{rec}))
	_, err = NewFileReader(bytes.NewReader(file), int64(len(file)))
	require.ErrorIs(t, err, datatype.ErrInvalid)
	fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)), WithColumns("i"))
	require.NoError(t, err)
	requireSameRecords(t, want, readRecords(t, fr), "file")

	stream := corrupt(writeStream(t, s, []*alkaid.Record{rec}))
	r, err := NewStreamReaderBytes(stream)
	require.NoError(t, err)
	_, err = drain(r)
	require.ErrorIs(t, err, datatype.ErrInvalid)
	r, err = NewStreamReaderBytes(stream, WithColumns("i"))
	require.NoError(t, err)
	requireSameRecords(t, want, readRecords(t, r), "stream")
}
