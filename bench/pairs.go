package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	abitutil "github.com/apache/arrow-go/v18/arrow/bitutil"
	acompute "github.com/apache/arrow-go/v18/arrow/compute"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	amath "github.com/apache/arrow-go/v18/arrow/math"
	amemory "github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// Pair is one row of the comparison: the same work in both libraries.
type Pair struct {
	Name   string // benchmark name without the library: "BuilderInt64AppendValues", "IPCStreamWrite/lz4"
	Bytes  func() int64
	Values int // values per operation: the benchmark reports ns/value when > 0
	Setup  func()
	// Alkaid and ArrowGo do one operation and return its result, which the
	// correctness test compares (see Canon).
	Alkaid, ArrowGo func() (any, error)
}

var mem = amemory.DefaultAllocator

// Pairs returns every pair over in. Nothing is made until a pair's Setup
// runs.
func (in *Inputs) Pairs() []Pair {
	var ps []Pair
	ps = append(ps, in.builderPairs()...)
	ps = append(ps, in.ipcPairs()...)
	ps = append(ps, in.filePairs()...)
	ps = append(ps, in.kernelPairs()...)
	ps = append(ps, in.textPairs()...)
	ps = append(ps, in.dataEngPairs()...)
	ps = append(ps, in.parquetPairs()...)
	ps = append(ps, in.pqv2Pairs()...)
	ps = append(ps, in.deltaPairs()...)
	ps = append(ps, in.flightPairs()...)
	ps = append(ps, in.flightSQLPairs()...)
	ps = append(ps, in.exprPairs()...)
	ps = append(ps, in.mathPairs()...)
	return ps
}

// Pair returns the pair named name; it panics when there is none.
func (in *Inputs) Pair(name string) Pair {
	for _, p := range in.Pairs() {
		if p.Name == name {
			return p
		}
	}
	panic("bench: no pair " + name)
}

func ok(v any) (any, error) { return v, nil }

// ---- builders ----

func (in *Inputs) builderPairs() []Pair {
	n := in.S.BuildN
	p := func(name string, ours, theirs func() (any, error)) Pair {
		return Pair{Name: name, Values: n, Setup: in.build, Alkaid: ours, ArrowGo: theirs}
	}
	return []Pair{
		p("BuilderInt64AppendValues", func() (any, error) {
			b := array.NewPrimitiveBuilder[int64](datatype.Int64)
			b.AppendValues(in.ints, nil)
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewInt64Builder(mem)
			defer b.Release()
			b.AppendValues(in.ints, nil)
			return ok(b.NewInt64Array())
		}),
		p("BuilderInt64AppendValuesNulls10", func() (any, error) {
			b := array.NewPrimitiveBuilder[int64](datatype.Int64)
			b.AppendValues(in.ints, in.valid10)
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewInt64Builder(mem)
			defer b.Release()
			b.AppendValues(in.ints, in.valid10)
			return ok(b.NewInt64Array())
		}),
		p("BuilderInt64Append", func() (any, error) {
			b := array.NewPrimitiveBuilder[int64](datatype.Int64)
			for _, v := range in.ints {
				b.Append(v)
			}
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewInt64Builder(mem)
			defer b.Release()
			for _, v := range in.ints {
				b.Append(v)
			}
			return ok(b.NewInt64Array())
		}),
		p("BuilderInt64AppendReserved", func() (any, error) {
			b := array.NewPrimitiveBuilder[int64](datatype.Int64)
			b.Reserve(len(in.ints))
			for _, v := range in.ints {
				b.Append(v)
			}
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewInt64Builder(mem)
			defer b.Release()
			b.Reserve(len(in.ints))
			for _, v := range in.ints {
				b.Append(v)
			}
			return ok(b.NewInt64Array())
		}),
		p("BuilderInt64AppendNulls10", func() (any, error) {
			b := array.NewPrimitiveBuilder[int64](datatype.Int64)
			for i, v := range in.ints {
				if in.valid10[i] {
					b.Append(v)
				} else {
					b.AppendNull()
				}
			}
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewInt64Builder(mem)
			defer b.Release()
			for i, v := range in.ints {
				if in.valid10[i] {
					b.Append(v)
				} else {
					b.AppendNull()
				}
			}
			return ok(b.NewInt64Array())
		}),
		p("BuilderUtf8AppendValues", func() (any, error) {
			b := array.NewBinaryBuilder[int32](datatype.String)
			b.AppendStrings(in.strs, nil)
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewStringBuilder(mem)
			defer b.Release()
			b.AppendValues(in.strs, nil)
			return ok(b.NewStringArray())
		}),
		p("BuilderUtf8Append", func() (any, error) {
			b := array.NewBinaryBuilder[int32](datatype.String)
			for _, s := range in.strs {
				b.AppendString(s)
			}
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewStringBuilder(mem)
			defer b.Release()
			for _, s := range in.strs {
				b.Append(s)
			}
			return ok(b.NewStringArray())
		}),
		p("BuilderListInt32", func() (any, error) {
			b := array.NewListBuilder[int32](datatype.ListOf(datatype.Int32))
			vb := b.ValueBuilder().(*array.Int32Builder)
			off := 0
			for _, l := range in.listLens {
				b.Append(true)
				vb.AppendValues(in.listVals[off:off+l], nil)
				off += l
			}
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewListBuilder(mem, aarrow.PrimitiveTypes.Int32)
			defer b.Release()
			vb := b.ValueBuilder().(*aarray.Int32Builder)
			off := 0
			for _, l := range in.listLens {
				b.Append(true)
				vb.AppendValues(in.listVals[off:off+l], nil)
				off += l
			}
			return ok(b.NewListArray())
		}),
		p("BuilderDictUtf8", func() (any, error) {
			t, _ := datatype.NewDictionary(datatype.Int32, datatype.String, false)
			b := array.NewBuilder(t).(*array.StringDictionaryBuilder)
			for _, s := range in.dictStrs {
				if err := b.Append(s); err != nil {
					return nil, err
				}
			}
			return ok(b.Finish())
		}, func() (any, error) {
			b := aarray.NewDictionaryBuilder(mem, &aarrow.DictionaryType{
				IndexType: aarrow.PrimitiveTypes.Int32, ValueType: aarrow.BinaryTypes.String}).(*aarray.BinaryDictionaryBuilder)
			defer b.Release()
			for _, s := range in.dictStrs {
				if err := b.AppendString(s); err != nil {
					return nil, err
				}
			}
			return ok(b.NewDictionaryArray())
		}),
	}
}

