package ipc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// benchSchema is the mixed batch of the benchmarks: int64, float64, utf8,
// bool, list<int32>, dictionary<utf8>, 5% nulls.
func benchRecord(rows int) *alkaid.Record {
	dict, _ := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "i64", Type: datatype.Int64, Nullable: true},
		{Name: "f64", Type: datatype.Float64, Nullable: true},
		{Name: "str", Type: datatype.String, Nullable: true},
		{Name: "bool", Type: datatype.Bool, Nullable: true},
		{Name: "list", Type: datatype.ListOf(datatype.Int32), Nullable: true},
		{Name: "dict", Type: dict, Nullable: true},
	}, datatype.Metadata{})
	g := randdata.New(7)
	g.NullFraction = 0.05
	return g.Record(s, rows)
}

func recordBytes(rec *alkaid.Record) int64 {
	var n int64
	var walk func(d *array.Data)
	walk = func(d *array.Data) {
		for _, b := range d.Buffers {
			n += int64(b.Len())
		}
		for _, c := range d.Children {
			walk(c)
		}
		if d.Dictionary != nil {
			walk(d.Dictionary)
		}
	}
	for i := range rec.NumCols() {
		walk(rec.Column(i).Data())
	}
	return n
}

var codecs = []Codec{Uncompressed, LZ4Frame, Zstd}

func BenchmarkStreamWrite(b *testing.B) {
	rec := benchRecord(1 << 20)
	size := recordBytes(rec)
	for _, c := range codecs {
		b.Run(c.String(), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for range b.N {
				w, err := NewStreamWriter(io.Discard, rec.Schema(), WithCompression(c, 0))
				if err != nil {
					b.Fatal(err)
				}
				if err := w.Write(rec); err != nil {
					b.Fatal(err)
				}
				w.Close()
			}
		})
	}
}

func BenchmarkStreamRead(b *testing.B) {
	rec := benchRecord(1 << 20)
	size := recordBytes(rec)
	for _, c := range codecs {
		var buf bytes.Buffer
		w, _ := NewStreamWriter(&buf, rec.Schema(), WithCompression(c, 0))
		w.Write(rec)
		w.Close()
		raw := buf.Bytes()
		for _, v := range []struct {
			name string
			val  array.ValidationLevel
		}{{"default", array.ValidateSafe}, {"trusted", array.ValidateStructure}, {"full", array.ValidateFull}} {
			b.Run(c.String()+"/"+v.name, func(b *testing.B) {
				b.SetBytes(size)
				b.ReportAllocs()
				for range b.N {
					r, err := NewStreamReader(bytes.NewReader(raw), WithValidation(v.val))
					if err != nil {
						b.Fatal(err)
					}
					for _, err := range r.Records() {
						if err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// BenchmarkOpenFileLastValue opens a mapped file and reads one value of
// its last batch; the time must not grow with the file's size.
func BenchmarkOpenFileLastValue(b *testing.B) {
	rec := benchRecord(1 << 16)
	dir := b.TempDir()
	for _, mib := range []int{64, 1024} {
		path := filepath.Join(dir, fmt.Sprintf("f%d.ipc", mib))
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		w, _ := NewFileWriter(f, rec.Schema())
		per := recordBytes(rec)
		for written := int64(0); written < int64(mib)<<20; written += per {
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
		}
		w.Close()
		f.Close()
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				fr, err := OpenFile(path)
				if err != nil {
					b.Fatal(err)
				}
				last, err := fr.Record(fr.NumRecords() - 1)
				if err != nil {
					b.Fatal(err)
				}
				_ = last.Column(0).(*array.Int64).Value(last.NumRows() - 1)
				fr.Close()
			}
		})
	}
}
