package flight

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// NewFSService serves the files and datasets of an fs.FS as NewDirService
// serves a directory's, and refuses DirWritable.
func TestFSService(t *testing.T) {
	s := randdata.AllTypes()
	a := randdata.New(3).Record(s, 20)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, s)
	require.NoError(t, err)
	require.NoError(t, w.Write(a))
	require.NoError(t, w.Close())
	fsys := fstest.MapFS{
		"ds/k=1/a.arrow": {Data: buf.Bytes()},
		"ds/k=2/b.arrow": {Data: buf.Bytes()},
	}
	_, err = NewFSService(fsys, DirWritable())
	require.True(t, errors.Is(err, ipc.ErrInvalid), "%v", err)

	svc, err := NewFSService(fsys)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()
	fi, err := c.GetFlightInfo(ctx, PathDescriptor("ds"))
	require.NoError(t, err)
	require.Len(t, fi.Endpoint, 2)
	rows := 0
	for rec, err := range Fetch(ctx, c, fi, FetchOptions{}) {
		require.NoError(t, err)
		rows += rec.NumRows()
	}
	require.Equal(t, 40, rows)
	fi, err = c.GetFlightInfo(ctx, PathDescriptor("ds/k=1/a.arrow"))
	require.NoError(t, err)
	rows = 0
	for rec, err := range Fetch(ctx, c, fi, FetchOptions{}) {
		require.NoError(t, err)
		rows += rec.NumRows()
	}
	require.Equal(t, 20, rows)
}
