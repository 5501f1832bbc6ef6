package flight

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/internal/randdata"
)

// TestDirPutNeverReplacesLinks: DoPut to the name of a symbolic link,
// one leading out of the directory or to nothing, is AlreadyExists; the
// link and what it leads to are left as they were.
func TestDirPutNeverReplacesLinks(t *testing.T) {
	outside, dir := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "target.ipcs")
	require.NoError(t, os.WriteFile(target, []byte("original"), 0o644))
	require.NoError(t, os.Symlink(target, filepath.Join(dir, "out.ipcs")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "none.ipcs"), filepath.Join(dir, "dangling.ipcs")))
	svc, err := NewDirService(dir, WithWritable())
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	s, recs := allTypeBatches()
	for _, name := range []string{"out.ipcs", "dangling.ipcs"} {
		ps, err := c.Put(context.Background(), PathDescriptor(name), s)
		require.NoError(t, err)
		ps.Write(recs[0]) // the server may have answered already
		err = ps.Close()
		require.Equal(t, codes.AlreadyExists, status.Code(errorsUnwrapAll(err)), "%s: %v", name, err)
		fi, err := os.Lstat(filepath.Join(dir, name))
		require.NoError(t, err)
		require.Equal(t, os.ModeSymlink, fi.Mode().Type(), "%s is still a link", name)
	}
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	require.Equal(t, "original", string(b))
	_, err = os.Stat(filepath.Join(outside, "none.ipcs"))
	require.ErrorIs(t, err, os.ErrNotExist)
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, left, 2, "no temporary file left behind")
}

// TestDirEscapingLinkNotFound: a link leading out of the directory is
// answered as a missing flight is (NotFound, the same message), not with
// an error that tells the link is there.
func TestDirEscapingLinkNotFound(t *testing.T) {
	outside, dir := t.TempDir(), t.TempDir()
	s, recs := allTypeBatches()
	writeIPC(t, filepath.Join(outside, "secret.ipcs"), s, recs, false)
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.ipcs"), filepath.Join(dir, "link.ipcs")))
	svc, err := NewDirService(dir)
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()
	msg := func(err error) string {
		st, _ := status.FromError(err)
		return strings.ReplaceAll(st.Message(), "link.ipcs", "NAME")
	}
	_, err = c.GetFlightInfo(ctx, PathDescriptor("link.ipcs"))
	require.Equal(t, codes.NotFound, status.Code(err), "%v", err)
	_, missing := c.GetFlightInfo(ctx, PathDescriptor("NAME"+".ipcs"))
	require.Equal(t, strings.ReplaceAll(msg(missing), "NAME.ipcs", "NAME"), msg(err))
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("link.ipcs")})
	if err == nil {
		_, err = readRecords(rr)
	}
	require.Equal(t, codes.NotFound, status.Code(errorsUnwrapAll(err)), "%v", err)
}

// TestErrorsDoNotEchoLongNames: a 1 MB flight path or ticket is cut to
// about 100 bytes in the error that answers it.
func TestErrorsDoNotEchoLongNames(t *testing.T) {
	svc, err := NewDirService(t.TempDir(), WithWritable())
	require.NoError(t, err)
	defer svc.Close()
	c := dial(t, serve(t, svc))
	ctx := context.Background()
	long := strings.Repeat("a/", 500_000) + "x.ipcs"
	_, err = c.GetFlightInfo(ctx, PathDescriptor(long))
	require.Equal(t, codes.InvalidArgument, status.Code(err))
	require.Less(t, len(err.Error()), 300, "%.400s", err)
	_, err = c.Schema(ctx, PathDescriptor(strings.Repeat("b", 1<<20)))
	require.Less(t, len(err.Error()), 300, "%.400s", err)
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte(long)})
	if err == nil {
		_, err = readRecords(rr)
	}
	require.Equal(t, codes.NotFound, status.Code(errorsUnwrapAll(err)))
	require.Less(t, len(err.Error()), 300, "%.400s", err)
	s := randdata.AllTypes()
	ps, err := c.Put(ctx, PathDescriptor("/"+long), s)
	require.NoError(t, err)
	err = ps.Close()
	require.Equal(t, codes.InvalidArgument, status.Code(errorsUnwrapAll(err)), "a path too long to store: %.400s", err)
	require.Less(t, len(err.Error()), 300, "%.400s", err)
}
