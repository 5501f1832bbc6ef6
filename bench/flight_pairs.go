package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aflight "github.com/apache/arrow-go/v18/arrow/flight"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
)

// The Flight pairs move one flight over loopback gRPC, client and server
// in this process, with each library's Flight client and server: DoGet
// (the server sends the batches, the client decodes them) and DoPut (the
// client sends them, the server decodes them and answers the rows it
// counted). The flight is FlightBatches batches of BatchRows rows (at
// full size: 8 × 1,048,576 rows) of 16 int64 columns without nulls,
// 128 MiB a batch, 1 GiB in all. Both sides allow messages of 256 MiB.

const (
	flightCols   = 16
	flightMaxMsg = 256 << 20
)

// flightState is the data, the servers and the clients of the Flight
// pairs of one Inputs, started once.
type flightState struct {
	once    sync.Once
	err     error
	batches int
	schema  *alkaid.Schema
	recs    []*alkaid.Record
	aschema *aarrow.Schema
	arecs   []aarrow.RecordBatch

	ours   *flight.Client
	theirs aflight.Client
}

var flightStates sync.Map // *Inputs → *flightState

func (in *Inputs) flight() *flightState {
	v, _ := flightStates.LoadOrStore(in, &flightState{})
	return v.(*flightState)
}

// FlightBatches is the number of batches of the Flight pairs: 8 at full
// size, 2 at small.
func (in *Inputs) FlightBatches() int {
	if in.S.BatchRows >= 1<<20 {
		return 8
	}
	return 2
}

// flightSetup makes the data and starts both servers and clients.
func (in *Inputs) flightSetup() {
	st := in.flight()
	st.once.Do(func() { st.err = st.start(in.S.BatchRows, in.FlightBatches()) })
	if st.err != nil {
		panic("bench: flight setup: " + st.err.Error())
	}
}

func (st *flightState) start(rows, batches int) error {
	r := newRand(27)
	fields := make([]datatype.Field, flightCols)
	afields := make([]aarrow.Field, flightCols)
	cols := make([]array.Array, flightCols)
	acols := make([]aarrow.Array, flightCols)
	vals := make([]int64, rows)
	for c := range flightCols {
		for i := range vals {
			vals[i] = r.Int64()
		}
		name := "c" + strconv.Itoa(c)
		fields[c] = datatype.Field{Name: name, Type: datatype.Int64}
		afields[c] = aarrow.Field{Name: name, Type: aarrow.PrimitiveTypes.Int64}
		b := array.NewPrimitiveBuilder[int64](datatype.Int64)
		b.AppendValues(vals, nil)
		cols[c] = b.NewArray()
		ab := aarray.NewInt64Builder(mem)
		ab.AppendValues(vals, nil)
		acols[c] = ab.NewArray()
		ab.Release()
	}
	st.batches = batches
	st.schema = alkaid.NewSchema(fields, datatype.Metadata{})
	rec, err := alkaid.NewRecord(st.schema, cols, rows)
	if err != nil {
		return err
	}
	st.aschema = aarrow.NewSchema(afields, nil)
	arec := aarray.NewRecordBatch(st.aschema, acols, int64(rows))
	for range batches {
		st.recs = append(st.recs, rec)
		st.arecs = append(st.arecs, arec)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv, err := flight.NewServer(&ourFlightService{st: st})
	if err != nil {
		return err
	}
	go srv.Serve(l)
	if st.ours, err = flight.Dial(l.Addr().String()); err != nil {
		return err
	}

	asrv := aflight.NewServerWithMiddleware(nil, grpc.MaxRecvMsgSize(flightMaxMsg), grpc.MaxSendMsgSize(flightMaxMsg))
	if err := asrv.Init("127.0.0.1:0"); err != nil {
		return err
	}
	asrv.RegisterFlightService(&theirFlightService{st: st})
	go asrv.Serve()
	st.theirs, err = aflight.NewClientWithMiddleware(asrv.Addr().String(), nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(flightMaxMsg), grpc.MaxCallSendMsgSize(flightMaxMsg)))
	return err
}

// flightBytes is the size of the flight's value buffers.
func (in *Inputs) flightBytes() int64 {
	return int64(in.S.BatchRows) * flightCols * 8 * int64(in.FlightBatches())
}

// flightSummary is what a side of a pair read: rows, and the sum of the
// last row's values of the last batch (wrapping), to compare.
type flightSummary struct {
	Rows int
	Last int64
}

func (s flightSummary) String() string { return fmt.Sprintf("rows=%d last=%d", s.Rows, s.Last) }

