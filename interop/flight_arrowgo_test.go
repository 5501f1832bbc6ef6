package interop

// Arrow Flight in both directions between the flight module and
// arrow-go's Flight (v18), linked into this one test binary, on loopback:
// records of every randdata type (dictionaries included, replaced between
// batches), app metadata on every message, DoGet, DoPut with each codec,
// DoExchange, and arrow-go's basic→bearer authentication against our
// server. The service our server runs here is written in this file, with
// the flight module's public API only.
//
// What arrow-go received over Flight is compared with what was sent twice:
// slot by slot through arrow-go's own accessors (requireSameValues), and
// read back through Alkaid's reader, fully validated. Records cross from
// one library to the other before sending as IPC streams in memory.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aflight "github.com/apache/arrow-go/v18/arrow/flight"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// TestFlightRegistration: both generated packages are registered side by
// side under different protobuf names, with the same fields and the same
// methods (the gRPC paths on the wire are Arrow's for both).
func TestFlightRegistration(t *testing.T) {
	find := func(name string) protoreflect.Descriptor {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(name))
		require.NoError(t, err, name)
		return d
	}
	for _, msg := range []string{"FlightData", "FlightInfo", "FlightDescriptor", "Ticket", "PutResult", "SchemaResult", "PollInfo"} {
		ours := find("alkaid.flight.protocol." + msg).(protoreflect.MessageDescriptor)
		theirs := find("arrow.flight.protocol." + msg).(protoreflect.MessageDescriptor)
		require.NotEqual(t, ours.ParentFile().Path(), theirs.ParentFile().Path())
		require.Equal(t, theirs.Fields().Len(), ours.Fields().Len(), msg)
		for i := range theirs.Fields().Len() {
			f := theirs.Fields().Get(i)
			g := ours.Fields().ByNumber(f.Number())
			require.NotNil(t, g, "%s field %d", msg, f.Number())
			require.Equal(t, f.Name(), g.Name(), msg)
			require.Equal(t, f.Kind(), g.Kind(), msg)
			require.Equal(t, f.Cardinality(), g.Cardinality(), msg)
		}
	}
	ours := find("alkaid.flight.protocol.FlightService").(protoreflect.ServiceDescriptor).Methods()
	theirs := find("arrow.flight.protocol.FlightService").(protoreflect.ServiceDescriptor).Methods()
	require.Equal(t, theirs.Len(), ours.Len())
	for i := range theirs.Len() {
		m := theirs.Get(i)
		g := ours.ByName(m.Name())
		require.NotNil(t, g, "method %s", m.Name())
		require.Equal(t, m.IsStreamingClient(), g.IsStreamingClient(), m.Name())
		require.Equal(t, m.IsStreamingServer(), g.IsStreamingServer(), m.Name())
		require.Equal(t, m.Input().Name(), g.Input().Name(), m.Name())
		require.Equal(t, m.Output().Name(), g.Output().Name(), m.Name())
	}
}

// flightBatches: every randdata type; a slice (offsets not zero), the
// dictionaries replaced between the second and third batch and back.
func flightBatches() (*alkaid.Schema, []*alkaid.Record) {
	s := randdata.AllTypes()
	a, b := randdata.New(1).Record(s, 50), randdata.New(2).Record(s, 20)
	return s, []*alkaid.Record{a, a.Slice(7, 40), b, a}
}

var flightWantMeta = []string{"batch-0", "batch-1", "batch-2", "batch-3"}

func flightAppMeta(i int) []byte { return []byte(fmt.Sprintf("batch-%d", i)) }

// requireSameFlightRecords compares records value by value through their
// printed form (every logical value and null).
func requireSameFlightRecords(t *testing.T, want, got []*alkaid.Record, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: number of batches", what)
	for i := range want {
		require.True(t, want[i].Schema().Equal(got[i].Schema()), "%s: batch %d schema", what, i)
		require.Equal(t, want[i].NumRows(), got[i].NumRows(), "%s: batch %d rows", what, i)
		for c := range want[i].NumCols() {
			if w, g := want[i].Column(c).String(), got[i].Column(c).String(); w != g {
				require.Failf(t, "values differ", "%s: batch %d column %s:\nwant %.300s\ngot  %.300s", what, i, want[i].ColumnName(c), w, g)
			}
		}
	}
}

