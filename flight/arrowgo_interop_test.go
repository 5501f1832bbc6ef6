package flight

// Round trips with arrow-go's Flight client and server (v18) on
// loopback: records of every randdata type (dictionaries included, and
// replaced between batches), app metadata on every message, DoGet, DoPut
// and DoExchange in both directions, and arrow-go's basic→bearer
// authentication against our server.
//
// arrow-go's side runs in another process (internal/arrowgopeer): one Go
// program cannot link two generated packages of the same protobuf
// package. Records go to the peer and come back as IPC stream files;
// the interop module checks slot by slot that arrow-go and Alkaid agree
// on every type in IPC, so comparing here through Alkaid's reader is
// enough.

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
)

var peer struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if peer.dir != "" {
		os.RemoveAll(peer.dir)
	}
	os.Exit(code)
}

// arrowGoPeer builds internal/arrowgopeer once per test run.
func arrowGoPeer(t *testing.T) string {
	t.Helper()
	peer.once.Do(func() {
		dir, err := os.MkdirTemp("", "arrowgopeer")
		if err != nil {
			peer.err = err
			return
		}
		peer.dir, peer.path = dir, filepath.Join(dir, "arrowgopeer")
		out, err := exec.Command("go", "build", "-o", peer.path, "./internal/arrowgopeer").CombinedOutput()
		if err != nil {
			peer.err = err
			peer.path = string(out)
		}
	})
	require.NoError(t, peer.err, "building the arrow-go peer: %s", peer.path)
	return peer.path
}

// interopBatches: every type; a slice (offsets not zero), the
// dictionaries replaced between the second and third batch and back.
// arrow-go only ever re-sends batches it read, which are not slices (it
// fails to write some slices, see the interop module).
func interopBatches() (*alkaid.Schema, []*alkaid.Record) {
	s, recs := allTypeBatches()
	return s, []*alkaid.Record{recs[0], recs[1], recs[2], recs[0]}
}

func writeArrowStream(t *testing.T, path string, s *alkaid.Schema, recs []*alkaid.Record) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w, err := ipc.NewStreamWriter(f, s, ipc.WithArrowCompat())
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
}

// received reads what the peer saved as NAME.arrows and NAME.meta.
func received(t *testing.T, dir, name string) ([]*alkaid.Record, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name+".arrows"))
	require.NoError(t, err)
	defer f.Close()
	sr, err := ipc.NewStreamReader(f, ipc.WithValidation(ipc.ValidateAll))
	require.NoError(t, err)
	var recs []*alkaid.Record
	for r := range sr.Records() {
		recs = append(recs, r)
	}
	require.NoError(t, sr.Err())
	return recs, metaLines(t, dir, name)
}

func metaLines(t *testing.T, dir, name string) []string {
	b, err := os.ReadFile(filepath.Join(dir, name+".meta"))
	require.NoError(t, err)
	return strings.Split(string(b), "\n")
}

var wantMeta = []string{"batch-0", "batch-1", "batch-2", "batch-3"}

// TestArrowGoClientAlkaidServer: arrow-go's client authenticates, reads
// a FlightInfo, DoGets, DoPuts and DoExchanges against our server.
func TestArrowGoClientAlkaidServer(t *testing.T) {
	bin := arrowGoPeer(t)
	s, recs := interopBatches()
	svc := newMemService(s, recs)
	addr := serve(t, svc, WithAuth(NewStaticAuth(map[string]string{"ann": "secret"})))
	dir := t.TempDir()
	data := filepath.Join(dir, "data.arrows")
	writeArrowStream(t, data, s, recs)
	out, err := exec.Command(bin, "client", addr, data, dir).CombinedOutput()
	require.NoError(t, err, "%s", out)

	got, meta := received(t, dir, "get")
	requireSameRecords(t, recs, got, "DoGet by arrow-go")
	require.Equal(t, wantMeta, meta)

	svc.mu.Lock()
	requireSameRecords(t, recs, svc.put["[from-arrow-go]"], "DoPut by arrow-go")
	var apps []string
	for _, a := range svc.app["[from-arrow-go]"] {
		apps = append(apps, string(a))
	}
	svc.mu.Unlock()
	require.Equal(t, wantMeta, apps)
	require.Equal(t, wantMeta, metaLines(t, dir, "putresults"))

	got, meta = received(t, dir, "exchange")
	requireSameRecords(t, recs, got, "DoExchange by arrow-go")
	require.Equal(t, wantMeta, meta)
}

// TestAlkaidClientArrowGoServer: our client DoGets, DoPuts (each codec)
// and DoExchanges against arrow-go's server.
func TestAlkaidClientArrowGoServer(t *testing.T) {
	bin := arrowGoPeer(t)
	s, recs := interopBatches()
	dir := t.TempDir()
	data := filepath.Join(dir, "data.arrows")
	writeArrowStream(t, data, s, recs)
	cmd := exec.Command(bin, "serve", data, dir)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	defer func() { stdin.Close(); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ADDR ")
	require.True(t, ok, line)
	ctx := context.Background()

	c := dial(t, addr, WithReadOptions(ipc.WithValidation(ipc.ValidateAll)), WithWriteOptions(ipc.WithArrowCompat()))
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("any")})
	require.NoError(t, err)
	var got []*alkaid.Record
	var meta []string
	for rr.Next() {
		got, meta = append(got, rr.Record()), append(meta, string(rr.AppMetadata()))
	}
	require.NoError(t, rr.Err())
	requireSameRecords(t, recs, got, "DoGet from arrow-go")
	require.Equal(t, wantMeta, meta)

	for _, codec := range []ipc.Codec{ipc.Uncompressed, ipc.LZ4Frame, ipc.Zstd} {
		c := dial(t, addr, WithWriteOptions(ipc.WithArrowCompat(), ipc.WithCompression(codec, 0)))
		ps, err := c.Put(ctx, PathDescriptor("up"), s)
		require.NoError(t, err)
		for i, r := range recs {
			require.NoError(t, ps.WriteWithAppMetadata(r, appMeta(i)))
		}
		res, err := ps.Close()
		require.NoError(t, err, codec.String())
		meta = meta[:0]
		for _, r := range res {
			meta = append(meta, string(r.AppMetadata))
		}
		require.Equal(t, wantMeta, meta, codec.String())
		put, putMeta := received(t, dir, "put")
		requireSameRecords(t, recs, put, "DoPut to arrow-go, "+codec.String())
		require.Equal(t, wantMeta, putMeta)
	}

	ex, err := c.Exchange(ctx, PathDescriptor("x"), s)
	require.NoError(t, err)
	for i, r := range recs {
		require.NoError(t, ex.WriteWithAppMetadata(r, appMeta(i)))
	}
	require.NoError(t, ex.CloseSend())
	er, err := ex.Reader()
	require.NoError(t, err)
	got, meta = got[:0], meta[:0]
	for er.Next() {
		got, meta = append(got, er.Record()), append(meta, string(er.AppMetadata()))
	}
	require.NoError(t, er.Err())
	requireSameRecords(t, recs, got, "DoExchange with arrow-go")
	require.Equal(t, wantMeta, meta)
}
