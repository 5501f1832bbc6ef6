package ipc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// fuzzLimits keep single allocations small so that the fuzzer explores
// rather than waits; the bound on memory is what is under test.
var fuzzLimits = Limits{MaxMetadataSize: 1 << 20, MaxBodySize: 16 << 20, MaxDecompressed: 16 << 20, MaxRows: 1 << 16}

// seedStreams adds our own streams of several types and codecs, the
// malformed cases and, where ../shared is present, the golden files.
func seedInputs(f *testing.F, files bool) {
	dt, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	ree, _ := datatype.NewRunEndEncoded(datatype.Int16, datatype.String)
	u, _ := datatype.NewUnion(datatype.Dense, []datatype.Field{field("a", datatype.Int32), field("b", datatype.ListOf(datatype.Int8))}, nil)
	s := schemaOf(field("i", datatype.Int64), field("s", datatype.String), field("v", datatype.StringView),
		field("l", datatype.ListOf(datatype.Float32)), field("d", dt), field("r", ree), field("u", u),
		field("st", datatype.StructOf(field("x", datatype.Bool), field("lv", datatype.ListViewOf(datatype.Int16)))))
	rec := randdata.New(9).Record(s, 12)
	recs := []*alkaid.Record{rec, rec.Slice(2, 7)}
	for _, codec := range []Codec{Uncompressed, LZ4Frame, Zstd} {
		var sb, fb bytes.Buffer
		sw, _ := NewStreamWriter(&sb, s, WithCompression(codec, 0))
		fw, _ := NewFileWriter(&fb, s, WithCompression(codec, 0))
		for _, r := range recs {
			sw.Write(r)
			fw.Write(r)
		}
		sw.Close()
		fw.Close()
		if files {
			f.Add(fb.Bytes())
		} else {
			f.Add(sb.Bytes())
		}
	}
	if !files {
		for _, c := range malformedCases() {
			f.Add(c.in)
		}
		// Dictionary deltas, grown in place, over several layouts.
		g := randdata.New(10)
		for _, dict := range []array.Array{
			arrayjson.MustParse(datatype.String, `["a", "bb", "ccc", "dddd"]`),
			arrayjson.MustParse(datatype.Int64, `[1, 2, 3, 4]`),
			arrayjson.MustParse(datatype.String, `["a", null, "c", "d"]`),
			g.Array(datatype.Bool, 4, true),
			g.Array(datatype.StringView, 4, true),
			g.Array(datatype.ListViewOf(datatype.Int16), 4, true),
			g.Array(datatype.StructOf(field("x", datatype.Int8), field("l", datatype.ListOf(datatype.String))), 4, true),
			g.Array(u, 4, true),
			g.Array(ree, 4, true),
		} {
			var sb bytes.Buffer
			dt, _ := datatype.NewDictionary(datatype.Int16, dict.DataType(), false)
			ds := schemaOf(field("d", dt))
			sw, _ := NewStreamWriter(&sb, ds, WithDictionaryDeltas())
			for n := 1; n <= dict.Len(); n++ {
				d, _ := array.NewDictionaryArray(dt, arrayjson.MustParse(datatype.Int16, `[0, null]`), array.Slice(dict, 0, n))
				rec, _ := alkaid.NewRecord(ds, []array.Array{d}, -1)
				sw.Write(rec)
			}
			sw.Close()
			f.Add(sb.Bytes())
		}
	}
	ext := ".stream"
	if files {
		ext = ".arrow_file"
	}
	paths, _ := filepath.Glob(filepath.Join(conformanceDir, "*", "*"+ext))
	for _, p := range paths {
		// Small ones only: the fuzzer minimises every new input it finds,
		// and spent minutes on mutations of the large ones (the
		// conformance test reads them all).
		if raw, err := os.ReadFile(p); err == nil && len(raw) <= maxGoldenSeed {
			f.Add(raw)
		}
	}
}

// maxGoldenSeed bounds the golden files used as seeds.
const maxGoldenSeed = 4 << 10

// touch reads every value of a record (printing visits each slot).
func touch(rec *alkaid.Record) { _ = rec.String() }

// FuzzStreamReader reads the input with the io.Reader-based reader and
// with the zero-copy one over the bytes: both must agree batch by batch
// and error for error.
func FuzzStreamReader(f *testing.F) {
	seedInputs(f, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		// From a bytes.Reader, from memory, from a plain io.Reader (the
		// body grows as it arrives) and from a bytes.Reader with every
		// body read in ranges on three goroutines.
		var outs [4][]string
		var errs [4]error
		for k, open := range []func() (*StreamReader, error){
			func() (*StreamReader, error) { return NewStreamReader(bytes.NewReader(in), WithLimits(fuzzLimits)) },
			func() (*StreamReader, error) { return NewStreamReaderBytes(in, WithLimits(fuzzLimits)) },
			func() (*StreamReader, error) {
				return NewStreamReader(struct{ io.Reader }{bytes.NewReader(in)}, WithLimits(fuzzLimits))
			},
			func() (*StreamReader, error) {
				return NewStreamReader(bytes.NewReader(in), WithLimits(fuzzLimits), WithConcurrency(3), readSplitAt(1))
			},
		} {
			r, err := open()
			if err != nil {
				errs[k] = err
				continue
			}
			for rec, err := range r.Records() {
				if err != nil {
					errs[k] = err
					break
				}
				outs[k] = append(outs[k], rec.String())
			}
		}
		for k, err := range errs {
			if err != nil && !classified(err) {
				t.Fatalf("reader %d: unclassified error: %v", k, err)
			}
		}
		for k := 1; k < len(outs); k++ {
			if (errs[0] == nil) != (errs[k] == nil) || len(outs[0]) != len(outs[k]) {
				t.Fatalf("readers 0 and %d disagree: %d batches, %v vs %d batches, %v", k, len(outs[0]), errs[0], len(outs[k]), errs[k])
			}
			for i := range outs[0] {
				if outs[0][i] != outs[k][i] {
					t.Fatalf("batch %d differs between readers 0 and %d", i, k)
				}
			}
		}
	})
}

