package bench

import (
	"context"
	"fmt"
	"net"
	"sync"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aflight "github.com/apache/arrow-go/v18/arrow/flight"
	aflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/flightsql"
)

// The Flight SQL pair runs one query over loopback gRPC with each
// library's Flight SQL client and server, in this process: Execute
// (GetFlightInfo of a CommandStatementQuery), then DoGet of the
// statement ticket, the client decoding the result. The result is the
// first batch of the Flight pairs: BatchRows rows (1,048,576 at full
// size) of 16 int64 columns, 128 MiB.

// flightSQLState is the servers and clients of the Flight SQL pair.
type flightSQLState struct {
	once   sync.Once
	err    error
	ours   *flightsql.Client
	theirs *aflightsql.Client
}

var flightSQLStates sync.Map // *Inputs → *flightSQLState

func (in *Inputs) flightSQL() *flightSQLState {
	v, _ := flightSQLStates.LoadOrStore(in, &flightSQLState{})
	return v.(*flightSQLState)
}

func (in *Inputs) flightSQLSetup() {
	in.flightSetup()
	st := in.flightSQL()
	st.once.Do(func() { st.err = st.start(in.flight()) })
	if st.err != nil {
		panic("bench: flight sql setup: " + st.err.Error())
	}
}

func (st *flightSQLState) start(data *flightState) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv, err := flight.NewServer(flightsql.NewService(&ourSQLServer{rec: data.recs[0]}))
	if err != nil {
		return err
	}
	go srv.Serve(l)
	c, err := flight.Dial(l.Addr().String())
	if err != nil {
		return err
	}
	st.ours = flightsql.NewClient(c)

	asrv := aflight.NewServerWithMiddleware(nil, grpc.MaxRecvMsgSize(flightMaxMsg), grpc.MaxSendMsgSize(flightMaxMsg))
	if err := asrv.Init("127.0.0.1:0"); err != nil {
		return err
	}
	asrv.RegisterFlightService(aflightsql.NewFlightServer(&theirSQLServer{schema: data.aschema, rec: data.arecs[0]}))
	go asrv.Serve()
	st.theirs, err = aflightsql.NewClient(asrv.Addr().String(), nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(flightMaxMsg), grpc.MaxCallSendMsgSize(flightMaxMsg)))
	return err
}

func (in *Inputs) flightSQLPairs() []Pair {
	st := in.flightSQL()
	return []Pair{{
		Name:    "FlightSQLExecute",
		Bytes:   func() int64 { return int64(in.S.BatchRows) * flightCols * 8 },
		Setup:   in.flightSQLSetup,
		Alkaid:  st.ourExecute,
		ArrowGo: st.theirExecute,
	}}
}

const flightSQLQuery = "SELECT * FROM bench"

func (st *flightSQLState) ourExecute() (any, error) {
	r, err := st.ours.Query(context.Background(), flightsql.Statement{Query: flightSQLQuery})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var s flightSummary
	for rec, err := range r.Records() {
		if err != nil {
			return nil, err
		}
		s.Rows += rec.NumRows()
		s.Last = ourLastRowSum(rec)
	}
	return s, nil
}

func (st *flightSQLState) theirExecute() (any, error) {
	ctx := context.Background()
	fi, err := st.theirs.Execute(ctx, flightSQLQuery)
	if err != nil {
		return nil, err
	}
	var s flightSummary
	for _, ep := range fi.Endpoint {
		rr, err := st.theirs.DoGet(ctx, ep.Ticket)
		if err != nil {
			return nil, err
		}
		for rr.Next() {
			rec := rr.RecordBatch()
			s.Rows += int(rec.NumRows())
			s.Last = theirLastRowSum(rec)
		}
		err = rr.Err()
		rr.Release()
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ourSQLServer answers flightSQLQuery with its record.
type ourSQLServer struct {
	flightsql.BaseServer
	rec *alkaid.Record
}

func (s *ourSQLServer) ExecuteStatement(_ context.Context, st flightsql.Statement) (*alkaid.Schema, []byte, error) {
	if st.Query != flightSQLQuery {
		return nil, nil, fmt.Errorf("bench: query %q", st.Query)
	}
	return s.rec.Schema(), []byte("bench"), nil
}

func (s *ourSQLServer) StatementResult(context.Context, []byte) (alkaid.RecordReader, error) {
	return alkaid.TableFromRecords(s.rec.Schema(), []*alkaid.Record{s.rec})
}

// theirSQLServer is arrow-go's server doing the same.
type theirSQLServer struct {
	aflightsql.BaseServer
	schema *aarrow.Schema
	rec    aarrow.RecordBatch
}

func (s *theirSQLServer) GetFlightInfoStatement(_ context.Context, cmd aflightsql.StatementQuery, d *aflight.FlightDescriptor) (*aflight.FlightInfo, error) {
	if cmd.GetQuery() != flightSQLQuery {
		return nil, fmt.Errorf("bench: query %q", cmd.GetQuery())
	}
	t, err := aflightsql.CreateStatementQueryTicket([]byte("bench"))
	if err != nil {
		return nil, err
	}
	return &aflight.FlightInfo{
		Schema:           aflight.SerializeSchema(s.schema, mem),
		FlightDescriptor: d,
		Endpoint:         []*aflight.FlightEndpoint{{Ticket: &aflight.Ticket{Ticket: t}}},
		TotalRecords:     -1,
		TotalBytes:       -1,
	}, nil
}

func (s *theirSQLServer) DoGetStatement(context.Context, aflightsql.StatementQueryTicket) (*aarrow.Schema, <-chan aflight.StreamChunk, error) {
	ch := make(chan aflight.StreamChunk, 1)
	s.rec.Retain()
	ch <- aflight.StreamChunk{Data: s.rec}
	close(ch)
	return s.schema, ch, nil
}
