package flight

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// wideRecord is rows rows of cols int64 columns: 30,720 rows of 30
// columns make a 7 MiB record batch, a Parquet row group's worth.
func wideRecord(rows, cols int) *alkaid.Record {
	fields := make([]datatype.Field, cols)
	for i := range fields {
		fields[i] = datatype.Field{Name: fmt.Sprintf("c%d", i), Type: datatype.Int64, Nullable: true}
	}
	return randdata.New(7).Record(alkaid.NewSchema(fields, datatype.Metadata{}), rows)
}

// requireSlicesOf: got are consecutive slices of want, in order, with
// the same values.
func requireSlicesOf(t *testing.T, want *alkaid.Record, got []*alkaid.Record) {
	t.Helper()
	var exp []*alkaid.Record
	off := 0
	for _, g := range got {
		require.LessOrEqual(t, off+g.NumRows(), want.NumRows())
		exp = append(exp, want.Slice(off, off+g.NumRows()))
		off += g.NumRows()
	}
	require.Equal(t, want.NumRows(), off, "rows received")
	requireSameRecords(t, exp, got, "slices")
}

// TestRecordWriterSplits: a record batch over the message size goes out
// as slices of its rows, each FlightData within the size, the values
// (of every type, dictionaries included) and the app metadata kept, with
// and without compression.
func TestRecordWriterSplits(t *testing.T) {
	s := randdata.AllTypes()
	rec := randdata.New(5).Record(s, 3000)
	for _, tc := range []struct {
		name string
		opts []ipc.Option
	}{
		{"uncompressed", nil},
		{"zstd", []ipc.Option{ipc.WithCompression(ipc.Zstd, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const limit = 64 << 10
			var sink collect
			w := newWriter(t, &sink, s, tc.opts...)
			w.SetMaxMessageSize(limit)
			require.NoError(t, w.WriteWithAppMetadata(rec, []byte("app")))
			batches := 0
			for _, m := range sink.msgs {
				require.LessOrEqual(t, proto.Size(m), limit)
				if len(m.DataBody) > 0 {
					batches++
				}
			}
			require.Greater(t, batches, 2, "the record is sent in several batches")
			rr, err := NewRecordReader(&fakeStream{msgs: sink.msgs})
			require.NoError(t, err)
			var got []*alkaid.Record
			var apps []string
			for rec, err := range rr.Records() {
				require.NoError(t, err)
				got = append(got, rec)
				apps = append(apps, string(rr.AppMetadata()))
			}
			requireSlicesOf(t, rec, got)
			require.Equal(t, "app", apps[len(apps)-1], "app metadata on the last slice")
			require.Equal(t, "", strings.Join(apps[:len(apps)-1], ""), "only on the last")
		})
	}
}

// TestRecordWriterRowTooLarge: a row larger than the message size is an
// error wrapping ipc.ErrLimit that names the record and the row.
func TestRecordWriterRowTooLarge(t *testing.T) {
	b := array.NewBinaryBuilder[int32](datatype.String)
	b.AppendStrings([]string{"a", strings.Repeat("x", 10000), "c"}, nil)
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{b.Finish()}, 3)
	require.NoError(t, err)
	var sink collect
	w := newWriter(t, &sink, s)
	w.SetMaxMessageSize(4096)
	require.NoError(t, w.Write(rec.Slice(0, 1)))
	err = w.Write(rec)
	require.ErrorIs(t, err, ipc.ErrLimit)
	require.ErrorContains(t, err, "record 1: row 1 takes")
}

// TestDoGetDefaultClient: a server with default settings sends a 7 MiB
// record batch in messages that a gRPC client with default settings (a
// 4 MiB receive limit, as arrow-go's) accepts; a server told so sends it
// whole to a client that accepts it.
func TestDoGetDefaultClient(t *testing.T) {
	rec := wideRecord(30720, 30)
	svc := newMemService(rec.Schema(), []*alkaid.Record{rec})

	conn, err := grpc.NewClient(serve(t, svc), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	st, err := pb.NewFlightServiceClient(conn).DoGet(context.Background(), &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	rr, err := NewRecordReader(st)
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	require.Greater(t, len(got), 1)
	requireSlicesOf(t, rec, got)

	c := dial(t, serve(t, svc, WithMaxSendSize(16<<20)), WithMaxMessageSize(16<<20))
	rr, err = c.Get(context.Background(), &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	got, err = readRecords(rr)
	require.NoError(t, err)
	require.Len(t, got, 1)
	requireSlicesOf(t, rec, got)
}