// ---- IPC ----

// countWriter counts the bytes written to it and keeps none.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// WriteAlkaid writes the mixed batch as a stream with our writer.
func (in *Inputs) WriteAlkaid(w io.Writer, codec ipc.Codec, workers int) error {
	opts := []ipc.Option{ipc.WithCompression(codec, 0)}
	if workers > 0 {
		opts = append(opts, ipc.WithConcurrency(workers))
	}
	sw, err := ipc.NewStreamWriter(w, in.batch.Schema(), opts...)
	if err != nil {
		return err
	}
	if err := sw.Write(in.batch); err != nil {
		return err
	}
	return sw.Close()
}

// WriteArrowGo writes the mixed batch as a stream with arrow-go's writer.
func (in *Inputs) WriteArrowGo(w io.Writer, codec ipc.Codec, workers int) error {
	opts := []aipc.Option{aipc.WithSchema(in.abatch.Schema()), aipc.WithAllocator(mem)}
	switch codec {
	case ipc.LZ4Frame:
		opts = append(opts, aipc.WithLZ4())
	case ipc.Zstd:
		opts = append(opts, aipc.WithZstd())
	}
	if workers > 0 {
		opts = append(opts, aipc.WithCompressConcurrency(workers))
	}
	sw := aipc.NewWriter(w, opts...)
	if err := sw.Write(in.abatch); err != nil {
		return err
	}
	return sw.Close()
}

// readSummary is what a stream read returns: rows, and the last int64
// value (so that the read is not optimised away and both sides agree).
type readSummary struct {
	Rows int
	Last string
}

// ReadAlkaid reads a stream held in memory with our reader, without
// copying it.
func ReadAlkaid(raw []byte, opts ...ipc.Option) (readSummary, error) {
	r, err := ipc.NewStreamReaderBytes(raw, opts...)
	if err != nil {
		return readSummary{}, err
	}
	return summarize(r)
}

// ReadAlkaidReader reads a stream through an io.Reader with our reader.
func ReadAlkaidReader(raw []byte, opts ...ipc.Option) (readSummary, error) {
	r, err := ipc.NewStreamReader(bytes.NewReader(raw), opts...)
	if err != nil {
		return readSummary{}, err
	}
	return summarize(r)
}

