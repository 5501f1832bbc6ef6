package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/parquet"
)

// TestHelp: -h, -help, --help and help print the usage and succeed, for
// the command and its subcommands.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"-help"}, {"--help"}, {"help"}, {"serve", "-h"}, {"get", "-h"}, {"list", "-h"}} {
		var out bytes.Buffer
		require.NoError(t, run(context.Background(), args, &out, nil), "%q", args)
		require.Contains(t, out.String(), "serve", "%q", args)
	}
}

// TestServeRowGroupToDefaultClient: serve sends a 30,720-row row group
// of 7 MiB to a client that accepts messages of 4 MiB (gRPC's default),
// in slices; with -max-message-size it sends it whole to a client that
// accepts that.
func TestServeRowGroupToDefaultClient(t *testing.T) {
	dir := t.TempDir()
	fields := make([]datatype.Field, 30)
	for i := range fields {
		fields[i] = datatype.Field{Name: fmt.Sprintf("c%d", i), Type: datatype.Int64}
	}
	s := alkaid.NewSchema(fields, datatype.Metadata{})
	rec := randdata.New(9).Record(s, 30720)
	f, err := os.Create(filepath.Join(dir, "t.parquet"))
	require.NoError(t, err)
	w, err := parquet.NewWriter(f, s, parquet.WithRowGroupRows(30720))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())

	read := func(url string, maxMsg int) []*alkaid.Record {
		c, err := flight.Dial(url, flight.WithMaxMessageSize(maxMsg))
		require.NoError(t, err)
		defer c.Close()
		rr, err := c.Get(context.Background(), &flight.Ticket{Ticket: []byte("t.parquet")})
		require.NoError(t, err)
		defer rr.Close()
		var got []*alkaid.Record
		for rec, err := range rr.Records() {
			require.NoError(t, err)
			got = append(got, rec)
		}
		return got
	}
	_, url := serveDir(t, dir)
	got := read(url, 4<<20)
	require.Greater(t, len(got), 1)
	off := 0
	for _, g := range got {
		require.Equal(t, rec.Slice(off, off+g.NumRows()).String(), g.String())
		off += g.NumRows()
	}
	require.Equal(t, rec.NumRows(), off)

	_, url = serveDir(t, dir, "-max-message-size", fmt.Sprint(16<<20))
	got = read(url, 16<<20)
	require.Len(t, got, 1)
	require.Equal(t, rec.String(), got[0].String())
}

// TestServeFlagsRefused: serve refuses sizes and timeouts that are not
// positive.
func TestServeFlagsRefused(t *testing.T) {
	for _, flag := range [][]string{{"-memory", "0"}, {"-max-message-size", "-1"}, {"-send-timeout", "0s"}} {
		args := append(append([]string{"serve"}, flag...), t.TempDir())
		require.ErrorContains(t, run(context.Background(), args, &bytes.Buffer{}, nil), "must be positive", "%q", flag)
	}
}
