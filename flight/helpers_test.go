package flight

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// requireSameRecords compares records value by value through their
// printed form (every logical value and null).
func requireSameRecords(t testing.TB, want, got []*alkaid.Record, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: number of batches", what)
	for i := range want {
		require.True(t, want[i].Schema().Equal(got[i].Schema()), "%s: batch %d schema", what, i)
		require.Equal(t, want[i].NumRows(), got[i].NumRows(), "%s: batch %d rows", what, i)
		for c := range want[i].NumCols() {
			w, g := want[i].Column(c).String(), got[i].Column(c).String()
			if w != g {
				require.Failf(t, "values differ", "%s: batch %d column %s:\nwant %.300s\ngot  %.300s", what, i, want[i].ColumnName(c), w, g)
			}
		}
	}
}

// allTypeBatches are batches of every type, with dictionaries that change
// between batches (a replacement) and a sliced batch.
func allTypeBatches() (*alkaid.Schema, []*alkaid.Record) {
	s := randdata.AllTypes()
	a, b := randdata.New(1).Record(s, 50), randdata.New(2).Record(s, 20)
	return s, []*alkaid.Record{a, a.Slice(7, 40), b, a.Slice(0, 0)}
}

// serve starts svc on a loopback port and returns its address.
func serve(t testing.TB, svc Service, opts ...Option) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv, err := NewServer(svc, opts...)
	require.NoError(t, err)
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(l) }()
	t.Cleanup(func() { srv.Stop(); <-done })
	return l.Addr().String()
}

func dial(t testing.TB, addr string, opts ...Option) *Client {
	t.Helper()
	c, err := Dial(addr, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func appMeta(i int) []byte { return []byte(fmt.Sprintf("batch-%d", i)) }

// memService serves fixed records under one ticket and path, stores
// uploads, echoes exchanges, and counts the DoGet handlers running.
type memService struct {
	BaseService
	schema  *alkaid.Schema
	recs    []*alkaid.Record
	running atomic.Int64
	sent    atomic.Int64 // batches DoGet handed to gRPC

	mu  sync.Mutex
	put map[string][]*alkaid.Record
	app map[string][][]byte
}

func newMemService(s *alkaid.Schema, recs []*alkaid.Record) *memService {
	return &memService{schema: s, recs: recs, put: map[string][]*alkaid.Record{}, app: map[string][][]byte{}}
}

func (m *memService) info() (*FlightInfo, error) {
	schema, err := EncodeSchema(m.schema)
	if err != nil {
		return nil, err
	}
	var rows int64
	for _, r := range m.recs {
		rows += int64(r.NumRows())
	}
	return &FlightInfo{Schema: schema, FlightDescriptor: PathDescriptor("mem"), TotalRecords: rows, TotalBytes: -1,
		Endpoint: []*FlightEndpoint{{Ticket: &Ticket{Ticket: []byte("mem")}}}}, nil
}

func (m *memService) GetFlightInfo(_ context.Context, d *FlightDescriptor) (*FlightInfo, error) {
	if len(d.GetPath()) != 1 || d.Path[0] != "mem" {
		return nil, status.Error(codes.NotFound, "no such flight")
	}
	return m.info()
}

func (m *memService) PollFlightInfo(ctx context.Context, d *FlightDescriptor) (*PollInfo, error) {
	fi, err := m.GetFlightInfo(ctx, d)
	if err != nil {
		return nil, err
	}
	done := 1.0
	return &PollInfo{Info: fi, Progress: &done}, nil
}

func (m *memService) GetSchema(ctx context.Context, d *FlightDescriptor) (*SchemaResult, error) {
	fi, err := m.GetFlightInfo(ctx, d)
	if err != nil {
		return nil, err
	}
	return &SchemaResult{Schema: fi.Schema}, nil
}

func (m *memService) ListFlights(_ *Criteria, s ListFlightsServer) error {
	fi, err := m.info()
	if err != nil {
		return err
	}
	return s.Send(fi)
}

func (m *memService) DoGet(t *Ticket, s DoGetServer) error {
	m.running.Add(1)
	defer m.running.Add(-1)
	w, err := NewRecordWriter(s, m.schema)
	if err != nil {
		return err
	}
	for i, r := range m.recs {
		if err := s.Context().Err(); err != nil {
			return err
		}
		if err := w.WriteWithAppMetadata(r, appMeta(i)); err != nil {
			return err
		}
		m.sent.Add(1)
	}
	return w.WriteSchema()
}

func (m *memService) DoPut(s DoPutServer) error {
	rr, err := NewRecordReader(s)
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "%v", err)
	}
	name := fmt.Sprint(rr.Descriptor().GetPath())
	var recs []*alkaid.Record
	var apps [][]byte
	answer := func(app []byte) error {
		apps = append(apps, app)
		return s.Send(&PutResult{AppMetadata: app})
	}
	for rec, err := range rr.Records() {
		if err != nil {
			return status.Errorf(codes.InvalidArgument, "%v", err)
		}
		for _, app := range rr.MetadataMessages() {
			if err := answer(app); err != nil {
				return err
			}
		}
		recs = append(recs, rec)
		if err := answer(rr.AppMetadata()); err != nil {
			return err
		}
	}
	for _, app := range rr.MetadataMessages() {
		if err := answer(app); err != nil {
			return err
		}
	}
	m.mu.Lock()
	m.put[name], m.app[name] = recs, apps
	m.mu.Unlock()
	return nil
}

// DoExchange sends every record back with its app metadata.
func (m *memService) DoExchange(s DoExchangeServer) error {
	rr, err := NewRecordReader(s)
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "%v", err)
	}
	w, err := NewRecordWriter(s, rr.Schema())
	if err != nil {
		return err
	}
	if err := w.WriteSchema(); err != nil {
		return err
	}
	for rec, err := range rr.Records() {
		if err != nil {
			return status.Errorf(codes.InvalidArgument, "%v", err)
		}
		for _, app := range rr.MetadataMessages() {
			if err := w.WriteAppMetadata(app); err != nil {
				return err
			}
		}
		if err := w.WriteWithAppMetadata(rec, rr.AppMetadata()); err != nil {
			return err
		}
	}
	for _, app := range rr.MetadataMessages() {
		if err := w.WriteAppMetadata(app); err != nil {
			return err
		}
	}
	return nil
}

// newWriter is NewRecordWriter for tests whose options are valid.
func newWriter(t testing.TB, s DataSender, schema *alkaid.Schema, opts ...ipc.Option) *RecordWriter {
	t.Helper()
	w, err := NewRecordWriter(s, schema, opts...)
	require.NoError(t, err)
	return w
}

// readRecords reads every record of r.
func readRecords(r alkaid.RecordReader) ([]*alkaid.Record, error) {
	var out []*alkaid.Record
	for rec, err := range r.Records() {
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
	return out, nil
}

func (m *memService) ListActions(_ *Empty, s ListActionsServer) error {
	return s.Send(&ActionType{Type: "echo", Description: "answers the body twice"})
}

func (m *memService) DoAction(a *Action, s DoActionServer) error {
	if a.Type != "echo" {
		return status.Errorf(codes.InvalidArgument, "unknown action %q", a.Type)
	}
	for range 2 {
		if err := s.Send(&Result{Body: a.Body}); err != nil {
			return err
		}
	}
	return nil
}

func (m *memService) Handshake(s HandshakeServer) error {
	for {
		req, err := s.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.Send(&HandshakeResponse{Payload: req.Payload}); err != nil {
			return err
		}
	}
}
