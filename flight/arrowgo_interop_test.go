package flight

// Round trips with arrow-go's Flight client and server (v18), linked into
// this test binary with ours: records of every randdata type
// (dictionaries included, and replaced between batches), app metadata on
// every message, DoGet, DoPut (each codec) and DoExchange in both
// directions, and arrow-go's basic→bearer authentication against our
// server, all on loopback.
//
// That both packages load at all shows that their protobuf registrations
// do not collide. Records cross between the two libraries as IPC streams
// in memory; the interop module checks slot by slot that arrow-go and
// Alkaid agree on every type in IPC, so comparing here through Alkaid's
// reader is enough.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	agflight "github.com/apache/arrow-go/v18/arrow/flight"
	agpb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	agipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/ipc"
)

// TestArrowGoRegistration: both generated packages are registered side by
// side, under different protobuf names, and serve the same gRPC service
// name and methods (the paths on the wire).
func TestArrowGoRegistration(t *testing.T) {
	ours, err := protoregistry.GlobalFiles.FindDescriptorByName("alkaid.flight.protocol.FlightData")
	require.NoError(t, err)
	theirs, err := protoregistry.GlobalFiles.FindDescriptorByName("arrow.flight.protocol.FlightData")
	require.NoError(t, err)
	require.NotEqual(t, ours.ParentFile().Path(), theirs.ParentFile().Path())
	// Same fields, numbers and kinds: the wire format is the same.
	om, tm := ours.(protoreflect.MessageDescriptor).Fields(), theirs.(protoreflect.MessageDescriptor).Fields()
	require.Equal(t, tm.Len(), om.Len())
	for i := range tm.Len() {
		f := tm.Get(i)
		g := om.ByNumber(f.Number())
		require.NotNil(t, g, "field %d", f.Number())
		require.Equal(t, f.Name(), g.Name())
		require.Equal(t, f.Kind(), g.Kind())
	}

	a, b := pb.FlightService_ServiceDesc, agpb.FlightService_ServiceDesc
	require.Equal(t, "arrow.flight.protocol.FlightService", a.ServiceName)
	require.Equal(t, b.ServiceName, a.ServiceName)
	names := func(d grpc.ServiceDesc) []string {
		var out []string
		for _, m := range d.Methods {
			out = append(out, m.MethodName)
		}
		for _, s := range d.Streams {
			out = append(out, fmt.Sprintf("%s client=%v server=%v", s.StreamName, s.ClientStreams, s.ServerStreams))
		}
		return out
	}
	require.Equal(t, names(b), names(a))
	for _, p := range [][2]string{
		{"DoGet", pb.FlightService_DoGet_FullMethodName},
		{"DoPut", pb.FlightService_DoPut_FullMethodName},
		{"DoExchange", pb.FlightService_DoExchange_FullMethodName},
		{"GetFlightInfo", pb.FlightService_GetFlightInfo_FullMethodName},
		{"Handshake", handshakeMethod},
	} {
		require.Equal(t, "/arrow.flight.protocol.FlightService/"+p[0], p[1])
	}
}

// interopBatches: every type; a slice (offsets not zero), the
// dictionaries replaced between the second and third batch and back.
// arrow-go only ever re-sends batches it read, which are not slices (it
// fails to write some slices, see the interop module).
func interopBatches() (*alkaid.Schema, []*alkaid.Record) {
	s, recs := allTypeBatches()
	return s, []*alkaid.Record{recs[0], recs[1], recs[2], recs[0]}
}

var wantMeta = []string{"batch-0", "batch-1", "batch-2", "batch-3"}

// toArrowGo gives our records to arrow-go through an IPC stream.
func toArrowGo(t *testing.T, s *alkaid.Schema, recs []*alkaid.Record) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewStreamWriter(&buf, s, ipc.WithArrowCompat())
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	r, err := agipc.NewReader(&buf)
	require.NoError(t, err)
	var out []arrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		out = append(out, rec)
	}
	require.NoError(t, r.Err())
	return r.Schema(), out
}