func summarize(r *ipc.StreamReader) (readSummary, error) {
	var s readSummary
	for rec, err := range r.Records() {
		if err != nil {
			return s, err
		}
		s.Rows += rec.NumRows()
		c := rec.Column(0).(*array.Int64)
		s.Last = fmt.Sprint(c.Value(rec.NumRows() - 1))
	}
	return s, nil
}

// ReadArrowGo reads a stream with arrow-go's reader.
func ReadArrowGo(raw []byte) (readSummary, error) {
	r, err := aipc.NewReader(bytes.NewReader(raw), aipc.WithAllocator(mem))
	if err != nil {
		return readSummary{}, err
	}
	defer r.Release()
	var s readSummary
	for r.Next() {
		rec := r.RecordBatch()
		s.Rows += int(rec.NumRows())
		c := rec.Column(0).(*aarray.Int64)
		s.Last = fmt.Sprint(c.Value(int(rec.NumRows()) - 1))
	}
	return s, r.Err()
}

// smallBatches batches of smallRows rows make the small-batch stream.
const smallBatches, smallRows = 2000, 10

func (in *Inputs) ipcPairs() []Pair {
	size := func() int64 { return in.batchSize }
	var ps []Pair
	type codecCase struct {
		name  string
		codec ipc.Codec
	}
	// Writes: "none" and the serial rows give both writers one goroutine
	// (arrow-go's default); "-parallel" gives both two (our default is
	// GOMAXPROCS, arrow-go's WithCompressConcurrency(2)). Uncompressed,
	// ours uses them to copy a large body into the sink's spare room
	// (AvailableBuffer); arrow-go's option only concerns compression.
	for _, c := range []struct {
		name    string
		codec   ipc.Codec
		workers int
	}{
		{"none", ipc.Uncompressed, 1},
		{"none-parallel", ipc.Uncompressed, 2},
		{"lz4", ipc.LZ4Frame, 1},
		{"lz4-parallel", ipc.LZ4Frame, 2},
		{"zstd", ipc.Zstd, 1},
		{"zstd-parallel", ipc.Zstd, 2},
	} {
		// Both write into the same reused, pre-grown bytes.Buffer.
		var sink bytes.Buffer
		ps = append(ps, Pair{
			Name: "IPCStreamWrite/" + c.name, Bytes: size,
			Setup: func() { in.mixedBatch(); sink.Grow(2 * int(in.batchSize)) },
			Alkaid: func() (any, error) {
				sink.Reset()
				err := in.WriteAlkaid(&sink, c.codec, c.workers)
				return sink.Len(), err
			},
			ArrowGo: func() (any, error) {
				sink.Reset()
				err := in.WriteArrowGo(&sink, c.codec, c.workers)
				return sink.Len(), err
			},
		})
	}
	// Into a new bytes.Buffer each time, the common way to get a stream
	// as bytes: the sink's growth is part of the cost.
	ps = append(ps, Pair{
		Name: "IPCStreamWrite/none-fresh", Bytes: size, Setup: in.mixedBatch,
		Alkaid: func() (any, error) {
			var sink bytes.Buffer
			err := in.WriteAlkaid(&sink, ipc.Uncompressed, 1)
			return sink.Len(), err
		},
		ArrowGo: func() (any, error) {
			var sink bytes.Buffer
			err := in.WriteArrowGo(&sink, ipc.Uncompressed, 1)
			return sink.Len(), err
		},
	})
	// The same into a writer that keeps nothing: what the writers cost
	// beyond copying the bytes.
	ps = append(ps, Pair{
		Name: "IPCStreamWrite/none-nocopy", Bytes: size, Setup: in.mixedBatch,
		Alkaid: func() (any, error) {
			var w countWriter
			err := in.WriteAlkaid(&w, ipc.Uncompressed, 1)
			return w.n, err
		},
		ArrowGo: func() (any, error) {
			var w countWriter
			err := in.WriteArrowGo(&w, ipc.Uncompressed, 1)
			return w.n, err
		},
	})
	// Reads: each side reads, from memory, a stream its own writer wrote:
	// ours with NewStreamReaderBytes (no copy of the input), arrow-go with
	// NewReader over a bytes.Reader (its only way; it copies each body).
	// The "-ioreader" row gives ours the bytes.Reader too. arrow-go
	// decompresses serially and does not validate; "-parallel" rows let
	// ours decompress on GOMAXPROCS goroutines (its default), or, from an
	// io.Reader that also reads at an offset, read a large body in ranges
	// with them (ReadAt); arrow-go has no such option.
	for _, c := range []struct {
		name     string
		codec    ipc.Codec
		val      array.ValidationLevel
		workers  int
		ioReader bool
	}{
		{"none-trusted", ipc.Uncompressed, array.ValidateStructure, 1, false},
		{"none-default", ipc.Uncompressed, array.ValidateSafe, 1, false},
		{"none-trusted-ioreader", ipc.Uncompressed, array.ValidateStructure, 1, true},
		{"none-trusted-ioreader-parallel", ipc.Uncompressed, array.ValidateStructure, 0, true},
		{"lz4", ipc.LZ4Frame, array.ValidateSafe, 1, false},
		{"lz4-parallel", ipc.LZ4Frame, array.ValidateSafe, 0, false},
		{"zstd", ipc.Zstd, array.ValidateSafe, 1, false},
		{"zstd-parallel", ipc.Zstd, array.ValidateSafe, 0, false},
	} {
		var ours, theirs []byte
		ps = append(ps, Pair{
			Name: "IPCStreamRead/" + c.name, Bytes: size,
			Setup: func() {
				in.mixedBatch()
				if ours == nil {
					var b1, b2 bytes.Buffer
					must(in.WriteAlkaid(&b1, c.codec, 0))
					must(in.WriteArrowGo(&b2, c.codec, 0))
					ours, theirs = b1.Bytes(), b2.Bytes()
				}
			},
			Alkaid: func() (any, error) {
				opts := []ipc.Option{ipc.WithValidation(c.val)}
				if c.workers > 0 {
					opts = append(opts, ipc.WithConcurrency(c.workers))
				}
				if c.ioReader {
					return ReadAlkaidReader(ours, opts...)
				}
				return ReadAlkaid(ours, opts...)
			},
			ArrowGo: func() (any, error) { return ReadArrowGo(theirs) },
		})
	}
	// Many small batches: 2000 of 10 rows each, cut from the mixed batch;
	// what is measured is the cost per message rather than per byte.
	var smallOurs, smallTheirs []byte
	ps = append(ps, Pair{
		Name: "IPCSmallBatchesRead",
		Setup: func() {
			in.mixedBatch()
			if smallOurs != nil {
				return
			}
			var b1, b2 bytes.Buffer
			sw, err := ipc.NewStreamWriter(&b1, in.batch.Schema())
			must(err)
			aw := aipc.NewWriter(&b2, aipc.WithSchema(in.abatch.Schema()), aipc.WithAllocator(mem))
			for i := range min(smallBatches, in.batch.NumRows()/smallRows) { // tests use a shorter batch
				must(sw.Write(in.batch.Slice(i*smallRows, (i+1)*smallRows)))
				must(aw.Write(in.abatch.NewSlice(int64(i*smallRows), int64((i+1)*smallRows))))
			}
			must(sw.Close())
			must(aw.Close())
			smallOurs, smallTheirs = b1.Bytes(), b2.Bytes()
		},
		Alkaid:  func() (any, error) { return ReadAlkaid(smallOurs) },
		ArrowGo: func() (any, error) { return ReadArrowGo(smallTheirs) },
	})
	ps = append(ps, Pair{
		Name: "ValidateFull", Bytes: size, Setup: in.mixedBatch,
		Alkaid: func() (any, error) {
			for i := range in.batch.NumCols() {
				if err := array.Validate(in.batch.Column(i).Data(), array.ValidateFull); err != nil {
					return nil, err
				}
			}
			return ok(in.batch.NumCols())
		},
		ArrowGo: func() (any, error) {
			for _, c := range in.abatch.Columns() {
				if err := aarray.ValidateFull(c); err != nil {
					return nil, err
				}
			}
			return ok(int(in.abatch.NumCols()))
		},
	})
	return ps
}