// toArrowGoRecords gives our records to arrow-go through an IPC stream.
func toArrowGoRecords(t *testing.T, s *alkaid.Schema, recs []*alkaid.Record) (*aarrow.Schema, []aarrow.RecordBatch) {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewStreamWriter(&buf, s, ipc.WithArrowCompat())
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	r, err := aipc.NewReader(&buf)
	require.NoError(t, err)
	var out []aarrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		out = append(out, rec)
	}
	require.NoError(t, r.Err())
	return r.Schema(), out
}

// fromArrowGoRecords reads arrow-go's records back with our reader, fully
// validated.
func fromArrowGoRecords(t *testing.T, s *aarrow.Schema, recs []aarrow.RecordBatch) []*alkaid.Record {
	t.Helper()
	var buf bytes.Buffer
	w := aipc.NewWriter(&buf, aipc.WithSchema(s))
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	sr, err := ipc.NewStreamReader(&buf, ipc.WithValidation(array.ValidateFull))
	require.NoError(t, err)
	var out []*alkaid.Record
	for r, err := range sr.Records() {
		require.NoError(t, err)
		out = append(out, r)
	}
	return out
}

// agFlightData is what arrow-go read from a Flight data stream.
type agFlightData struct {
	schema *aarrow.Schema
	recs   []aarrow.RecordBatch
	meta   []string
}

// agDrain reads a Flight data stream with arrow-go's reader; each
// record's app metadata is passed to each (may be nil).
func agDrain(r aflight.DataStreamReader, each func([]byte) error) (*agFlightData, error) {
	rr, err := aflight.NewRecordReader(r)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	got := &agFlightData{schema: rr.Schema()}
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		app := string(rr.LatestAppMetadata())
		got.recs, got.meta = append(got.recs, rec), append(got.meta, app)
		if each != nil {
			if err := each([]byte(app)); err != nil {
				return nil, err
			}
		}
	}
	return got, rr.Err()
}

func agSend(w *aflight.Writer, recs []aarrow.RecordBatch) error {
	for i, r := range recs {
		if err := w.WriteWithAppMetadata(r, flightAppMeta(i)); err != nil {
			return err
		}
	}
	return w.Close()
}

// agFlightServer is an arrow-go Flight server: DoGet sends fixed
// records, DoPut keeps the last upload, DoExchange echoes.
type agFlightServer struct {
	aflight.BaseFlightServer
	schema *aarrow.Schema
	recs   []aarrow.RecordBatch
	mu     sync.Mutex
	put    *agFlightData
}

func (s *agFlightServer) DoGet(_ *aflight.Ticket, st aflight.FlightService_DoGetServer) error {
	return agSend(aflight.NewRecordWriter(st, aipc.WithSchema(s.schema)), s.recs)
}

func (s *agFlightServer) DoPut(st aflight.FlightService_DoPutServer) error {
	got, err := agDrain(st, func(app []byte) error {
		return st.Send(&aflight.PutResult{AppMetadata: app})
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.put = got
	s.mu.Unlock()
	return nil
}

func (s *agFlightServer) DoExchange(st aflight.FlightService_DoExchangeServer) error {
	rr, err := aflight.NewRecordReader(st)
	if err != nil {
		return err
	}
	defer rr.Release()
	w := aflight.NewRecordWriter(st, aipc.WithSchema(rr.Schema()))
	for rr.Next() {
		if err := w.WriteWithAppMetadata(rr.RecordBatch(), rr.LatestAppMetadata()); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		return err
	}
	return w.Close()
}

// flightMemService is our side: one flight "mem" of fixed records, with
// app metadata on each batch; DoPut keeps uploads by descriptor path;
// DoExchange echoes.
type flightMemService struct {
	flight.BaseService
	schema *alkaid.Schema
	recs   []*alkaid.Record

	mu  sync.Mutex
	put map[string][]*alkaid.Record
	app map[string][]string
}

func (m *flightMemService) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	if len(d.GetPath()) != 1 || d.Path[0] != "mem" {
		return nil, status.Error(codes.NotFound, "no such flight")
	}
	schema, err := flight.EncodeSchema(m.schema, ipc.WithArrowCompat())
	if err != nil {
		return nil, err
	}
	return &flight.FlightInfo{Schema: schema, FlightDescriptor: d, TotalRecords: -1, TotalBytes: -1,
		Endpoint: []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: []byte("mem")}}}}, nil
}