// fromArrowGo reads arrow-go's records back with our reader, fully
// validated.
func fromArrowGo(t *testing.T, s *arrow.Schema, recs []arrow.RecordBatch) []*alkaid.Record {
	t.Helper()
	var buf bytes.Buffer
	w := agipc.NewWriter(&buf, agipc.WithSchema(s))
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	sr, err := ipc.NewStreamReader(&buf, ipc.WithValidation(array.ValidateFull))
	require.NoError(t, err)
	var out []*alkaid.Record
	for r := range sr.Records() {
		out = append(out, r)
	}
	require.NoError(t, sr.Err())
	return out
}

// agReceived is what arrow-go read from a Flight data stream.
type agReceived struct {
	schema *arrow.Schema
	recs   []arrow.RecordBatch
	meta   []string
}

// agDrain reads a Flight data stream with arrow-go's reader; each
// record's app metadata is passed to each (may be nil).
func agDrain(r agflight.DataStreamReader, each func([]byte) error) (*agReceived, error) {
	rr, err := agflight.NewRecordReader(r)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	got := &agReceived{schema: rr.Schema()}
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

func agSend(w *agflight.Writer, recs []arrow.RecordBatch) error {
	for i, r := range recs {
		if err := w.WriteWithAppMetadata(r, appMeta(i)); err != nil {
			return err
		}
	}
	return w.Close()
}

// agServer is an arrow-go Flight server: DoGet sends fixed records,
// DoPut keeps the last upload, DoExchange echoes.
type agServer struct {
	agflight.BaseFlightServer
	schema *arrow.Schema
	recs   []arrow.RecordBatch
	mu     sync.Mutex
	put    *agReceived
}

func (s *agServer) DoGet(_ *agflight.Ticket, st agflight.FlightService_DoGetServer) error {
	return agSend(agflight.NewRecordWriter(st, agipc.WithSchema(s.schema)), s.recs)
}

func (s *agServer) DoPut(st agflight.FlightService_DoPutServer) error {
	got, err := agDrain(st, func(app []byte) error {
		return st.Send(&agflight.PutResult{AppMetadata: app})
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.put = got
	s.mu.Unlock()
	return nil
}

func (s *agServer) DoExchange(st agflight.FlightService_DoExchangeServer) error {
	rr, err := agflight.NewRecordReader(st)
	if err != nil {
		return err
	}
	defer rr.Release()
	w := agflight.NewRecordWriter(st, agipc.WithSchema(rr.Schema()))
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

// TestArrowGoClientAlkaidServer: arrow-go's client authenticates, reads
// a FlightInfo, DoGets, DoPuts and DoExchanges against our server.
func TestArrowGoClientAlkaidServer(t *testing.T) {
	s, recs := interopBatches()
	svc := newMemService(s, recs)
	addr := serve(t, svc, WithAuth(NewStaticAuth(map[string]string{"ann": "secret"})))
	as, arecs := toArrowGo(t, s, recs)

	c, err := agflight.NewClientWithMiddleware(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer c.Close()
	ctx, err := c.AuthenticateBasicToken(context.Background(), "ann", "secret")
	require.NoError(t, err)
	info, err := c.GetFlightInfo(ctx, &agflight.FlightDescriptor{Type: agflight.DescriptorPATH, Path: []string{"mem"}})
	require.NoError(t, err)
	is, err := agflight.DeserializeSchema(info.Schema, nil)
	require.NoError(t, err)
	require.True(t, is.Equal(as), "FlightInfo schema")

	get, err := c.DoGet(ctx, info.Endpoint[0].Ticket)
	require.NoError(t, err)
	got, err := agDrain(get, nil)
	require.NoError(t, err)
	requireSameRecords(t, recs, fromArrowGo(t, got.schema, got.recs), "DoGet by arrow-go")
	require.Equal(t, wantMeta, got.meta)

	put, err := c.DoPut(ctx)
	require.NoError(t, err)
	w := agflight.NewRecordWriter(put, agipc.WithSchema(as))
	w.SetFlightDescriptor(&agflight.FlightDescriptor{Type: agflight.DescriptorPATH, Path: []string{"from-arrow-go"}})
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
	require.Equal(t, wantMeta, results)
	svc.mu.Lock()
	requireSameRecords(t, recs, svc.put["[from-arrow-go]"], "DoPut by arrow-go")
	var apps []string
	for _, a := range svc.app["[from-arrow-go]"] {
		apps = append(apps, string(a))
	}
	svc.mu.Unlock()
	require.Equal(t, wantMeta, apps)

	ex, err := c.DoExchange(ctx)
	require.NoError(t, err)
	var sendErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sendErr = agSend(agflight.NewRecordWriter(ex, agipc.WithSchema(as)), arecs)
		ex.CloseSend()
	}()
	got, err = agDrain(ex, nil)
	wg.Wait()
	require.NoError(t, errors.Join(err, sendErr))
	requireSameRecords(t, recs, fromArrowGo(t, got.schema, got.recs), "DoExchange by arrow-go")
	require.Equal(t, wantMeta, got.meta)
}

// TestAlkaidClientArrowGoServer: our client DoGets, DoPuts (each codec)
// and DoExchanges against arrow-go's server.
func TestAlkaidClientArrowGoServer(t *testing.T) {
	s, recs := interopBatches()
	as, arecs := toArrowGo(t, s, recs)
	ags := &agServer{schema: as, recs: arecs}
	srv := agflight.NewServerWithMiddleware(nil)
	require.NoError(t, srv.Init("127.0.0.1:0"))
	srv.RegisterFlightService(ags)
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve() }()
	t.Cleanup(func() { srv.Shutdown(); <-done })
	addr := srv.Addr().String()
	ctx := context.Background()

	c := dial(t, addr, WithReadOptions(ipc.WithValidation(array.ValidateFull)), WithWriteOptions(ipc.WithArrowCompat()))
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("any")})
	require.NoError(t, err)
	var got []*alkaid.Record
	var meta []string
	for rr.Next() {
		got, meta = append(got, rr.Record()), append(meta, string(rr.AppMetadata()))
	}
	require.NoError(t, rr.Err())
	requireSameRecords(t, recs, got, "DoGet from arrow-go")
	require.Equal(t, wantMeta, meta)

	for _, codec := range []ipc.Codec{ipc.Uncompressed, ipc.LZ4Frame, ipc.Zstd} {
		c := dial(t, addr, WithWriteOptions(ipc.WithArrowCompat(), ipc.WithCompression(codec, 0)))
		ps, err := c.Put(ctx, PathDescriptor("up"), s)
		require.NoError(t, err)
		for i, r := range recs {
			require.NoError(t, ps.WriteWithAppMetadata(r, appMeta(i)))
		}
		res, err := ps.Close()
		require.NoError(t, err, codec.String())
		meta = meta[:0]
		for _, r := range res {
			meta = append(meta, string(r.AppMetadata))
		}
		require.Equal(t, wantMeta, meta, codec.String())
		ags.mu.Lock()
		put := ags.put
		ags.put = nil
		ags.mu.Unlock()
		require.NotNil(t, put, codec.String())
		requireSameRecords(t, recs, fromArrowGo(t, put.schema, put.recs), "DoPut to arrow-go, "+codec.String())
		require.Equal(t, wantMeta, put.meta)
	}

	ex, err := c.Exchange(ctx, PathDescriptor("x"), s)
	require.NoError(t, err)
	for i, r := range recs {
		require.NoError(t, ex.WriteWithAppMetadata(r, appMeta(i)))
	}
	require.NoError(t, ex.CloseSend())
	er, err := ex.Reader()
	require.NoError(t, err)
	got, meta = got[:0], meta[:0]
	for er.Next() {
		got, meta = append(got, er.Record()), append(meta, string(er.AppMetadata()))
	}
	require.NoError(t, er.Err())
	requireSameRecords(t, recs, got, "DoExchange with arrow-go")
	require.Equal(t, wantMeta, meta)
}