// ---- memory-mapped file ----

var fileDir string

// SetFileDir sets where the mapped-file benchmarks write their files
// (a temporary directory the caller removes).
func SetFileDir(dir string) { fileDir = dir }

// fileRows is the batch length of the mapped files.
const fileRows = 1 << 16

// FileSchema is the mixed schema without its dictionary column:
// arrow-go v18.8.0's NewMappedFileReader panics on any schema with a
// dictionary field (it leaves its dictionary memo nil: "assignment to
// entry in nil map" in dictutils.Mapper.AddField).
func FileSchema() *alkaid.Schema {
	s := MixedSchema()
	fields := make([]datatype.Field, 0, s.NumFields())
	for i := range s.NumFields() {
		if f := s.Field(i); f.Type.Kind() != datatype.KindDictionary {
			fields = append(fields, f)
		}
	}
	return alkaid.NewSchema(fields, datatype.Metadata{})
}

// MakeFile writes a file of at least mib MiB of 64Ki-row batches of
// FileSchema (Arrow magic, so that both readers open it) and returns its
// path.
func MakeFile(dir string, mib int) (string, error) {
	g := randdata.New(11)
	g.NullFraction = 0.05
	rec := g.Record(FileSchema(), fileRows)
	path := filepath.Join(dir, fmt.Sprintf("mixed-%dMiB.arrow", mib))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, rec.Schema(), ipc.WithArrowCompat())
	if err != nil {
		return "", err
	}
	per := recordBytes(rec)
	for written := int64(0); written < int64(mib)<<20; written += per {
		if err := w.Write(rec); err != nil {
			return "", err
		}
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return path, f.Close()
}