func (m *flightMemService) DoGet(_ *flight.Ticket, s flight.DoGetServer) error {
	w, err := flight.NewRecordWriter(s, m.schema)
	if err != nil {
		return err
	}
	for i, r := range m.recs {
		if err := w.WriteWithAppMetadata(r, flightAppMeta(i)); err != nil {
			return err
		}
	}
	return nil
}

func (m *flightMemService) DoPut(s flight.DoPutServer) error {
	rr, err := flight.NewRecordReader(s, ipc.WithValidation(array.ValidateFull))
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "%v", err)
	}
	name := fmt.Sprint(rr.Descriptor().GetPath())
	var recs []*alkaid.Record
	var apps []string
	answer := func(app []byte) error {
		apps = append(apps, string(app))
		return s.Send(&flight.PutResult{AppMetadata: app})
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

func (m *flightMemService) DoExchange(s flight.DoExchangeServer) error {
	rr, err := flight.NewRecordReader(s, ipc.WithValidation(array.ValidateFull))
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "%v", err)
	}
	w, err := flight.NewRecordWriter(s, rr.Schema())
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
		if err := w.WriteWithAppMetadata(rec, rr.AppMetadata()); err != nil {
			return err
		}
	}
	return nil
}

// serveFlight starts svc on a loopback port and returns its address.
func serveFlight(t *testing.T, svc flight.Service, opts ...flight.Option) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv, err := flight.NewServer(svc, opts...)
	require.NoError(t, err)
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(l) }()
	t.Cleanup(func() { srv.Stop(); <-done })
	return l.Addr().String()
}

// TestFlightArrowGoClientAlkaidServer: arrow-go's client authenticates
// (basic → bearer), reads a FlightInfo, DoGets, DoPuts and DoExchanges
// against our server.
func TestFlightArrowGoClientAlkaidServer(t *testing.T) {
	s, recs := flightBatches()
	svc := &flightMemService{schema: s, recs: recs, put: map[string][]*alkaid.Record{}, app: map[string][]string{}}
	addr := serveFlight(t, svc, flight.WithAuth(flight.NewStaticAuth(map[string]string{"ann": "secret"})))
	as, arecs := toArrowGoRecords(t, s, recs)

	c, err := aflight.NewClientWithMiddleware(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer c.Close()
	_, err = c.GetFlightInfo(context.Background(), &aflight.FlightDescriptor{Type: aflight.DescriptorPATH, Path: []string{"mem"}})
	require.Equal(t, codes.Unauthenticated, status.Code(err), "a call without a token: %v", err)
	ctx, err := c.AuthenticateBasicToken(context.Background(), "ann", "secret")
	require.NoError(t, err)
	info, err := c.GetFlightInfo(ctx, &aflight.FlightDescriptor{Type: aflight.DescriptorPATH, Path: []string{"mem"}})
	require.NoError(t, err)
	is, err := aflight.DeserializeSchema(info.Schema, nil)
	require.NoError(t, err)
	require.True(t, is.Equal(as), "FlightInfo schema")

	get, err := c.DoGet(ctx, info.Endpoint[0].Ticket)
	require.NoError(t, err)
	got, err := agDrain(get, nil)
	require.NoError(t, err)
	requireSameFlightRecords(t, recs, fromArrowGoRecords(t, got.schema, got.recs), "DoGet by arrow-go")
	require.Equal(t, flightWantMeta, got.meta)
	requireArrowGoSchema(t, s, got.schema)
	for i, rec := range got.recs {
		requireSameValues(t, recs[i], rec) // slot by slot, in arrow-go's own accessors
	}

	put, err := c.DoPut(ctx)
	require.NoError(t, err)
	w := aflight.NewRecordWriter(put, aipc.WithSchema(as))
	w.SetFlightDescriptor(&aflight.FlightDescriptor{Type: aflight.DescriptorPATH, Path: []string{"from-arrow-go"}})
	require.NoError(t, agSend(w, arecs))
	require.NoError(t, put.CloseSend())
	var results []string
	for {
		pr, err := put.Recv()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		results = append(results, string(pr.AppMetadata))
	}
	require.Equal(t, flightWantMeta, results)
	svc.mu.Lock()
	requireSameFlightRecords(t, recs, svc.put["[from-arrow-go]"], "DoPut by arrow-go")
	require.Equal(t, flightWantMeta, svc.app["[from-arrow-go]"])
	svc.mu.Unlock()

	ex, err := c.DoExchange(ctx)
	require.NoError(t, err)
	var sendErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sendErr = agSend(aflight.NewRecordWriter(ex, aipc.WithSchema(as)), arecs)
		ex.CloseSend()
	}()
	got, err = agDrain(ex, nil)
	wg.Wait()
	require.NoError(t, errors.Join(err, sendErr))
	requireSameFlightRecords(t, recs, fromArrowGoRecords(t, got.schema, got.recs), "DoExchange by arrow-go")
	require.Equal(t, flightWantMeta, got.meta)
	for i, rec := range got.recs {
		requireSameValues(t, recs[i], rec)
	}
}

