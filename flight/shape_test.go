package flight

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
)

// The readers and writers of the package are the module's one shape.
var (
	_ alkaid.RecordReader = (*RecordReader)(nil)
	_ alkaid.RecordWriter = (*RecordWriter)(nil)
	_ alkaid.RecordWriter = (*PutStream)(nil)
	_ alkaid.RecordWriter = (*ExchangeStream)(nil)
)

// TestRecordReaderShape: a stream reader reads into a table with
// alkaid.ReadAll, can be iterated once, and refuses to be read after
// Close.
func TestRecordReaderShape(t *testing.T) {
	s, recs := allTypeBatches()
	var sink collect
	w := newWriter(t, &sink, s)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())

	rr, err := NewRecordReader(&fakeStream{msgs: append([]*FlightData(nil), sink.msgs...)})
	require.NoError(t, err)
	tab, err := alkaid.ReadAll(rr)
	require.NoError(t, err)
	require.Equal(t, int64(0), int64(tab.NumRows())-int64(countRows(recs)))
	for _, err := range rr.Records() {
		require.ErrorIs(t, err, ipc.ErrInvalid, "a second iteration")
	}

	rr, err = NewRecordReader(&fakeStream{msgs: append([]*FlightData(nil), sink.msgs...)})
	require.NoError(t, err)
	require.NoError(t, rr.Close())
	for _, err := range rr.Records() {
		require.ErrorIs(t, err, ipc.ErrInvalid, "after Close")
	}
}

func countRows(recs []*alkaid.Record) int {
	n := 0
	for _, r := range recs {
		n += r.NumRows()
	}
	return n
}

// TestRecordWriterCloseEmpty: closing a writer that wrote nothing sends
// the schema, so the peer reads an empty stream.
func TestRecordWriterCloseEmpty(t *testing.T) {
	s, _ := allTypeBatches()
	var sink collect
	require.NoError(t, newWriter(t, &sink, s).Close())
	rr, err := NewRecordReader(&fakeStream{msgs: sink.msgs})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	require.Empty(t, got)
	require.True(t, s.Equal(rr.Schema()))
}

// TestRecordWriterInvalidOption: an invalid ipc option is the
// constructor's error, not the first write's.
func TestRecordWriterInvalidOption(t *testing.T) {
	s, _ := allTypeBatches()
	_, err := NewRecordWriter(&collect{}, s, ipc.WithAlignment(7))
	require.ErrorIs(t, err, ipc.ErrInvalid)
	require.ErrorContains(t, err, "flight: ")
}

// TestMetadataMessagesBounded: a peer that sends messages of app
// metadata without data is held to the body limit, not buffered without
// end.
func TestMetadataMessagesBounded(t *testing.T) {
	s, recs := allTypeBatches()
	var sink collect
	w := newWriter(t, &sink, s)
	require.NoError(t, w.WriteSchema())
	for range 20 {
		require.NoError(t, w.WriteAppMetadata(make([]byte, 100)))
	}
	require.NoError(t, w.Write(recs[0]))

	rr, err := NewRecordReader(&fakeStream{msgs: append([]*FlightData(nil), sink.msgs...)})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	require.Len(t, got, 1)

	rr, err = NewRecordReader(&fakeStream{msgs: sink.msgs}, ipc.WithLimits(ipc.Limits{MaxBodySize: 1000}))
	require.NoError(t, err)
	_, err = readRecords(rr)
	require.ErrorIs(t, err, ipc.ErrLimit)
	require.ErrorContains(t, err, "messages without data")
}

// TestOptionsWhereTheyApply: one Option type for every constructor; an
// option given to a constructor that does not take it, or an invalid
// value, is that constructor's error naming the option.
func TestOptionsWhereTheyApply(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"Dial: a server option", func() error { _, err := Dial("127.0.0.1:1", WithAuth(NewStaticAuth(nil))); return err }, "WithAuth is not an option of Dial"},
		{"Dial: a fetch option", func() error { _, err := Dial("127.0.0.1:1", WithConcurrency(2)); return err }, "WithConcurrency(2) is not an option of Dial"},
		{"Dial: message size 0", func() error { _, err := Dial("127.0.0.1:1", WithMaxMessageSize(0)); return err }, "WithMaxMessageSize(0): must be positive"},
		{"NewServer: a client option", func() error { _, err := NewServer(BaseService{}, WithSessionCookies()); return err }, "WithSessionCookies is not an option of NewServer"},
		{"NewServer: send size -1", func() error { _, err := NewServer(BaseService{}, WithMaxSendSize(-1)); return err }, "WithMaxSendSize(-1): must be positive"},
		{"NewServer: negative send timeout", func() error { _, err := NewServer(BaseService{}, WithSendTimeout(-1)); return err }, "WithSendTimeout(-1ns): must not be negative"},
		{"NewDirService: a server option", func() error { _, err := NewDirService(dir, WithMaxSendSize(1<<20)); return err }, "is not an option of NewDirService"},
		{"NewDirService: negative memory", func() error { _, err := NewDirService(dir, WithMemory(-1, 0)); return err }, "WithMemory(-1, 0): must not be negative"},
		{"Fetch: a directory option", func() error { _, err := Fetch(context.Background(), nil, &FlightInfo{}, WithWritable()); return err }, "WithWritable is not an option of Fetch"},
	}
	for _, tc := range tests {
		err := tc.err()
		require.ErrorIs(t, err, ipc.ErrInvalid, tc.name)
		require.ErrorContains(t, err, "flight: ", tc.name)
		require.ErrorContains(t, err, tc.want, tc.name)
	}
	// the shared options are taken by each constructor they name
	c, err := Dial("127.0.0.1:1", WithMaxMessageSize(1<<20), WithMaxSendSize(1<<20), WithReadOptions(), WithWriteOptions())
	require.NoError(t, err)
	require.NoError(t, c.Close())
	_, err = NewServer(BaseService{}, WithMaxMessageSize(1<<20), WithMaxSendSize(1<<20), WithSendTimeout(0))
	require.NoError(t, err)
	svc, err := NewDirService(dir, WithReadOptions(), WithWriteOptions(), WithMemory(0, 0))
	require.NoError(t, err)
	require.NoError(t, svc.Close())
}

// TestFetchOptions: invalid values are errors naming the option; a
// FlightInfo without a schema and endpoints reads as no columns, no
// rows.
func TestFetchOptions(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		opt  Option
		name string
	}{
		{WithConcurrency(-1), "WithConcurrency(-1)"},
		{WithBuffer(0), "WithBuffer(0)"},
		{WithDial(nil), "WithDial(nil)"},
	} {
		_, err := Fetch(ctx, nil, &FlightInfo{}, tc.opt)
		require.ErrorIs(t, err, ipc.ErrInvalid, tc.name)
		require.ErrorContains(t, err, "flight: "+tc.name)
	}
	r, err := Fetch(ctx, nil, &FlightInfo{}, WithConcurrency(0))
	require.NoError(t, err)
	require.Zero(t, r.Schema().NumFields())
	got, err := readRecords(r)
	require.NoError(t, err)
	require.Empty(t, got)
	require.NoError(t, r.Close())
}