// OpenLastAlkaid maps the file, reads its last batch and one value of it.
func OpenLastAlkaid(path string, opts ...ipc.Option) (int64, error) {
	fr, err := ipc.OpenFile(path, opts...)
	if err != nil {
		return 0, err
	}
	defer fr.Close()
	rec, err := fr.Record(fr.NumRecords() - 1)
	if err != nil {
		return 0, err
	}
	return lastInt(rec), nil
}

func lastInt(rec *alkaid.Record) int64 {
	return rec.Column(0).(*array.Int64).Value(rec.NumRows() - 1)
}

// OpenLastArrowGo does the same with arrow-go's mapped-file reader over
// a read-only shared mapping (arrow-go leaves mapping to the caller).
func OpenLastArrowGo(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return 0, err
	}
	defer syscall.Munmap(data)
	r, err := aipc.NewMappedFileReader(data, aipc.WithAllocator(mem))
	if err != nil {
		return 0, err
	}
	defer r.Close()
	rec, err := r.RecordBatch(r.NumRecords() - 1)
	if err != nil {
		return 0, err
	}
	return rec.Column(0).(*aarray.Int64).Value(int(rec.NumRows()) - 1), nil
}

func (in *Inputs) filePairs() []Pair {
	// Each file size has a row with our default validation (O(batch):
	// it reads the batch's offsets) and one trusted, which like arrow-go
	// checks only structure.
	var ps []Pair
	for _, mib := range in.S.FileMiB {
		var path string
		setup := func() {
			if path == "" {
				dir := fileDir
				if dir == "" {
					dir = os.TempDir()
				}
				p, err := MakeFile(dir, mib)
				must(err)
				path = p
			}
		}
		for _, trusted := range []bool{false, true} {
			name := fmt.Sprintf("IPCFileMappedLastValue/%dMiB", mib)
			var opts []ipc.Option
			if trusted {
				name += "-trusted"
				opts = append(opts, ipc.WithValidation(array.ValidateStructure))
			}
			ps = append(ps, Pair{
				Name: name, Setup: setup,
				Alkaid:  func() (any, error) { return OpenLastAlkaid(path, opts...) },
				ArrowGo: func() (any, error) { return OpenLastArrowGo(path) },
			})
		}
	}
	return ps
}

// ---- kernels and compute ----

