package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// indexedFile is a small file of a few pages per chunk and its metadata.
func indexedFile(t testing.TB) ([]byte, *File) {
	d := newPagedData(rand.New(rand.NewPCG(5, 6)), 200)
	return writeAndOpen(t, d.record(t), WithPageSize(64), WithDictionary(false, 0))
}

// writeAndOpen writes rec as a file and opens it.
func writeAndOpen(t testing.TB, rec *alkaid.Record, opts ...Option) ([]byte, *File) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, rec.Schema(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := NewFileBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), f
}

// withIndex replaces the page index of every chunk of f (whose bytes
// are data) by ci and oi, placed where the page index was.
func withIndex(data []byte, f *File, ci, oi []byte) []byte {
	cc := &f.meta.RowGroups[0].Columns[0]
	start := *cc.ColumnIndexOffset
	out := append([]byte{}, data[:start]...)
	md := f.meta
	md.RowGroups = []format.RowGroup{md.RowGroups[0]}
	cols := append([]format.ColumnChunk{}, md.RowGroups[0].Columns...)
	md.RowGroups[0].Columns = cols
	for i := range cols {
		cols[i].ColumnIndexOffset, cols[i].ColumnIndexLength = ptr(start), ptr(int32(len(ci)))
		cols[i].OffsetIndexOffset, cols[i].OffsetIndexLength = ptr(start+int64(len(ci))), ptr(int32(len(oi)))
	}
	out = append(out, ci...)
	out = append(out, oi...)
	footer := thrift.Marshal(nil, &md)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, magic...)
}

// FuzzPageIndex reads files whose page index is the fuzzer's bytes (a
// column index and an offset index) with predicates: errors are fine,
// panics and wrong row counts are not.
func FuzzPageIndex(f *testing.F) {
	data, file := indexedFile(f)
	cc := &file.meta.RowGroups[0].Columns[1]
	ci := data[*cc.ColumnIndexOffset : *cc.ColumnIndexOffset+int64(*cc.ColumnIndexLength)]
	oi := data[*cc.OffsetIndexOffset : *cc.OffsetIndexOffset+int64(*cc.OffsetIndexLength)]
	f.Add(ci, oi)
	f.Add([]byte{}, []byte{})
	f.Add(ci[:len(ci)/2], oi)
	f.Add(ci, oi[:len(oi)-3])
	f.Fuzz(func(t *testing.T, ci, oi []byte) {
		b := withIndex(data, file, ci, oi)
		pf, err := NewFileBytes(b)
		if err != nil {
			return
		}
		for c := range pf.leaves {
			_, _ = pf.pageIndex(0, c)
		}
		for _, p := range []Predicate{{Column: "a", Op: Lt, Value: int64(10)}, {Column: "b", Op: IsNull}} {
			recs, err := readAll(pf, WithPredicates(p))
			if err != nil {
				continue
			}
			for _, r := range recs {
				if r.NumRows() > 200 {
					t.Fatalf("%d rows from a file of 200", r.NumRows())
				}
			}
		}
	})
}