// TestFlightAlkaidClientArrowGoServer: our client DoGets, DoPuts (each
// codec) and DoExchanges against arrow-go's server.
func TestFlightAlkaidClientArrowGoServer(t *testing.T) {
	s, recs := flightBatches()
	as, arecs := toArrowGoRecords(t, s, recs)
	ags := &agFlightServer{schema: as, recs: arecs}
	srv := aflight.NewServerWithMiddleware(nil)
	require.NoError(t, srv.Init("127.0.0.1:0"))
	srv.RegisterFlightService(ags)
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve() }()
	t.Cleanup(func() { srv.Shutdown(); <-done })
	addr := srv.Addr().String()
	ctx := context.Background()

	dial := func(opts ...flight.Option) *flight.Client {
		c, err := flight.Dial("grpc://"+addr, opts...)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		return c
	}
	c := dial(flight.WithReadOptions(ipc.WithValidation(array.ValidateFull)), flight.WithWriteOptions(ipc.WithArrowCompat()))
	rr, err := c.Get(ctx, &flight.Ticket{Ticket: []byte("any")})
	require.NoError(t, err)
	var got []*alkaid.Record
	var meta []string
	for rec, err := range rr.Records() {
		require.NoError(t, err)
		got, meta = append(got, rec), append(meta, string(rr.AppMetadata()))
	}
	requireSameFlightRecords(t, recs, got, "DoGet from arrow-go")
	require.Equal(t, flightWantMeta, meta)

	for _, codec := range []ipc.Codec{ipc.Uncompressed, ipc.LZ4Frame, ipc.Zstd} {
		c := dial(flight.WithWriteOptions(ipc.WithArrowCompat(), ipc.WithCompression(codec, 0)))
		ps, err := c.Put(ctx, flight.PathDescriptor("up"), s)
		require.NoError(t, err)
		for i, r := range recs {
			require.NoError(t, ps.WriteWithAppMetadata(r, flightAppMeta(i)))
		}
		require.NoError(t, ps.Close(), codec.String())
		res := ps.Results()
		meta = meta[:0]
		for _, r := range res {
			meta = append(meta, string(r.AppMetadata))
		}
		require.Equal(t, flightWantMeta, meta, codec.String())
		ags.mu.Lock()
		put := ags.put
		ags.put = nil
		ags.mu.Unlock()
		require.NotNil(t, put, codec.String())
		requireSameFlightRecords(t, recs, fromArrowGoRecords(t, put.schema, put.recs), "DoPut to arrow-go, "+codec.String())
		require.Equal(t, flightWantMeta, put.meta)
		requireArrowGoSchema(t, s, put.schema)
		for i, rec := range put.recs {
			requireSameValues(t, recs[i], rec)
		}
	}

	ex, err := c.Exchange(ctx, flight.PathDescriptor("x"), s)
	require.NoError(t, err)
	for i, r := range recs {
		require.NoError(t, ex.WriteWithAppMetadata(r, flightAppMeta(i)))
	}
	require.NoError(t, ex.Close())
	er, err := ex.Reader()
	require.NoError(t, err)
	got, meta = got[:0], meta[:0]
	for rec, err := range er.Records() {
		require.NoError(t, err)
		got, meta = append(got, rec), append(meta, string(er.AppMetadata()))
	}
	requireSameFlightRecords(t, recs, got, "DoExchange with arrow-go")
	require.Equal(t, flightWantMeta, meta)
}
