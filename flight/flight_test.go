package flight

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/ipc"
)

// TestEveryRPC calls each of the ten RPCs of a server built from
// BaseService, with records of every type, dictionaries, app metadata and
// each compression codec.
func TestEveryRPC(t *testing.T) {
	s, recs := allTypeBatches()
	svc := newMemService(s, recs)
	addr := serve(t, svc)
	ctx := context.Background()
	for _, codec := range []ipc.Codec{ipc.Uncompressed, ipc.LZ4Frame, ipc.Zstd} {
		t.Run(codec.String(), func(t *testing.T) {
			c := dial(t, addr, WithWriteOptions(ipc.WithCompression(codec, 0)), WithReadOptions(ipc.WithValidation(array.ValidateFull)))

			// Handshake (raw stream)
			hs, err := c.Handshake(ctx)
			require.NoError(t, err)
			require.NoError(t, hs.Send(&HandshakeRequest{Payload: []byte("hi")}))
			require.NoError(t, hs.CloseSend())
			resp, err := hs.Recv()
			require.NoError(t, err)
			require.Equal(t, "hi", string(resp.Payload))

			// ListFlights, GetFlightInfo, PollFlightInfo, GetSchema
			var infos []*FlightInfo
			for fi, err := range c.Flights(ctx, nil) {
				require.NoError(t, err)
				infos = append(infos, fi)
			}
			require.Len(t, infos, 1)
			fi, err := c.GetFlightInfo(ctx, PathDescriptor("mem"))
			require.NoError(t, err)
			require.EqualValues(t, 50+33+20, fi.TotalRecords)
			pi, err := c.PollFlightInfo(ctx, PathDescriptor("mem"))
			require.NoError(t, err)
			require.Equal(t, 1.0, pi.GetProgress())
			got, err := c.Schema(ctx, PathDescriptor("mem"))
			require.NoError(t, err)
			require.True(t, s.Equal(got))
			_, err = c.GetFlightInfo(ctx, PathDescriptor("nope"))
			require.Equal(t, codes.NotFound, status.Code(err))

			// DoGet with app metadata on every batch
			rr, err := c.Get(ctx, fi.Endpoint[0].Ticket)
			require.NoError(t, err)
			var back []*alkaid.Record
			for rec, err := range rr.Records() {
				require.NoError(t, err)
				require.Equal(t, appMeta(len(back)), rr.AppMetadata())
				back = append(back, rec)
			}
			require.NoError(t, rr.Close())
			requireSameRecords(t, recs, back, "DoGet")

			// DoPut: metadata on each batch, one message of metadata only
			name := "put-" + codec.String()
			ps, err := c.Put(ctx, PathDescriptor(name), s)
			require.NoError(t, err)
			for i, r := range recs {
				require.NoError(t, ps.WriteWithAppMetadata(r, appMeta(i)))
			}
			require.NoError(t, ps.WriteAppMetadata([]byte("done")))
			err = ps.Close()
			results := ps.Results()
			require.NoError(t, err)
			require.Len(t, results, len(recs)+1)
			require.Equal(t, "done", string(results[len(recs)].AppMetadata))
			svc.mu.Lock()
			requireSameRecords(t, recs, svc.put["["+name+"]"], "DoPut")
			svc.mu.Unlock()

			// DoExchange: the server echoes, messages of metadata only
			// too, in their place
			ex, err := c.Exchange(ctx, PathDescriptor("x"), s)
			require.NoError(t, err)
			require.NoError(t, ex.WriteSchema())
			require.NoError(t, ex.WriteAppMetadata([]byte("start")))
			for i, r := range recs {
				require.NoError(t, ex.WriteWithAppMetadata(r, appMeta(i)))
			}
			require.NoError(t, ex.WriteAppMetadata([]byte("done")))
			require.NoError(t, ex.Close())
			er, err := ex.Reader()
			require.NoError(t, err)
			back = back[:0]
			for rec, err := range er.Records() {
				require.NoError(t, err)
				want := [][]byte(nil)
				if len(back) == 0 {
					want = [][]byte{[]byte("start")}
				}
				require.Equal(t, want, er.MetadataMessages(), "before batch %d", len(back))
				require.Equal(t, appMeta(len(back)), er.AppMetadata())
				back = append(back, rec)
			}
			require.Equal(t, [][]byte{[]byte("done")}, er.MetadataMessages(), "after the last batch")
			requireSameRecords(t, recs, back, "DoExchange")

			// ListActions, DoAction
			la, err := c.ListActions(ctx, &Empty{})
			require.NoError(t, err)
			at, err := la.Recv()
			require.NoError(t, err)
			require.Equal(t, "echo", at.Type)
			_, err = la.Recv()
			require.Equal(t, io.EOF, err)
			bodies, err := c.Actions(ctx, "echo", []byte("x"))
			require.NoError(t, err)
			require.Equal(t, [][]byte{[]byte("x"), []byte("x")}, bodies)
			_, err = c.Actions(ctx, "nope", nil)
			require.Equal(t, codes.InvalidArgument, status.Code(err))
		})
	}
}

