package flight

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// An endpoint at LocationReuseConnection is read through the client that
// Fetch was given; without one, the location cannot be dialled.
func TestFetchReuseConnection(t *testing.T) {
	s := randdata.AllTypes()
	dir := t.TempDir()
	recs := []*alkaid.Record{randdata.New(1).Record(s, 12), randdata.New(2).Record(s, 3)}
	writeIPC(t, filepath.Join(dir, "f.ipcs"), s, recs, false)
	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	info := &FlightInfo{Endpoint: []*FlightEndpoint{{
		Ticket:   &Ticket{Ticket: []byte("f.ipcs")},
		Location: []*Location{{Uri: LocationReuseConnection}},
	}}}
	got, err := fetchAll(context.Background(), c, info)
	require.NoError(t, err)
	requireSameRecords(t, recs, got, "reuse connection")

	_, err = fetchAll(context.Background(), nil, info)
	require.ErrorContains(t, err, "unsupported scheme")
}
