package flight

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

func writeIPC(t testing.TB, path string, s *alkaid.Schema, recs []*alkaid.Record, file bool) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	type writer interface {
		Write(*alkaid.Record) error
		Close() error
	}
	var w writer
	if file {
		w, err = ipc.NewFileWriter(f, s)
	} else {
		w, err = ipc.NewStreamWriter(f, s)
	}
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
}

func TestDirService(t *testing.T) {
	dir := t.TempDir()
	s := randdata.AllTypes()
	a := randdata.New(7).Record(s, 30)
	recs := []*alkaid.Record{a, a.Slice(3, 20)}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	writeIPC(t, filepath.Join(dir, "a.ipc"), s, recs, true)
	writeIPC(t, filepath.Join(dir, "sub", "b.ipcs"), s, recs, false)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken.ipcs"), []byte("not ipc"), 0o644))

	svc, err := NewDirService(dir, WithWritable())
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()

	var names []string
	for fi, err := range c.Flights(ctx, nil) {
		require.NoError(t, err)
		names = append(names, fi.FlightDescriptor.Path[0])
	}
	// sub is also a dataset (of its one file)
	require.ElementsMatch(t, []string{"a.ipc", "sub", "sub/b.ipcs"}, names)

	for _, name := range names {
		got, err := c.Schema(ctx, PathDescriptor(name))
		require.NoError(t, err)
		require.True(t, s.Equal(got))
		fi, err := c.GetFlightInfo(ctx, PathDescriptor(name))
		require.NoError(t, err)
		rr, err := c.Get(ctx, fi.Endpoint[0].Ticket)
		require.NoError(t, err)
		back, err := readRecords(rr)
		require.NoError(t, err)
		requireSameRecords(t, recs, back, name)
	}
	for _, bad := range []string{"../x.ipc", "/etc/passwd", "missing.ipc", "notes.txt"} {
		_, err := c.GetFlightInfo(ctx, PathDescriptor(bad))
		require.Equal(t, codes.NotFound, status.Code(err), bad)
	}
	_, err = c.GetFlightInfo(ctx, PathDescriptor("broken.ipcs"))
	require.Equal(t, codes.DataLoss, status.Code(err))

	// DoPut stores a new stream file, and refuses to replace one.
	ps, err := c.Put(ctx, PathDescriptor("up"), s)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, ps.Write(r))
	}
	err = ps.Close()
	res := ps.Results()
	require.NoError(t, err)
	require.Empty(t, res, "no PutResult for batches without app metadata")
	fi, err := c.GetFlightInfo(ctx, PathDescriptor("up"))
	require.NoError(t, err)
	require.Equal(t, "up.ipcs", string(fi.Endpoint[0].Ticket.Ticket))
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("up.ipcs")})
	require.NoError(t, err)
	back, err := readRecords(rr)
	require.NoError(t, err)
	requireSameRecords(t, recs, back, "uploaded")
	ps, err = c.Put(ctx, PathDescriptor("up"), s)
	require.NoError(t, err)
	err = ps.Close()
	require.Equal(t, codes.AlreadyExists, status.Code(errorsUnwrapAll(err)), "%v", err)
}

