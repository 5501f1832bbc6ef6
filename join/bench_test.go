package join_test

import (
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/join"
)

func benchTable(b *testing.B, n int, k, v func(i int64) int64) *alkaid.Table {
	kb := array.NewPrimitiveBuilder[int64](datatype.Int64)
	vb := array.NewPrimitiveBuilder[int64](datatype.Int64)
	for i := range int64(n) {
		kb.Append(k(i))
		vb.Append(v(i))
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.Int64}, {Name: "v", Type: datatype.Int64}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{kb.Finish(), vb.Finish()}, n)
	if err != nil {
		b.Fatal(err)
	}
	var recs []*alkaid.Record
	for lo := 0; lo < n; lo += 1 << 16 {
		recs = append(recs, rec.Slice(lo, min(n, lo+1<<16)))
	}
	t, err := alkaid.TableFromRecords(s, recs)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkJoinInt64 joins 2M probe rows with 200K build rows on int64
// keys (about half the probe rows match once), counting and summing one
// build column. The keys are a dense range (the direct table) or spread
// over int64 (the hashed table).
func BenchmarkJoinInt64(b *testing.B) {
	const np, nb = 2_000_000, 200_000
	bk := func(i int64) int64 { return i * 7919 % nb }
	pk := func(i int64) int64 { return i * 2654435761 % 4294967291 % (2 * nb) }
	spread := func(k func(int64) int64) func(int64) int64 {
		return func(i int64) int64 { return k(i) * 2654435761 }
	}
	bv := func(i int64) int64 { return i % 1000 }
	pv := func(i int64) int64 { return i % 100 }
	build, probe := benchTable(b, nb, bk, bv), benchTable(b, np, pk, pv)
	sparseBuild, sparseProbe := benchTable(b, nb, spread(bk), bv), benchTable(b, np, spread(pk), pv)
	for _, c := range []struct {
		name         string
		typ          join.Type
		probe, build *alkaid.Table
	}{
		{"inner", join.Inner, probe, build},
		{"left", join.LeftOuter, probe, build},
		{"inner-sparse", join.Inner, sparseProbe, sparseBuild},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(8 * np)
			for b.Loop() {
				j, err := join.NewReader(c.probe, c.build, c.typ, join.On("k"), join.WithColumns("v_right"), join.WithConcurrency(2))
				if err != nil {
					b.Fatal(err)
				}
				var sum int64
				for rec, err := range j.Records() {
					if err != nil {
						b.Fatal(err)
					}
					s, _ := compute.SumInts(rec.Column(0).(*array.Int64))
					sum += s
				}
			}
		})
	}
}

// BenchmarkJoinString joins 1M probe rows with 100K build rows on
// string keys of 8 to 20 bytes (the bytes table).
func BenchmarkJoinString(b *testing.B) {
	const np, nb = 1_000_000, 100_000
	strs := func(n int, key func(i int) int) *alkaid.Table {
		kb := array.NewBinaryBuilder[int32](datatype.String)
		vb := array.NewPrimitiveBuilder[int64](datatype.Int64)
		for i := range n {
			k := key(i)
			kb.AppendString(fmt.Sprintf("key-%0*d", 4+k%13, k))
			vb.Append(int64(i % 1000))
		}
		s := alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.String}, {Name: "v", Type: datatype.Int64}}, datatype.Metadata{})
		rec, err := alkaid.NewRecord(s, []array.Array{kb.Finish(), vb.Finish()}, n)
		if err != nil {
			b.Fatal(err)
		}
		var recs []*alkaid.Record
		for lo := 0; lo < n; lo += 1 << 16 {
			recs = append(recs, rec.Slice(lo, min(n, lo+1<<16)))
		}
		t, err := alkaid.TableFromRecords(s, recs)
		if err != nil {
			b.Fatal(err)
		}
		return t
	}
	build := strs(nb, func(i int) int { return i * 7919 % nb })
	probe := strs(np, func(i int) int { return i * 2654435761 % 4294967291 % (2 * nb) })
	b.SetBytes(np)
	for b.Loop() {
		j, err := join.NewReader(probe, build, join.Inner, join.On("k"), join.WithColumns("v_right"), join.WithConcurrency(2))
		if err != nil {
			b.Fatal(err)
		}
		for _, err := range j.Records() {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