func (in *Inputs) flightPairs() []Pair {
	st := in.flight()
	p := func(name string, ours, theirs func() (any, error)) Pair {
		return Pair{Name: name, Bytes: in.flightBytes, Setup: in.flightSetup, Alkaid: ours, ArrowGo: theirs}
	}
	return []Pair{
		p("FlightDoGet", st.ourGet, st.theirGet),
		p("FlightDoPut", st.ourPut, st.theirPut),
	}
}

func (st *flightState) ourGet() (any, error) {
	rr, err := st.ours.Get(context.Background(), &flight.Ticket{Ticket: []byte("bench")})
	if err != nil {
		return nil, err
	}
	var s flightSummary
	for rec, err := range rr.Records() {
		if err != nil {
			return nil, err
		}
		s.Rows += rec.NumRows()
		s.Last = ourLastRowSum(rec)
	}
	return s, nil
}

func (st *flightState) theirGet() (any, error) {
	stream, err := st.theirs.DoGet(context.Background(), &aflight.Ticket{Ticket: []byte("bench")})
	if err != nil {
		return nil, err
	}
	rr, err := aflight.NewRecordReader(stream)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var s flightSummary
	for rr.Next() {
		rec := rr.RecordBatch()
		s.Rows += int(rec.NumRows())
		s.Last = theirLastRowSum(rec)
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		return nil, err
	}
	return s, nil
}

func (st *flightState) ourPut() (any, error) {
	ps, err := st.ours.Put(context.Background(), flight.PathDescriptor("bench"), st.schema)
	if err != nil {
		return nil, err
	}
	for _, r := range st.recs {
		if err := ps.Write(r); err != nil {
			return nil, err
		}
	}
	if err := ps.Close(); err != nil {
		return nil, err
	}
	res := ps.Results()
	if len(res) != 1 {
		return nil, fmt.Errorf("%d put results", len(res))
	}
	return string(res[0].AppMetadata), nil
}

func (st *flightState) theirPut() (any, error) {
	stream, err := st.theirs.DoPut(context.Background())
	if err != nil {
		return nil, err
	}
	w := aflight.NewRecordWriter(stream, aipc.WithSchema(st.aschema))
	w.SetFlightDescriptor(&aflight.FlightDescriptor{Type: aflight.DescriptorPATH, Path: []string{"bench"}})
	for _, r := range st.arecs {
		if err := w.Write(r); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if err := stream.CloseSend(); err != nil {
		return nil, err
	}
	var out []string
	for {
		res, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		out = append(out, string(res.AppMetadata))
	}
	if len(out) != 1 {
		return nil, fmt.Errorf("%d put results", len(out))
	}
	return out[0], nil
}

func ourLastRowSum(rec *alkaid.Record) int64 {
	var s int64
	if rec.NumRows() == 0 {
		return 0
	}
	for c := range rec.NumCols() {
		s += rec.Column(c).(*array.Int64).Value(rec.NumRows() - 1)
	}
	return s
}

func theirLastRowSum(rec aarrow.RecordBatch) int64 {
	var s int64
	if rec.NumRows() == 0 {
		return 0
	}
	for c := range int(rec.NumCols()) {
		s += rec.Column(c).(*aarray.Int64).Value(int(rec.NumRows()) - 1)
	}
	return s
}

// ourFlightService is our server: DoGet sends the flight, DoPut decodes
// an upload and answers the rows it counted.
type ourFlightService struct {
	flight.BaseService
	st *flightState
}

func (s *ourFlightService) DoGet(_ *flight.Ticket, stream flight.DoGetServer) error {
	w, err := flight.NewRecordWriter(stream, s.st.schema)
	if err != nil {
		return err
	}
	for _, r := range s.st.recs {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	return w.WriteSchema()
}

func (s *ourFlightService) DoPut(stream flight.DoPutServer) error {
	rr, err := flight.NewRecordReader(stream)
	if err != nil {
		return err
	}
	n := 0
	for rec, err := range rr.Records() {
		if err != nil {
			return err
		}
		n += rec.NumRows()
	}
	return stream.Send(&flight.PutResult{AppMetadata: []byte(strconv.Itoa(n))})
}

// theirFlightService is arrow-go's server doing the same.
type theirFlightService struct {
	aflight.BaseFlightServer
	st *flightState
}

func (s *theirFlightService) DoGet(_ *aflight.Ticket, stream aflight.FlightService_DoGetServer) error {
	w := aflight.NewRecordWriter(stream, aipc.WithSchema(s.st.aschema))
	for _, r := range s.st.arecs {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	return w.Close()
}

func (s *theirFlightService) DoPut(stream aflight.FlightService_DoPutServer) error {
	rr, err := aflight.NewRecordReader(stream)
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
	return stream.Send(&aflight.PutResult{AppMetadata: []byte(strconv.Itoa(n))})
}