func FuzzDecoder(f *testing.F) {
	seedInputs(f, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		dec := mustDecoder(t, WithLimits(fuzzLimits), WithValidation(array.ValidateFull))
		// Feed in uneven pieces.
		for len(in) > 0 {
			n := min(len(in), 1+int(in[0])%97)
			dec.Write(in[:n])
			in = in[n:]
			for {
				ev, err := dec.Next()
				if err != nil {
					if errors.Is(err, ErrNeedMore) {
						break
					}
					if !classified(err) {
						t.Fatalf("unclassified error: %v", err)
					}
					return
				}
				if ev.Kind == EventEnd {
					return
				}
				if ev.Record != nil {
					touch(ev.Record)
				}
			}
		}
	})
}

func FuzzMessage(f *testing.F) {
	seedInputs(f, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		for range 64 {
			m, err := ReadMessage(r, WithLimits(fuzzLimits))
			if err != nil {
				if err != io.EOF && !classified(err) {
					t.Fatalf("unclassified error: %v", err)
				}
				return
			}
			_ = m.Type()
			_ = m.CustomMetadata()
		}
	})
}

// FuzzFileReader reads a file through its footer and, as a differential
// check, as the stream it holds: when both succeed the batches agree.
func FuzzFileReader(f *testing.F) {
	seedInputs(f, true)
	f.Fuzz(func(t *testing.T, in []byte) {
		fr, err := NewFileReader(bytes.NewReader(in), int64(len(in)), WithLimits(fuzzLimits))
		if err != nil {
			if !classified(err) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		var viaFooter []string
		for i := range fr.NumRecords() {
			n, nerr := fr.NumRows(i)
			rec, err := fr.Record(i)
			if err != nil {
				if !classified(err) {
					t.Fatalf("record %d: unclassified error: %v", i, err)
				}
				return
			}
			// a batch that decodes has its metadata's row count
			if nerr != nil || n != int64(rec.NumRows()) {
				t.Fatalf("batch %d: NumRows %d, %v; decoded %d rows", i, n, nerr, rec.NumRows())
			}
			viaFooter = append(viaFooter, rec.String())
		}
		sr, err := NewStreamReader(bytes.NewReader(in), WithLimits(fuzzLimits))
		if err != nil {
			return
		}
		var viaStream []string
		var streamErr error
		for rec, err := range sr.Records() {
			if err != nil {
				streamErr = err
				break
			}
			viaStream = append(viaStream, rec.String())
		}
		// Under array.ValidateFull the file reader compares the stream's schema
		// message with the footer's copy, which it reads otherwise (the
		// seed adacdd965dcb18ab renames a field in one), unless it found
		// the leading message malformed as a file's (a warning; strict
		// checking makes it an error).
		if !sr.Schema().Equal(fr.Schema()) {
			all, err := NewFileReader(bytes.NewReader(in), int64(len(in)), WithLimits(fuzzLimits), WithValidation(array.ValidateFull))
			if err == nil && len(all.Warnings()) == 0 {
				t.Fatalf("ValidateFull accepted a footer schema unlike the stream's:\n%s\n%s", fr.Schema(), sr.Schema())
			}
			if err == nil {
				if _, err := NewFileReader(bytes.NewReader(in), int64(len(in)), WithLimits(fuzzLimits), WithValidation(array.ValidateFull), WithStrictSchemaMessage()); err == nil {
					t.Fatalf("strict checking accepted a malformed leading message: %v", all.Warnings())
				}
			}
			return
		}
		if streamErr != nil || !sameOffsets(streamRecordOffsets(in), mustBlocks(fr)) {
			// Only a footer that indexes exactly the stream's record
			// batches, in order, must agree with it.
			return
		}
		for i := range viaStream {
			if viaStream[i] != viaFooter[i] {
				t.Fatalf("batch %d differs between footer and stream reading", i)
			}
		}
	})
}

// streamRecordOffsets lists the file offsets of the record batch messages
// of the stream a file holds (after its 8-byte magic).
func streamRecordOffsets(in []byte) []int64 {
	r := bytes.NewReader(in[8:])
	var out []int64
	for {
		pos := 8 + r.Size() - int64(r.Len())
		m, err := ReadMessage(r, WithLimits(fuzzLimits))
		if err != nil {
			return out
		}
		if m.Type() == MessageRecordBatch {
			out = append(out, pos)
		}
	}
}

func sameOffsets(offs []int64, blocks []block) bool {
	if len(offs) != len(blocks) {
		return false
	}
	for i, b := range blocks {
		if b.offset != offs[i] {
			return false
		}
	}
	return true
}

func mustBlocks(fr *FileReader) []block {
	b, _ := fr.recordBlocks()
	return b
}
