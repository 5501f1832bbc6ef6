package flight

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/ipc"
)

// fakeStream hands out fixed FlightData messages.
type fakeStream struct{ msgs []*FlightData }

func (f *fakeStream) Recv() (*FlightData, error) {
	if len(f.msgs) == 0 {
		return nil, io.EOF
	}
	m := f.msgs[0]
	f.msgs = f.msgs[1:]
	return m, nil
}

// validMessages encodes a small record of every type.
func validMessages(t testing.TB) []*FlightData {
	s := randdata.AllTypes()
	rec := randdata.New(5).Record(s, 4)
	var sink collect
	w := newWriter(t, &sink, s)
	require.NoError(t, w.Write(rec))
	return sink.msgs
}

type collect struct{ msgs []*FlightData }

func (c *collect) Send(m *FlightData) error { c.msgs = append(c.msgs, m); return nil }

// TestHostileFlightData: malformed FlightData gives an error naming the
// message, never a panic.
func TestHostileFlightData(t *testing.T) {
	good := validMessages(t)
	schema, last := good[0], good[len(good)-1]
	huge := append([]byte(nil), last.DataHeader...)
	tests := []struct {
		name string
		msgs []*FlightData
		want string
	}{
		{"empty stream", nil, "ended before its schema"},
		{"garbage header", []*FlightData{{DataHeader: []byte{1, 2, 3}}}, "message 1"},
		{"body without header", []*FlightData{{DataBody: []byte{1}}}, "without a data header"},
		{"record before schema", []*FlightData{last}, "before the schema"},
		{"short body", []*FlightData{schema, {DataHeader: last.DataHeader, DataBody: last.DataBody[:len(last.DataBody)/2]}}, "metadata says"},
		{"no body", []*FlightData{schema, {DataHeader: huge}}, "metadata says"},
		{"second schema", []*FlightData{schema, schema}, "a second schema"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rr, err := NewRecordReader(&fakeStream{msgs: tc.msgs})
			if err == nil {
				_, err = readRecords(rr)
			}
			require.ErrorContains(t, err, tc.want)
		})
	}
	// A server gets the same errors from a DoPut and stays up.
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs))
	c := dial(t, addr)
	for _, tc := range tests[1:] {
		st, err := c.DoPut(context.Background())
		require.NoError(t, err)
		for _, m := range tc.msgs {
			require.NoError(t, st.Send(m))
		}
		require.NoError(t, st.CloseSend())
		for err == nil {
			_, err = st.Recv()
		}
		require.Equal(t, codes.InvalidArgument, status.Code(err), "%s: %v", tc.name, err)
		require.ErrorContains(t, err, tc.want, tc.name)
	}
}

// FuzzRecordReader feeds FlightData cut from the fuzz input (a header
// and a body per message) to the reader: errors, never panics.
func FuzzRecordReader(f *testing.F) {
	for _, m := range validMessages(f)[:2] {
		f.Add(m.DataHeader, m.DataBody)
	}
	good := validMessages(f)
	f.Fuzz(func(t *testing.T, header, body []byte) {
		msgs := []*FlightData{good[0], {DataHeader: header, DataBody: body}}
		if rr, err := NewRecordReader(&fakeStream{msgs: msgs}, ipc.WithValidation(array.ValidateFull)); err == nil {
			for rec, err := range rr.Records() {
				if err != nil {
					break
				}
				for c := range rec.NumCols() {
					_ = rec.Column(c).String()
				}
			}
		}
	})
}

// TestAuth: basic credentials become a bearer token through Handshake;
// calls without it are refused.
func TestAuth(t *testing.T) {
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs), WithAuth(NewStaticAuth(map[string]string{"ann": "secret"})))
	ctx := context.Background()
	c := dial(t, addr)
	_, err := c.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.Equal(t, codes.Unauthenticated, status.Code(err))
	_, err = c.Get(ctx, &Ticket{Ticket: []byte("mem")})
	require.Equal(t, codes.Unauthenticated, status.Code(errors.Unwrap(err)), "%v", err)
	require.Equal(t, codes.Unauthenticated, status.Code(errors.Unwrap(c.Authenticate(ctx, "ann", "wrong"))))
	require.NoError(t, c.Authenticate(ctx, "ann", "secret"))
	_, err = c.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.NoError(t, err)
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	requireSameRecords(t, recs, got, "authenticated DoGet")
}

// selfSigned makes a certificate for 127.0.0.1.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "flight test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

func TestTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs), WithTLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	ctx := context.Background()
	c := dial(t, "grpc+tls://"+addr, WithTLS(&tls.Config{RootCAs: pool}))
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	requireSameRecords(t, recs, got, "TLS DoGet")
	// A client that does not trust the certificate fails.
	bad := dial(t, "grpc+tls://"+addr)
	_, err = bad.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	// Plain text to a TLS server fails too.
	plain := dial(t, addr)
	_, err = plain.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.Error(t, err)
}

// bigBatches are n batches of about 1 MiB each.
func bigBatches(n int) (*alkaid.Schema, []*alkaid.Record) {
	s := alkaid.NewSchema(randdata.AllTypes().Fields()[5:6], randdata.AllTypes().Metadata()) // int64
	rec := randdata.New(9).Record(s, 1<<17)
	out := make([]*alkaid.Record, n)
	for i := range out {
		out[i] = rec
	}
	return s, out
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.Fail(t, "timed out waiting", what)
}

// TestDisconnectMidStream: clients that cancel a DoGet after two batches
// leave no server handler, no goroutine and no memory behind.
func TestDisconnectMidStream(t *testing.T) {
	s, recs := bigBatches(200)
	svc := newMemService(s, recs)
	addr := serve(t, svc)
	c := dial(t, addr)
	fetchTwo := func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rr, err := c.Get(ctx, &Ticket{Ticket: []byte("mem")})
		require.NoError(t, err)
		n := 0
		for _, err := range rr.Records() {
			require.NoError(t, err)
			if n++; n == 2 {
				break
			}
		}
		require.Equal(t, 2, n)
	}
	fetchTwo() // connection and pools warm
	waitFor(t, "handler to end", func() bool { return svc.running.Load() == 0 })
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	pooledBefore := rawmem.Pooled()
	goroutines := runtime.NumGoroutine()
	for range 20 {
		fetchTwo()
	}
	waitFor(t, "handlers to end", func() bool { return svc.running.Load() == 0 })
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= goroutines })
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	// 20 streams of up to 200 MiB each were cut: what remains live must be
	// far below one stream.
	grown := int64(after.HeapAlloc) - int64(rawmem.Pooled()) - int64(before.HeapAlloc) + int64(pooledBefore)
	require.Less(t, grown, int64(16<<20), "heap grew by %d bytes", grown)
	require.Less(t, svc.sent.Load(), int64(21*200), "the server stopped sending early")
}

// TestBackpressure: a client that stops reading holds the server to a
// few batches; it does not produce the whole flight into memory.
func TestBackpressure(t *testing.T) {
	s, recs := bigBatches(200)
	svc := newMemService(s, recs)
	c := dial(t, serve(t, svc))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	n := 0
	for _, err := range rr.Records() {
		require.NoError(t, err)
		if n++; n == 1 {
			time.Sleep(300 * time.Millisecond)
			t.Logf("batches sent while the client read one: %d", svc.sent.Load())
			require.Less(t, svc.sent.Load(), int64(8), "batches of 1 MiB sent while the client read one")
		}
	}
	require.Equal(t, 200, n)
}

// TestConcurrentClients: 64 clients, each on its own connection, fetch
// at once and all receive every batch intact.
func TestConcurrentClients(t *testing.T) {
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs))
	var wg sync.WaitGroup
	errs := make([]error, 64)
	got := make([][]*alkaid.Record, 64)
	for i := range 64 {
		wg.Go(func() {
			c, err := Dial(addr)
			if err != nil {
				errs[i] = err
				return
			}
			defer c.Close()
			rr, err := c.Get(context.Background(), &Ticket{Ticket: []byte("mem")})
			if err != nil {
				errs[i] = err
				return
			}
			got[i], errs[i] = readRecords(rr)
		})
	}
	wg.Wait()
	for i := range 64 {
		require.NoError(t, errs[i], "client %d", i)
		requireSameRecords(t, recs, got[i], "client")
	}
}

// TestWriterSendsRecordBuffers: one batch of int64 values and a validity
// bitmap travels as one body of exactly those bytes.
func TestWriterSendsRecordBuffers(t *testing.T) {
	s, recs := bigBatches(1)
	var sink collect
	require.NoError(t, newWriter(t, &sink, s).Write(recs[0]))
	require.Len(t, sink.msgs, 2)
	require.Equal(t, 1<<17*8+(1<<17)/8, len(sink.msgs[1].DataBody))
	rr, err := NewRecordReader(&fakeStream{msgs: sink.msgs})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	requireSameRecords(t, recs, got, "one big batch")
}