func errorsUnwrapAll(err error) error {
	for {
		if _, ok := status.FromError(err); ok {
			return err
		}
		type unwrapper interface{ Unwrap() error }
		u, ok := err.(unwrapper)
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

// TestFetchScaleOut: three servers on loopback each hold one partition
// of a dataset; one FlightInfo lists the three endpoints and Fetch reads
// them concurrently, in order or as they come.
func TestFetchScaleOut(t *testing.T) {
	s := randdata.AllTypes()
	const parts = 3
	var want []*alkaid.Record
	info := &FlightInfo{}
	for p := range parts {
		dir := t.TempDir()
		var recs []*alkaid.Record
		for i := range 4 {
			recs = append(recs, randdata.New(uint64(100*p+i)).Record(s, 10+i))
		}
		writeIPC(t, filepath.Join(dir, "part.ipcs"), s, recs, false)
		want = append(want, recs...)
		svc, err := NewDirService(dir)
		require.NoError(t, err)
		t.Cleanup(func() { svc.Close() })
		addr := serve(t, svc)
		info.Endpoint = append(info.Endpoint, &FlightEndpoint{
			Ticket: &Ticket{Ticket: []byte("part.ipcs")},
			// the first location is dead: Fetch moves on to the next one
			Location: []*Location{{Uri: "grpc://127.0.0.1:1"}, {Uri: "grpc://" + addr}},
		})
	}
	ctx := context.Background()
	for _, conc := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("ordered-%d", conc), func(t *testing.T) {
			got, err := fetchAll(ctx, nil, info, WithConcurrency(conc))
			require.NoError(t, err)
			requireSameRecords(t, want, got, "ordered")
		})
		t.Run(fmt.Sprintf("unordered-%d", conc), func(t *testing.T) {
			seen := map[string]int{}
			for _, r := range want {
				seen[r.String()]++
			}
			got, err := fetchAll(ctx, nil, info, WithConcurrency(conc), WithUnordered())
			require.NoError(t, err)
			for _, rec := range got {
				seen[rec.String()]--
			}
			require.Equal(t, len(want), len(got))
			for k, v := range seen {
				require.Zero(t, v, "%.80s", k)
			}
		})
	}
	t.Run("early stop", func(t *testing.T) {
		before := fetchGoroutines()
		for _, opts := range [][]Option{{WithBuffer(1)}, {WithBuffer(1), WithUnordered()}} {
			r, err := Fetch(ctx, nil, info, opts...)
			require.NoError(t, err)
			n := 0
			for _, err := range r.Records() {
				require.NoError(t, err)
				if n++; n == 2 {
					break
				}
			}
			require.NoError(t, r.Close())
		}
		waitFor(t, "fetch goroutines to end", func() bool { return fetchGoroutines() <= before })
	})
	t.Run("endpoint error", func(t *testing.T) {
		bad := &FlightInfo{Endpoint: append([]*FlightEndpoint{{Ticket: &Ticket{Ticket: []byte("nope.ipc")}, Location: info.Endpoint[0].Location}}, info.Endpoint...)}
		_, err := fetchAll(ctx, nil, bad)
		require.ErrorContains(t, err, "endpoint 0")
		bad.Schema = info.Schema
		_, err = fetchAll(ctx, nil, bad)
		require.ErrorContains(t, err, "endpoint 0")
		_, err = fetchAll(ctx, nil, &FlightInfo{Endpoint: []*FlightEndpoint{{Ticket: &Ticket{}}}})
		require.ErrorContains(t, err, "no location")
		require.ErrorIs(t, err, ipc.ErrInvalid)
		other, err := EncodeSchema(alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int8}}, datatype.Metadata{}))
		require.NoError(t, err)
		_, err = fetchAll(ctx, nil, &FlightInfo{Schema: other, Endpoint: info.Endpoint})
		require.ErrorIs(t, err, ipc.ErrInvalid, "an endpoint of another schema")
		require.ErrorContains(t, err, "differs from the flight's")
	})
}

// fetchGoroutines counts the goroutines of Fetch, of gRPC connections
// (client and server side) and of DirService calls: what a Fetch starts
// and must see end. The total of all goroutines also moves with those
// that come and go on their own (the runtime's finalizer and cleanup
// goroutines while they run user code); comparing it failed once on a
// loaded machine.
func fetchGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, mark := range []string{
			"flight.(*fetch)", "flight.(*dialer)",
			"grpc.(*ClientConn)", "grpc.(*addrConn)", "grpc.(*ccBalancerWrapper)", "grpc.(*ccResolverWrapper)",
			"transport.newHTTP2Client", "transport.(*http2Client)",
			"flight.(*DirService)", "grpc.(*Server).serveStreams", "grpc.(*Server).handleRawConn",
			"transport.NewServerTransport", "transport.(*http2Server)",
		} {
			if strings.Contains(g, mark) {
				count++
				break
			}
		}
	}
	return count
}

// fetchAll reads every record Fetch gives, and closes its reader.
func fetchAll(ctx context.Context, self *Client, info *FlightInfo, opts ...Option) ([]*alkaid.Record, error) {
	r, err := Fetch(ctx, self, info, opts...)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readRecords(r)
}
