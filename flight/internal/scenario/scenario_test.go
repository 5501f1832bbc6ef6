package scenario

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/integration"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// serveService serves svc on a loopback port and returns the port.
func serveService(t *testing.T, l net.Listener, svc flight.Service, opts []flight.Option) {
	t.Helper()
	srv, err := flight.NewServer(svc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(l) }()
	t.Cleanup(func() { srv.Stop(); <-done })
}

// serveScenario runs sc's server on a loopback port and returns its address.
func serveScenario(t *testing.T, sc Scenario) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	svc, opts, stop, err := sc.Server(l.Addr().(*net.TCPAddr).Port)
	require.NoError(t, err)
	t.Cleanup(stop)
	serveService(t, l, svc, opts)
	return l.Addr().String()
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// writeJSON writes batches of every type to an integration JSON file.
func writeJSON(t *testing.T, batches int) string {
	s := randdata.AllTypes()
	s = alkaid.NewSchema(s.Fields(), datatype.MetadataFrom("origin", "scenario test"))
	all := randdata.New(1).Record(s, 10*batches) // one dictionary per id, as the format has
	var recs []*alkaid.Record
	for i := range batches {
		recs = append(recs, all.Slice(10*i, 10*i+10))
	}
	p := filepath.Join(t.TempDir(), "file.json")
	f, err := os.Create(p)
	require.NoError(t, err)
	require.NoError(t, integration.Write(f, s, recs))
	require.NoError(t, f.Close())
	return p
}

func TestRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		sc, err := Get("", writeJSON(t, n))
		require.NoError(t, err)
		require.NoError(t, sc.Client(ctx(t), serveScenario(t, sc)), "%d batches", n)
	}
}

// The client fails, saying why, on a server whose endpoints have no
// location and on a file it cannot read.
func TestRoundTripFails(t *testing.T) {
	svc, err := flight.NewDirService(t.TempDir(), flight.WithWritable())
	require.NoError(t, err)
	defer svc.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	serveService(t, l, svc, nil)
	sc, err := Get("", writeJSON(t, 2))
	require.NoError(t, err)
	err = sc.Client(ctx(t), l.Addr().String())
	require.ErrorContains(t, err, "no locations")

	sc, err = Get("", filepath.Join(t.TempDir(), "missing.json"))
	require.NoError(t, err)
	require.Error(t, sc.Client(ctx(t), l.Addr().String()))

	_, err = Get("no such scenario", "")
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "scenario not found"), "%v", err)
}

// Every named scenario's client passes against its server.
func TestNamedScenarios(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			sc, err := Get(name, "")
			require.NoError(t, err)
			require.NoError(t, sc.Client(ctx(t), serveScenario(t, sc)))
		})
	}
}

// Every named scenario's client fails against a server that serves
// nothing: its checks do check.
func TestNamedScenariosFailAgainstNothing(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	serveService(t, l, flight.BaseService{}, nil)
	for _, name := range Names() {
		sc, err := Get(name, "")
		require.NoError(t, err)
		require.Error(t, sc.Client(ctx(t), l.Addr().String()), name)
	}
}
