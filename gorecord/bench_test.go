package gorecord_test

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/gorecord"
)

// benchRow is the 6-field row of the benchmarks.
type benchRow struct {
	ID    int64     `alkaid:"id"`
	Price float64   `alkaid:"price"`
	Name  string    `alkaid:"name"`
	OK    bool      `alkaid:"ok"`
	At    time.Time `alkaid:"at"`
	Vals  []int32   `alkaid:"vals"`
}

const benchRows = 1 << 20

var benchData []benchRow

// rowsForBench makes 1M rows: names of 8 to 32 bytes, lists of 0 to 7
// values, one list in 16 nil.
func rowsForBench() []benchRow {
	if benchData != nil {
		return benchData
	}
	r := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	names := make([]string, 1000)
	for i := range names {
		b := make([]byte, 8+r.IntN(25))
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		names[i] = string(b)
	}
	rows := make([]benchRow, benchRows)
	for i := range rows {
		var vals []int32
		if r.IntN(16) != 0 {
			vals = make([]int32, r.IntN(8))
			for j := range vals {
				vals[j] = r.Int32()
			}
		}
		rows[i] = benchRow{ID: r.Int64(), Price: r.Float64(), Name: names[r.IntN(len(names))], OK: r.IntN(2) == 0,
			At: t0.Add(time.Duration(r.Int64N(int64(365 * 24 * time.Hour)))), Vals: vals}
	}
	benchData = rows
	return rows
}

// byHand builds the same record with one builder per column and a loop,
// as a careful user would write it.
func byHand(rows []benchRow, schema *alkaid.Schema) (*alkaid.Record, error) {
	ids := array.NewPrimitiveBuilder[int64](datatype.Int64)
	prices := array.NewPrimitiveBuilder[float64](datatype.Float64)
	names := array.NewBinaryBuilder[int32](datatype.String)
	oks := array.NewBooleanBuilder(datatype.Bool)
	ats := array.NewPrimitiveBuilder[datatype.Timestamp](schema.Field(4).Type)
	lists := array.NewListBuilder[int32](schema.Field(5).Type.(*datatype.ListType))
	vals := lists.ValueBuilder().(*array.Int32Builder)
	n := len(rows)
	ids.Reserve(n)
	prices.Reserve(n)
	names.Reserve(n)
	oks.Reserve(n)
	ats.Reserve(n)
	lists.Reserve(n)
	for i := range rows {
		r := &rows[i]
		ids.Append(r.ID)
		prices.Append(r.Price)
		names.AppendString(r.Name)
		oks.Append(r.OK)
		ats.Append(datatype.Timestamp(r.At.UnixMicro()))
		if r.Vals == nil {
			lists.AppendNull()
		} else {
			lists.Append(true)
			vals.AppendValues(r.Vals, nil)
		}
	}
	cols := []array.Array{ids.NewArray(), prices.NewArray(), names.NewArray(), oks.NewArray(), ats.NewArray(), lists.NewArray()}
	return alkaid.NewRecord(schema, cols, n)
}

func TestByHandMatchesFromSlice(t *testing.T) {
	rows := rowsForBench()[:5000]
	schema, err := gorecord.SchemaOf[benchRow]()
	if err != nil {
		t.Fatal(err)
	}
	want, err := byHand(rows, schema)
	if err != nil {
		t.Fatal(err)
	}
	checkSameRecord(t, want, mustFromSlice(t, rows))
}

// BenchmarkRecord builds a record of 1M six-field rows and reports
// ns/row: FromSlice against the hand-written builder loop, and ToSlice.
//
//	go test -run '^$' -bench BenchmarkRecord -benchtime 5x -count 3 ./gorecord
func BenchmarkRecord(b *testing.B) {
	rows := rowsForBench()
	schema, err := gorecord.SchemaOf[benchRow]()
	if err != nil {
		b.Fatal(err)
	}
	perRow := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
	}
	b.Run("FromSlice", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := gorecord.FromSlice(rows); err != nil {
				b.Fatal(err)
			}
		}
		perRow(b)
	})
	b.Run("ByHand", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := byHand(rows, schema); err != nil {
				b.Fatal(err)
			}
		}
		perRow(b)
	})
	// Interleaved alternates the two, each after a GC, so that the load of
	// a shared machine and the garbage of one do not bias the other.
	b.Run("Interleaved", func(b *testing.B) {
		var ours, hand time.Duration
		for range b.N {
			runtime.GC()
			t0 := time.Now()
			if _, err := gorecord.FromSlice(rows); err != nil {
				b.Fatal(err)
			}
			ours += time.Since(t0)
			runtime.GC()
			t0 = time.Now()
			if _, err := byHand(rows, schema); err != nil {
				b.Fatal(err)
			}
			hand += time.Since(t0)
		}
		b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N)/benchRows, "ours-ns/row")
		b.ReportMetric(float64(hand.Nanoseconds())/float64(b.N)/benchRows, "hand-ns/row")
		b.ReportMetric(float64(ours)/float64(hand), "ours/hand")
	})
	b.Run("WriterAppend", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			w, err := gorecord.NewWriter[benchRow](discard{}, gorecord.WithBatchSize(64<<10))
			if err != nil {
				b.Fatal(err)
			}
			for i := range rows {
				if err := w.Append(rows[i]); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Flush(); err != nil {
				b.Fatal(err)
			}
		}
		perRow(b)
	})
	rec, err := gorecord.FromSlice(rows)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("ToSlice", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := gorecord.ToSlice[benchRow](rec); err != nil {
				b.Fatal(err)
			}
		}
		perRow(b)
	})
}