func (in *Inputs) kernelPairs() []Pair {
	nbits := in.S.BitmapBits
	bitBytes := func() int64 { return int64(nbits / 8) }
	var ps []Pair
	for _, off := range []int{0, 3} {
		name := "BitmapAnd/aligned"
		if off != 0 {
			name = fmt.Sprintf("BitmapAnd/offset%d", off)
		}
		ps = append(ps, Pair{
			Name: name, Bytes: bitBytes, Setup: in.bitmaps,
			Alkaid: func() (any, error) {
				bitutil.And(in.bitsOut, 0, in.bitsA, off, in.bitsB, 0, nbits)
				return ok(bitutil.CountSetBits(in.bitsOut, 0, 64))
			},
			ArrowGo: func() (any, error) {
				abitutil.BitmapAnd(in.bitsA, in.bitsB, int64(off), 0, in.bitsOut, 0, int64(nbits))
				return ok(bitutil.CountSetBits(in.bitsOut, 0, 64))
			},
		})
	}
	ps = append(ps, Pair{
		Name: "Popcount", Bytes: bitBytes, Setup: in.bitmaps,
		Alkaid:  func() (any, error) { return ok(bitutil.CountSetBits(in.bitsA, 0, nbits)) },
		ArrowGo: func() (any, error) { return ok(abitutil.CountSetBits(in.bitsA, 0, nbits)) },
	})
	// Sums: ours skip null slots (by the bitmap); arrow-go's math.Sum adds
	// every slot, null ones too, which is right here only because the
	// inputs hold zero in null slots.
	for _, name := range []string{"int64", "int64-nulls10", "float64", "float64-nulls10", "int64-L2", "float64-L2"} {
		n := in.S.SumN
		if name == "int64-L2" || name == "float64-L2" {
			n = in.S.SumCacheN
		}
		float := name[0] == 'f'
		ps = append(ps, Pair{
			Name: "Sum/" + name, Bytes: func() int64 { return int64(8 * n) }, Setup: in.sumInputs,
			Alkaid: func() (any, error) {
				p := in.sums[name]
				if float {
					s, _ := compute.SumFloats(p.ours.(*array.Float64))
					return ok(s)
				}
				s, _ := compute.SumInts(p.ours.(*array.Int64))
				return ok(float64(s))
			},
			ArrowGo: func() (any, error) {
				p := in.sums[name]
				if float {
					return ok(amath.Float64.Sum(p.theirs.(*aarray.Float64)))
				}
				return ok(float64(amath.Int64.Sum(p.theirs.(*aarray.Int64))))
			},
		})
	}
	kn := in.S.KernelN
	k := &in.kern
	ctx := context.Background()
	kbytes := func() int64 { return int64(8 * kn) }
	datum := func(d acompute.Datum, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return ok(d.(*acompute.ArrayDatum).MakeArray())
	}
	ps = append(ps,
		Pair{Name: "Add/int64", Bytes: kbytes, Setup: in.kernels,
			Alkaid: func() (any, error) { return compute.Add(k.a.ours, k.b.ours) },
			ArrowGo: func() (any, error) {
				return datum(acompute.Add(ctx, acompute.ArithmeticOptions{NoCheckOverflow: true},
					acompute.NewDatum(k.a.theirs), acompute.NewDatum(k.b.theirs)))
			}},
		Pair{Name: "Less/int64", Bytes: kbytes, Setup: in.kernels,
			Alkaid: func() (any, error) { return compute.Compare(compute.Lt, k.a.ours, k.b.ours) },
			ArrowGo: func() (any, error) {
				return datum(acompute.CallFunction(ctx, "less", nil, acompute.NewDatum(k.a.theirs), acompute.NewDatum(k.b.theirs)))
			}},
		Pair{Name: "Filter/int64", Bytes: kbytes, Setup: in.kernels,
			Alkaid: func() (any, error) { return compute.Filter(k.a.ours, k.mask.ours.(*array.Boolean)) },
			ArrowGo: func() (any, error) {
				return acompute.FilterArray(ctx, k.a.theirs, k.mask.theirs, *acompute.DefaultFilterOptions())
			}},
		Pair{Name: "Filter/utf8", Setup: in.kernels,
			Alkaid: func() (any, error) { return compute.Filter(k.strs.ours, k.mask.ours.(*array.Boolean)) },
			ArrowGo: func() (any, error) {
				return acompute.FilterArray(ctx, k.strs.theirs, k.mask.theirs, *acompute.DefaultFilterOptions())
			}},
		Pair{Name: "Take/int64", Bytes: kbytes, Setup: in.kernels,
			Alkaid:  func() (any, error) { return compute.Take(k.a.ours, k.indices.ours) },
			ArrowGo: func() (any, error) { return acompute.TakeArray(ctx, k.a.theirs, k.indices.theirs) }},
		Pair{Name: "Take/utf8", Setup: in.kernels,
			Alkaid:  func() (any, error) { return compute.Take(k.strs.ours, k.indices.ours) },
			ArrowGo: func() (any, error) { return acompute.TakeArray(ctx, k.strs.theirs, k.indices.theirs) }},
	)
	return ps
}
