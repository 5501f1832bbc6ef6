package flight

// Benchmarks of DoGet and DoPut on loopback, ours alone; the bench
// module's FlightDoGet and FlightDoPut pairs run the same flight with
// arrow-go's Flight beside ours in one binary:
//
//	go test -run '^$' -bench 'Flight' -benchtime 3x .
//
// The flight is FLIGHT_BENCH_BATCHES batches (default 8) of
// FLIGHT_BENCH_ROWS rows (default 1<<20) of 16 int64 columns without
// nulls: 8 × 128 MiB = 1 GiB by default.

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func benchEnv(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// benchFlight is the benchmark's data: batches of one record, and its
// size in bytes.
func benchFlight(b *testing.B) (*alkaid.Schema, []*alkaid.Record, int64) {
	rows, batches := benchEnv("FLIGHT_BENCH_ROWS", 1<<20), benchEnv("FLIGHT_BENCH_BATCHES", 8)
	const cols = 16
	fields := make([]datatype.Field, cols)
	arrs := make([]array.Array, cols)
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]int64, rows)
	for c := range cols {
		fields[c] = datatype.Field{Name: "c" + strconv.Itoa(c), Type: datatype.Int64}
		for i := range vals {
			vals[i] = r.Int64()
		}
		bl := array.NewPrimitiveBuilder[int64](datatype.Int64)
		bl.AppendValues(vals, nil)
		arrs[c] = bl.NewArray()
	}
	s := alkaid.NewSchema(fields, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, arrs, rows)
	if err != nil {
		b.Fatal(err)
	}
	recs := make([]*alkaid.Record, batches)
	for i := range recs {
		recs[i] = rec
	}
	return s, recs, int64(rows) * cols * 8 * int64(batches)
}

// BenchmarkFlightDoGet: a client reads the whole flight.
func BenchmarkFlightDoGet(b *testing.B) {
	s, recs, size := benchFlight(b)
	c := dial(b, serve(b, newMemService(s, recs)))
	ctx := context.Background()
	b.SetBytes(size)
	b.ReportAllocs()
	start := mallocs()
	b.ResetTimer()
	for range b.N {
		rr, err := c.Get(ctx, &Ticket{Ticket: []byte("mem")})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rec, err := range rr.Records() {
			if err != nil {
				b.Fatal(err)
			}
			n += rec.NumRows()
		}
		if n != recs[0].NumRows()*len(recs) {
			b.Fatalf("%d rows", n)
		}
	}
	b.StopTimer()
	b.ReportMetric(allocsPerBatch(start, b.N*len(recs)), "allocs/batch")
}

// BenchmarkFlightDoPut: a client uploads the whole flight; the server
// decodes every batch.
func BenchmarkFlightDoPut(b *testing.B) {
	s, recs, size := benchFlight(b)
	c := dial(b, serve(b, &countService{}))
	ctx := context.Background()
	b.SetBytes(size)
	b.ReportAllocs()
	start := mallocs()
	b.ResetTimer()
	for range b.N {
		ps, err := c.Put(ctx, PathDescriptor("bench"), s)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range recs {
			if err := ps.Write(r); err != nil {
				b.Fatal(err)
			}
		}
		err = ps.Close()
		res := ps.Results()
		if err != nil || len(res) != 1 || string(res[0].AppMetadata) != strconv.Itoa(recs[0].NumRows()*len(recs)) {
			b.Fatalf("%v %v", res, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(allocsPerBatch(start, b.N*len(recs)), "allocs/batch")
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// allocsPerBatch is the heap allocations since start (client and server
// together: both run in this process) per batch moved.
func allocsPerBatch(start uint64, batches int) float64 {
	return float64(mallocs()-start) / float64(batches)
}

// countService decodes DoPut uploads and answers the rows it counted.
type countService struct{ BaseService }

func (countService) DoPut(s DoPutServer) error {
	rr, err := NewRecordReader(s)
	if err != nil {
		return err
	}
	n := 0
	for rec, err := range rr.Records() {
		if err != nil && err != io.EOF {
			return err
		}
		if rec != nil {
			n += rec.NumRows()
		}
	}
	return s.Send(&PutResult{AppMetadata: []byte(strconv.Itoa(n))})
}