// TestBaseServiceUnimplemented: every call of a bare BaseService answers
// Unimplemented.
func TestBaseServiceUnimplemented(t *testing.T) {
	c := dial(t, serve(t, &BaseService{}))
	ctx := context.Background()
	code := func(err error) codes.Code { return status.Code(err) }
	recvErr := func(s interface{ RecvMsg(any) error }, err error) error {
		if err != nil {
			return err
		}
		return s.RecvMsg(new(FlightData))
	}
	_, err := c.GetFlightInfo(ctx, PathDescriptor("a"))
	require.Equal(t, codes.Unimplemented, code(err))
	_, err = c.PollFlightInfo(ctx, PathDescriptor("a"))
	require.Equal(t, codes.Unimplemented, code(err))
	_, err = c.GetSchema(ctx, PathDescriptor("a"))
	require.Equal(t, codes.Unimplemented, code(err))
	for name, call := range map[string]func() error{
		"Handshake":   func() error { s, err := c.Handshake(ctx); return recvErr(s, err) },
		"ListFlights": func() error { s, err := c.ListFlights(ctx, &Criteria{}); return recvErr(s, err) },
		"DoGet":       func() error { s, err := c.DoGet(ctx, &Ticket{}); return recvErr(s, err) },
		"DoPut":       func() error { s, err := c.DoPut(ctx); return recvErr(s, err) },
		"DoExchange":  func() error { s, err := c.DoExchange(ctx); return recvErr(s, err) },
		"DoAction":    func() error { s, err := c.DoAction(ctx, &Action{}); return recvErr(s, err) },
		"ListActions": func() error { s, err := c.ListActions(ctx, &Empty{}); return recvErr(s, err) },
	} {
		require.Equal(t, codes.Unimplemented, code(call()), name)
	}
}

// TestMaxMessageSize: a message over the client's limit is refused by
// gRPC from its length prefix.
func TestMaxMessageSize(t *testing.T) {
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs))
	c := dial(t, addr, WithMaxMessageSize(1024))
	rr, err := c.Get(context.Background(), &Ticket{Ticket: []byte("mem")})
	if err == nil {
		_, err = readRecords(rr)
	}
	require.Error(t, err)
	require.Equal(t, codes.ResourceExhausted, status.Code(errorsUnwrapAll(err)), "%v", err)

	// A server refuses an upload message over its limit, and stays up.
	svc := newMemService(s, recs)
	addr = serve(t, svc, WithMaxMessageSize(1024))
	c = dial(t, addr)
	ps, err := c.Put(context.Background(), PathDescriptor("big"), s)
	require.NoError(t, err)
	for _, r := range recs {
		if ps.Write(r) != nil {
			break
		}
	}
	err = ps.Close()
	require.Equal(t, codes.ResourceExhausted, status.Code(errorsUnwrapAll(err)), "%v", err)
	bodies, err := c.Actions(context.Background(), "echo", []byte("up"))
	require.NoError(t, err)
	require.Len(t, bodies, 2)
}

func ExampleClient_Get() {
	// A server with one flight of one batch, on a loopback port.
	schema, recs := exampleRecords()
	addr, stop := exampleServer(newMemService(schema, recs))
	defer stop()

	c, _ := Dial(addr)
	defer c.Close()
	ctx := context.Background()
	info, _ := c.GetFlightInfo(ctx, PathDescriptor("mem"))
	rr, _ := c.Get(ctx, info.Endpoint[0].Ticket)
	defer rr.Close()
	for rec, err := range rr.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %d rows, %d columns\n", rr.AppMetadata(), rec.NumRows(), rec.NumCols())
	}
	// Output:
	// batch-0: 3 rows, 2 columns
}
