package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// TestServeListGet serves a directory, lists it and gets a flight to a
// stream file and to a file-format file.
func TestServeListGet(t *testing.T) {
	dir := t.TempDir()
	s := randdata.AllTypes()
	rec := randdata.New(3).Record(s, 40)
	recs := []*alkaid.Record{rec, rec.Slice(5, 25)}
	f, err := os.Create(filepath.Join(dir, "data.ipcs"))
	require.NoError(t, err)
	w, err := ipc.NewStreamWriter(f, s)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())

	ctx, url := serveDir(t, dir)

	var out bytes.Buffer
	require.NoError(t, run(ctx, []string{"list", url}, &out, nil))
	require.True(t, strings.HasPrefix(out.String(), "data.ipcs\t-1 rows\t"), out.String())

	outDir := t.TempDir()
	for _, name := range []string{"copy.ipcs", "copy.ipc"} {
		dst := filepath.Join(outDir, name)
		out.Reset()
		require.NoError(t, run(ctx, []string{"get", url, "data.ipcs", "-o", dst}, &out, nil))
		require.Equal(t, dst+": 60 rows in 2 batches\n", out.String())
		var got []*alkaid.Record
		if name == "copy.ipc" {
			fr, err := ipc.OpenFile(dst)
			require.NoError(t, err)
			for i := range fr.NumRecords() {
				r, err := fr.Record(i)
				require.NoError(t, err)
				got = append(got, r)
			}
		} else {
			b, err := os.ReadFile(dst)
			require.NoError(t, err)
			sr, err := ipc.NewStreamReaderBytes(b)
			require.NoError(t, err)
			for r, err := range sr.Records() {
				require.NoError(t, err)
				got = append(got, r)
			}
		}
		require.Len(t, got, 2)
		for i := range recs {
			require.Equal(t, recs[i].String(), got[i].String())
		}
	}
	require.ErrorContains(t, run(ctx, []string{"get", url, "missing.ipcs", "-o", filepath.Join(outDir, "x")}, &out, nil), "NotFound")
	require.Error(t, run(ctx, []string{"get", url}, &out, nil))
	require.Error(t, run(ctx, []string{"bogus"}, &out, nil))
}

// serveDir runs `serve [FLAGS] DIR` on a loopback port and returns the context the
// commands of the test run in and the server's URL; the server is stopped,
// and must stop without an error, when the test ends.
func serveDir(t *testing.T, dir string, flags ...string) (context.Context, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		args := append(append([]string{"serve", "-addr", "127.0.0.1:0"}, flags...), dir)
		done <- run(ctx, args, &bytes.Buffer{}, func(a string) { addrc <- a })
	}()
	select {
	case a := <-addrc:
		t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
		return ctx, "grpc://" + a
	case err := <-done:
		cancel()
		t.Fatalf("serve %s ended before listening: %v", dir, err)
		return nil, ""
	}
}
