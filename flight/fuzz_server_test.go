package flight

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/parquet"
)

// rawCodec sends a []byte as the message itself, so that a fuzz input
// reaches the server's FlightData decoding as it came off the wire.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	if b, ok := v.(*[]byte); ok {
		return mem.BufferSlice{mem.SliceBuffer(*b)}, nil
	}
	return encoding.GetCodecV2("proto").Marshal(v)
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	return encoding.GetCodecV2("proto").Unmarshal(data, v)
}

// fuzzConn serves a writable DirService with an IPC stream, an IPC file
// and a Parquet file, behind a Server with default limits, on an
// in-memory listener, and returns a gRPC client of it.
func fuzzConn(f *testing.F) *grpc.ClientConn {
	dir := f.TempDir()
	s, recs := allTypeBatches()
	writeIPC(f, filepath.Join(dir, "s.ipcs"), s, recs, false)
	writeIPC(f, filepath.Join(dir, "f.ipc"), s, recs[:2], true)
	rec := wideRecord(100, 3)
	pf, err := os.Create(filepath.Join(dir, "p.parquet"))
	require.NoError(f, err)
	w, err := parquet.NewWriter(pf, rec.Schema(), parquet.WithRowGroupRows(40))
	require.NoError(f, err)
	require.NoError(f, w.Write(rec))
	require.NoError(f, w.Close())
	require.NoError(f, pf.Close())
	svc, err := NewDirService(dir, WithWritable())
	require.NoError(f, err)
	l := bufconn.Listen(1 << 20)
	srv, err := NewServer(svc)
	require.NoError(f, err)
	go srv.Serve(l)
	conn, err := grpc.NewClient("passthrough:///fuzz",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return l.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(f, err)
	f.Cleanup(func() { conn.Close(); srv.Stop(); svc.Close() })
	return conn
}

// putMessages frames FlightData messages as FuzzServer reads them: each
// after a two-byte length.
func putMessages(msgs ...[]byte) []byte {
	var out []byte
	for _, m := range msgs {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(m)))
		out = append(out, m...)
	}
	return out
}

// FuzzServer runs the server's request path on fuzz bytes, with default
// limits: the first byte picks a call (GetFlightInfo, GetSchema, DoGet,
// DoPut), the rest is its descriptor (protobuf bytes, or a path), its
// ticket, or its FlightData messages exactly as they come off the wire.
// Every call must end, within seconds, with an answer or a gRPC error.
func FuzzServer(f *testing.F) {
	conn := fuzzConn(f)
	desc := func(p string) []byte { b, _ := proto.Marshal(PathDescriptor(p)); return b }
	for _, p := range []string{"s.ipcs", "f.ipc", "p.parquet", "../x.ipc", "missing.parquet"} {
		f.Add(append([]byte{0}, desc(p)...))
		f.Add(append([]byte{1}, p...))
		f.Add(append([]byte{2}, p...))
	}
	s, recs := allTypeBatches()
	var sink collect
	w := newWriter(f, &sink, s)
	w.SetDescriptor(PathDescriptor("up"))
	if err := w.Write(recs[1]); err != nil {
		f.Fatal(err)
	}
	var msgs [][]byte
	for _, m := range sink.msgs {
		b, err := proto.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		msgs = append(msgs, b)
	}
	f.Add(append([]byte{3}, putMessages(msgs...)...))
	f.Add(append([]byte{3}, putMessages(msgs[0])...))

	client := pb.NewFlightServiceClient(conn)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 16<<10 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		op, rest := data[0]%4, data[1:]
		d := &FlightDescriptor{}
		if proto.Unmarshal(rest, d) != nil {
			d = PathDescriptor(string(rest))
		}
		var err error
		switch op {
		case 0:
			_, err = client.GetFlightInfo(ctx, d)
		case 1:
			_, err = client.GetSchema(ctx, PathDescriptor(string(rest)))
		case 2:
			var st pb.FlightService_DoGetClient
			if st, err = client.DoGet(ctx, &Ticket{Ticket: rest}); err == nil {
				var rr *RecordReader
				if rr, err = NewRecordReader(st); err == nil {
					_, err = readRecords(rr)
				}
			}
		case 3:
			err = fuzzPut(ctx, conn, rest)
		}
		if err != nil && ctx.Err() != nil {
			t.Fatalf("call %d did not end: %v", op, err)
		}
		if _, ok := status.FromError(err); err != nil && !ok && op != 2 {
			t.Fatalf("call %d: not a gRPC error: %v", op, err)
		}
	})
}

// fuzzPut sends the framed messages of data as a DoPut and reads the
// answers.
func fuzzPut(ctx context.Context, conn *grpc.ClientConn, data []byte) error {
	st, err := conn.NewStream(ctx, &pb.FlightService_ServiceDesc.Streams[3], pb.FlightService_DoPut_FullMethodName, grpc.ForceCodecV2(rawCodec{}))
	if err != nil {
		return err
	}
	for len(data) >= 2 {
		n := int(binary.LittleEndian.Uint16(data))
		data = data[2:]
		m := data[:min(n, len(data))]
		data = data[len(m):]
		if err := st.SendMsg(&m); err != nil {
			break // the server answered; its status comes below
		}
	}
	st.CloseSend()
	for {
		var r PutResult
		if err := st.RecvMsg(&r); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}
