package arrowgopeer

// arrow-go's side of the flight package's BenchmarkFlightDoGet and
// BenchmarkFlightDoPut (see flight/bench_test.go): the same data — 16
// int64 columns without nulls, FLIGHT_BENCH_BATCHES batches (default 8)
// of FLIGHT_BENCH_ROWS rows (default 1<<20) — over arrow-go's client and
// server on loopback.

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// maxMsg matches the flight package's DefaultMaxMessageSize.
const maxMsg = 256 << 20

func benchEnv(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func benchFlight(b *testing.B) (*arrow.Schema, []arrow.RecordBatch, int64) {
	rows, batches := benchEnv("FLIGHT_BENCH_ROWS", 1<<20), benchEnv("FLIGHT_BENCH_BATCHES", 8)
	const cols = 16
	fields := make([]arrow.Field, cols)
	arrs := make([]arrow.Array, cols)
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]int64, rows)
	for c := range cols {
		fields[c] = arrow.Field{Name: "c" + strconv.Itoa(c), Type: arrow.PrimitiveTypes.Int64}
		for i := range vals {
			vals[i] = r.Int64()
		}
		bl := array.NewInt64Builder(memory.DefaultAllocator)
		bl.AppendValues(vals, nil)
		arrs[c] = bl.NewArray()
	}
	s := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(s, arrs, int64(rows))
	recs := make([]arrow.RecordBatch, batches)
	for i := range recs {
		recs[i] = rec
	}
	return s, recs, int64(rows) * cols * 8 * int64(batches)
}

type benchServer struct {
	flight.BaseFlightServer
	schema *arrow.Schema
	recs   []arrow.RecordBatch
}

func (s *benchServer) DoGet(_ *flight.Ticket, st flight.FlightService_DoGetServer) error {
	w := flight.NewRecordWriter(st, ipc.WithSchema(s.schema))
	for _, r := range s.recs {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	return w.Close()
}

func (s *benchServer) DoPut(st flight.FlightService_DoPutServer) error {
	rr, err := flight.NewRecordReader(st)
	if err != nil {
		return err
	}
	defer rr.Release()
	n := 0
	for rr.Next() {
		n += int(rr.RecordBatch().NumRows())
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		return err
	}
	return st.Send(&flight.PutResult{AppMetadata: []byte(strconv.Itoa(n))})
}

func benchSetup(b *testing.B, svc *benchServer) flight.Client {
	srv := flight.NewServerWithMiddleware(nil, grpc.MaxRecvMsgSize(maxMsg), grpc.MaxSendMsgSize(maxMsg))
	if err := srv.Init("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	srv.RegisterFlightService(svc)
	go srv.Serve()
	b.Cleanup(srv.Shutdown)
	c, err := flight.NewClientWithMiddleware(srv.Addr().String(), nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMsg), grpc.MaxCallSendMsgSize(maxMsg)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

func BenchmarkFlightDoGet(b *testing.B) {
	s, recs, size := benchFlight(b)
	c := benchSetup(b, &benchServer{schema: s, recs: recs})
	ctx := context.Background()
	b.SetBytes(size)
	b.ReportAllocs()
	start := mallocs()
	b.ResetTimer()
	for range b.N {
		st, err := c.DoGet(ctx, &flight.Ticket{Ticket: []byte("bench")})
		if err != nil {
			b.Fatal(err)
		}
		rr, err := flight.NewRecordReader(st)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rr.Next() {
			n += int(rr.RecordBatch().NumRows())
		}
		if err := rr.Err(); (err != nil && err != io.EOF) || n != int(recs[0].NumRows())*len(recs) {
			b.Fatalf("%d rows, %v", n, err)
		}
		rr.Release()
	}
	b.StopTimer()
	b.ReportMetric(float64(mallocs()-start)/float64(b.N*len(recs)), "allocs/batch")
}

func BenchmarkFlightDoPut(b *testing.B) {
	s, recs, size := benchFlight(b)
	c := benchSetup(b, &benchServer{})
	ctx := context.Background()
	b.SetBytes(size)
	b.ReportAllocs()
	start := mallocs()
	b.ResetTimer()
	for range b.N {
		st, err := c.DoPut(ctx)
		if err != nil {
			b.Fatal(err)
		}
		w := flight.NewRecordWriter(st, ipc.WithSchema(s))
		w.SetFlightDescriptor(&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"bench"}})
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				b.Fatal(err)
			}
		}
		w.Close()
		st.CloseSend()
		res, err := st.Recv()
		if err != nil || string(res.AppMetadata) != strconv.Itoa(int(recs[0].NumRows())*len(recs)) {
			b.Fatalf("%v %v", res, err)
		}
		for {
			if _, err := st.Recv(); err != nil {
				break
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(mallocs()-start)/float64(b.N*len(recs)), "allocs/batch")
}