func TestHostilePageIndex(t *testing.T) {
	data, file := indexedFile(t)
	cc := &file.meta.RowGroups[0].Columns[1]
	ci := data[*cc.ColumnIndexOffset : *cc.ColumnIndexOffset+int64(*cc.ColumnIndexLength)]
	oi := data[*cc.OffsetIndexOffset : *cc.OffsetIndexOffset+int64(*cc.OffsetIndexLength)]
	var other format.OffsetIndex
	if _, err := thrift.Unmarshal(oi, &other); err != nil {
		t.Fatal(err)
	}
	shifted := other
	shifted.PageLocations = append([]format.PageLocation{}, other.PageLocations...)
	shifted.PageLocations[1].Offset++
	late := other
	late.PageLocations = append([]format.PageLocation{}, other.PageLocations...)
	late.PageLocations[0].FirstRowIndex = 1
	far := other
	far.PageLocations = append([]format.PageLocation{}, other.PageLocations...)
	far.PageLocations[1].Offset = 1 << 40
	short := format.ColumnIndex{NullPages: []bool{false}, MinValues: [][]byte{{1}}, MaxValues: [][]byte{{2}}}
	cases := []struct {
		name   string
		ci, oi []byte
		want   string
	}{
		{"truncated offset index", ci, oi[:len(oi)-2], "offset index"},
		{"truncated column index", ci[:len(ci)-2], oi, "column index"},
		{"first row not 0", ci, thrift.Marshal(nil, &late), "first page starts at row 1"},
		{"page outside the file", ci, thrift.Marshal(nil, &far), "outside the file's data"},
		{"column index of another length", thrift.Marshal(nil, &short), oi, "entries for"},
		{"page not where the index says", ci, thrift.Marshal(nil, &shifted), "the offset index says"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pf, err := NewFileBytes(withIndex(data, file, c.ci, c.oi))
			if err != nil {
				t.Fatal(err)
			}
			_, err = readAll(pf, WithPredicates(Predicate{Column: "a", Op: Lt, Value: int64(10)}))
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// The writer's page index of an empty file and of all-null columns.
func TestPageIndexEdgeCases(t *testing.T) {
	d := &pagedData{}
	for range 100 {
		d.a, d.b, d.bNull, d.s = append(d.a, 1), append(d.b, 0), append(d.bNull, true), append(d.s, "x")
	}
	data := writeFile(t, []*alkaid.Record{d.record(t)}, WithPageSize(16))
	ids, _ := readFiltered(t, data, d, []Predicate{{Column: "b", Op: Gt, Value: 0.5}})
	if len(ids) != 0 {
		t.Errorf("all-null column: %d rows read for b > 0.5", len(ids))
	}
	ids, _ = readFiltered(t, data, d, []Predicate{{Column: "b", Op: IsNull}})
	if len(ids) != 100 {
		t.Errorf("all-null column: %d rows read for b is null", len(ids))
	}
	empty := writeFile(t, []*alkaid.Record{(&pagedData{}).record(t)})
	ids, _ = readFiltered(t, empty, &pagedData{}, []Predicate{{Column: "a", Op: Eq, Value: int64(1)}})
	if len(ids) != 0 {
		t.Errorf("empty file: %d rows", len(ids))
	}
}

// nestedIndexedFile is a small file of a predicate column a and a list
// column l (pages of a few rows each) and its metadata.
func nestedIndexedFile(t testing.TB) ([]byte, *File) {
	const n = 120
	lt := datatype.ListOf(datatype.Int64)
	var as, ls []string
	for i := range n {
		as = append(as, fmt.Sprint(i/2))
		var elems []string
		for k := range i % 4 {
			elems = append(elems, fmt.Sprint(i+k))
		}
		ls = append(ls, "["+strings.Join(elems, ",")+"]")
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int64}, {Name: "l", Type: lt, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{
		arrayjson.MustParse(datatype.Int64, "["+strings.Join(as, ",")+"]"),
		arrayjson.MustParse(lt, "["+strings.Join(ls, ",")+"]"),
	}, n)
	if err != nil {
		t.Fatal(err)
	}
	return writeAndOpen(t, rec, WithPageSize(48), WithDictionary(false, 0))
}

// FuzzPageIndexNested is FuzzPageIndex for a file with a list column,
// whose pages are skipped by record: errors are fine, panics and more
// rows than the file holds are not.
func FuzzPageIndexNested(f *testing.F) {
	data, file := nestedIndexedFile(f)
	cc := &file.meta.RowGroups[0].Columns[1]
	ci := data[*cc.ColumnIndexOffset : *cc.ColumnIndexOffset+int64(*cc.ColumnIndexLength)]
	oi := data[*cc.OffsetIndexOffset : *cc.OffsetIndexOffset+int64(*cc.OffsetIndexLength)]
	f.Add(ci, oi)
	f.Add(ci, oi[:len(oi)-2])
	f.Fuzz(func(t *testing.T, ci, oi []byte) {
		pf, err := NewFileBytes(withIndex(data, file, ci, oi))
		if err != nil {
			return
		}
		for _, p := range []Predicate{{Column: "a", Op: Between, Value: int64(20), Value2: int64(25)}, {Column: "a", Op: Gt, Value: int64(50)}} {
			recs, err := readAll(pf, WithPredicates(p))
			if err != nil {
				continue
			}
			for _, r := range recs {
				if r.NumRows() > 120 {
					t.Fatalf("%d rows from a file of 120", r.NumRows())
				}
			}
		}
	})
}
