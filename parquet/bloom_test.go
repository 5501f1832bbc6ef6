package parquet

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/parquet/internal/bloom"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

func TestBloomFilterSkipsRowGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	d := newPagedData(r, 4000)
	// a and s of even values only, so that odd ones lie within min and max
	// yet are absent.
	for i := range d.a {
		d.a[i] &^= 1
		d.s[i] = fmt.Sprintf("v%04d", r.IntN(2000)*2)
	}
	data := writeFile(t, []*alkaid.Record{d.record(t)}, WithRowGroupRows(1000),
		WithBloomFilter("a"), WithBloomFilter("s"), WithBloomFilter("b"))
	plain := writeFile(t, []*alkaid.Record{d.record(t)}, WithRowGroupRows(1000))
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	for g := range f.NumRowGroups() {
		for c, l := range f.leaves {
			cc := &f.meta.RowGroups[g].Columns[c]
			has := cc.MetaData.BloomFilterOffset != nil
			if want := pathString(l.path) != "id"; has != want {
				t.Errorf("group %d column %s: bloom filter %v, want %v", g, pathString(l.path), has, want)
			}
		}
	}
	skipped := 0
	for k := range 200 {
		var p Predicate
		switch k % 2 {
		case 0:
			p = Predicate{Column: "a", Op: Eq, Value: int64(r.IntN(1000))}
		default:
			p = Predicate{Column: "s", Op: Eq, Value: fmt.Sprintf("v%04d", r.IntN(4000))}
		}
		ids, _ := readFiltered(t, data, d, []Predicate{p})
		all, _ := readFiltered(t, plain, d, []Predicate{p})
		for i := range d.a {
			if d.matches(i, p) && !containsID(ids, int64(i)) {
				t.Fatalf("%v: matching row %d not read", p, i)
			}
		}
		if len(ids) < len(all) {
			skipped++
		}
	}
	if skipped < 50 {
		t.Errorf("the bloom filters skipped row groups for %d of 200 absent-or-present values", skipped)
	}
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// The bloom filters of a file another writer made hold its values.
func TestConformanceBloomFilter(t *testing.T) {
	path := testingFile(t, "data_index_bloom_encoding_stats.parquet")
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := readAll(f)
	if err != nil {
		t.Fatal(err)
	}
	flt, err := f.readBloom(&f.meta.RowGroups[0].Columns[0], "column 0")
	if err != nil || flt == nil {
		t.Fatalf("bloom filter %v, %v", flt, err)
	}
	checked := 0
	for _, rec := range recs {
		a := rec.Column(0).(*array.Binary[int32])
		for i := range rec.NumRows() {
			if a.IsNull(i) {
				continue
			}
			checked++
			if !flt.Check(bloom.Hash(a.Value(i))) {
				t.Errorf("value %q not in the file's bloom filter", a.Value(i))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no values checked")
	}
	found := 0
	for i := range 1000 {
		if flt.Check(bloom.Hash(fmt.Appendf(nil, "absent value %d", i))) {
			found++
		}
	}
	if found > 100 {
		t.Errorf("%d of 1000 absent values found", found)
	}
}

func TestHostileBloomFilter(t *testing.T) {
	data := writeFile(t, []*alkaid.Record{newPagedData(rand.New(rand.NewPCG(1, 1)), 100).record(t)}, WithBloomFilter("a"))
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	one := format.BloomUnion{First: &format.Empty{}}
	cases := []struct {
		name string
		hdr  format.BloomFilterHeader
		want string
	}{
		{"negative size", format.BloomFilterHeader{NumBytes: -32, Algorithm: one, Hash: one, Compression: one}, "bloom filter of -32 bytes"},
		{"not whole blocks", format.BloomFilterHeader{NumBytes: 33, Algorithm: one, Hash: one, Compression: one}, "bloom filter of 33 bytes"},
		{"beyond the file", format.BloomFilterHeader{NumBytes: 1 << 20, Algorithm: one, Hash: one, Compression: one}, "bloom filter of 1048576 bytes"},
	}
	cc := &f.meta.RowGroups[0].Columns[1]
	at := *cc.MetaData.BloomFilterOffset
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte{}, data...)
			hb := thrift.Marshal(nil, &c.hdr)
			copy(b[at:], hb)
			g, err := NewFileBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			_, err = readAll(g, WithPredicates(Predicate{Column: "a", Op: Eq, Value: int64(3)}))
			if err == nil || !containsString(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

func containsString(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && (s[:len(sub)] == sub || containsString(s[1:], sub)))
}
