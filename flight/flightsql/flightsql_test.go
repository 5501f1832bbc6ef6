package flightsql_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/flightsql"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestPackUsesArrowTypeURL(t *testing.T) {
	b, err := flightsql.Pack(&flightsql.StatementQuery{Query: "SELECT 1"})
	require.NoError(t, err)
	var a anypb.Any
	require.NoError(t, proto.Unmarshal(b, &a))
	require.Equal(t, "type.googleapis.com/arrow.flight.protocol.sql.CommandStatementQuery", a.TypeUrl)

	cmd, err := flightsql.Unpack(b)
	require.NoError(t, err)
	require.Equal(t, "SELECT 1", cmd.(*flightsql.StatementQuery).Query)

	_, err = flightsql.Pack(&flight.Ticket{Ticket: []byte("x")})
	require.ErrorIs(t, err, datatype.ErrInvalid, "a Flight message is not a Flight SQL command")
}

func TestUnpackRejects(t *testing.T) {
	anyOf := func(url string, v []byte) []byte {
		b, err := proto.Marshal(&anypb.Any{TypeUrl: url, Value: v})
		require.NoError(t, err)
		return b
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"not protobuf", []byte{0xff, 0xff, 0xff}},
		{"foreign type", anyOf("type.googleapis.com/google.protobuf.Empty", nil)},
		{"our package name", anyOf("type.googleapis.com/alkaid.flight.protocol.sql.CommandStatementQuery", nil)},
		{"unknown command", anyOf(flightsql.TypeURLPrefix+"CommandNoSuchThing", nil)},
		{"nested name", anyOf(flightsql.TypeURLPrefix+"x.CommandStatementQuery", nil)},
		{"malformed value", anyOf(flightsql.TypeURLPrefix+"CommandStatementQuery", []byte{0x0a, 0x10, 'a'})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := flightsql.Unpack(tc.b)
			require.ErrorIs(t, err, datatype.ErrInvalid)
		})
	}
}

func FuzzUnpack(f *testing.F) {
	b, _ := flightsql.Pack(&flightsql.GetTables{Catalog: new(string), TableTypes: []string{"TABLE"}})
	f.Add(b)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		cmd, err := flightsql.Unpack(b)
		if err != nil {
			require.ErrorIs(t, err, datatype.ErrInvalid)
			return
		}
		_, err = flightsql.Pack(cmd)
		require.NoError(t, err)
	})
}

func TestQuery(t *testing.T) {
	c := serve(t, newMemServer())
	r, err := c.Query(ctx(t), flightsql.Statement{Query: "SELECT * FROM stars"})
	require.NoError(t, err)
	got, err := alkaid.ReadAll(r)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	require.Equal(t, 3, got.NumRows())
	want := newMemServer().tables["stars"]
	require.True(t, got.Schema().Equal(want.Schema()))
	require.Equal(t, `["Alkaid" "Mizar" "Alioth"]`, array.Format(got.Column(0).Chunks()[0]))

	s, err := c.ExecuteSchema(ctx(t), flightsql.Statement{Query: "SELECT * FROM stars"})
	require.NoError(t, err)
	require.True(t, s.Equal(want.Schema()))
}

func TestPreparedWithParameters(t *testing.T) {
	c := serve(t, newMemServer())
	p, err := c.Prepare(ctx(t), flightsql.Statement{Query: "SELECT * FROM stars WHERE row = ?"})
	require.NoError(t, err)
	require.Equal(t, "row", p.ParameterSchema.Field(0).Name)
	params, err := alkaid.NewRecord(p.ParameterSchema, []array.Array{arrayjson.MustParse(datatype.Int64, `[1]`)}, -1)
	require.NoError(t, err)
	pt, err := alkaid.TableFromRecords(p.ParameterSchema, []*alkaid.Record{params})
	require.NoError(t, err)
	require.NoError(t, p.Bind(ctx(t), pt))
	fi, err := p.Execute(ctx(t))
	require.NoError(t, err)
	r, err := c.Read(ctx(t), fi)
	require.NoError(t, err)
	got, err := alkaid.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, 1, got.NumRows())
	require.Equal(t, `["Mizar"]`, array.Format(got.Column(0).Chunks()[0]))
	require.NoError(t, p.Close(ctx(t)))

	// Closed: the handle is gone.
	_, err = p.Execute(ctx(t))
	require.Equal(t, codes.NotFound, status.Code(errors.Unwrap(err)), "%v", err)
}

func TestUpdateAndIngest(t *testing.T) {
	srv := newMemServer()
	c := serve(t, srv)
	stars := srv.tables["stars"]
	n, err := c.Ingest(ctx(t), &flightsql.StatementIngest{Table: "copy",
		TableDefinitionOptions: &flightsql.TableDefinitionOptions{IfNotExist: flightsql.IfNotExistCreate, IfExists: flightsql.IfExistsReplace}}, stars)
	require.NoError(t, err)
	require.EqualValues(t, 3, n)

	n, err = c.ExecuteUpdate(ctx(t), flightsql.Statement{Query: "DELETE FROM copy"})
	require.NoError(t, err)
	require.EqualValues(t, 3, n)
	n, err = c.ExecuteUpdate(ctx(t), flightsql.Statement{Query: "DELETE FROM copy"})
	require.NoError(t, err)
	require.EqualValues(t, 0, n)
}

func TestMetadata(t *testing.T) {
	c := serve(t, newMemServer())
	fi, err := c.CommandInfo(ctx(t), &flightsql.GetTables{})
	require.NoError(t, err)
	s, err := flight.DecodeSchema(fi.Schema)
	require.NoError(t, err)
	require.True(t, s.Equal(flightsql.TablesSchema(false)))
	r, err := c.Read(ctx(t), fi)
	require.NoError(t, err)
	got, err := alkaid.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, `["stars"]`, array.Format(got.Column(2).Chunks()[0]))

	s, err = c.CommandSchema(ctx(t), &flightsql.GetTables{IncludeSchema: true})
	require.NoError(t, err)
	require.True(t, s.Equal(flightsql.TablesSchema(true)))

	// Not served: Unimplemented, from BaseServer.
	fi, err = c.CommandInfo(ctx(t), &flightsql.GetCatalogs{})
	require.NoError(t, err, "the schema is fixed: no call to the server")
	_, err = alkaid.ReadAll(must(c.Read(ctx(t), fi)))
	require.Equal(t, codes.Unimplemented, status.Code(errors.Unwrap(errors.Unwrap(err))), "%v", err)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestSqlInfoValues(t *testing.T) {
	c := serve(t, newMemServer())
	fi, err := c.CommandInfo(ctx(t), &flightsql.GetSqlInfo{})
	require.NoError(t, err)
	r, err := c.Read(ctx(t), fi)
	require.NoError(t, err)
	got, err := alkaid.ReadAll(r)
	require.NoError(t, err)
	require.True(t, got.Schema().Equal(flightsql.SqlInfoSchema()))
	require.Equal(t, `[0 3 8 504 508 517]`, array.Format(got.Column(0).Chunks()[0]))
	u := got.Column(1).Chunks()[0].(*array.Union)
	require.Equal(t, []int8{0, 1, 3, 2, 4, 5}, u.TypeCodes())
	require.Equal(t, `["a" "b"]`, array.FormatValue(u.Child(4), u.ValueOffset(4)))

	_, err = flightsql.SqlInfoReader(map[uint32]any{1: 1.5}, nil)
	require.ErrorIs(t, err, datatype.ErrInvalid)
}

// Hostile or mistaken requests get a gRPC error with the right code, and
// the server goes on serving.
func TestBadRequests(t *testing.T) {
	c := serve(t, newMemServer())
	anyBytes := func(url string) []byte {
		b, _ := proto.Marshal(&anypb.Any{TypeUrl: url})
		return b
	}
	for _, tc := range []struct {
		name string
		call func() error
		code codes.Code
	}{
		{"unknown prepared handle", func() error {
			_, err := c.CommandInfo(ctx(t), &flightsql.PreparedStatementQuery{PreparedStatementHandle: []byte("stars#999")})
			return err
		}, codes.NotFound},
		{"unknown table", func() error {
			_, err := c.Execute(ctx(t), flightsql.Statement{Query: "SELECT * FROM nothing"})
			return err
		}, codes.NotFound},
		{"garbage command", func() error {
			_, err := c.GetFlightInfo(ctx(t), flight.CmdDescriptor([]byte{0xff, 0x01}))
			return err
		}, codes.InvalidArgument},
		{"foreign command", func() error {
			_, err := c.GetFlightInfo(ctx(t), flight.CmdDescriptor(anyBytes("type.googleapis.com/google.protobuf.Empty")))
			return err
		}, codes.InvalidArgument},
		{"path descriptor", func() error {
			_, err := c.GetFlightInfo(ctx(t), flight.PathDescriptor("stars"))
			return err
		}, codes.InvalidArgument},
		{"update by GetFlightInfo", func() error {
			_, err := c.CommandInfo(ctx(t), &flightsql.StatementUpdate{Query: "DELETE FROM stars"})
			return err
		}, codes.InvalidArgument},
		{"ticket of a non-command", func() error {
			r, err := c.Get(ctx(t), &flight.Ticket{Ticket: []byte("stars")})
			if err == nil {
				_, err = alkaid.ReadAll(r)
			}
			return err
		}, codes.InvalidArgument},
		{"unknown action", func() error {
			_, err := c.Actions(ctx(t), "NoSuchAction", nil)
			return err
		}, codes.InvalidArgument},
		{"action with a garbage body", func() error {
			_, err := c.Actions(ctx(t), flightsql.ActionBeginTransaction, []byte{0xff})
			return err
		}, codes.InvalidArgument},
		{"not served", func() error {
			_, err := c.BeginTransaction(ctx(t))
			return err
		}, codes.Unimplemented},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			require.Error(t, err)
			st, ok := status.FromError(unwrapAll(err))
			require.True(t, ok, "%v", err)
			require.Equal(t, tc.code, st.Code(), "%v", err)
		})
	}
	_, err := c.Execute(ctx(t), flightsql.Statement{Query: "SELECT * FROM stars"})
	require.NoError(t, err, "the server still serves")
}

// unwrapAll is the innermost error of a chain.
func unwrapAll(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// A FlightInfo without a schema (some servers plan without one) is read
// with the schema of its first record.
func TestReadWithoutSchema(t *testing.T) {
	c := serve(t, newMemServer())
	fi, err := c.Execute(ctx(t), flightsql.Statement{Query: "SELECT * FROM stars"})
	require.NoError(t, err)
	fi.Schema = nil
	r, err := c.Read(ctx(t), fi)
	require.NoError(t, err)
	require.True(t, r.Schema().Equal(newMemServer().tables["stars"].Schema()))
	got, err := alkaid.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, 3, got.NumRows())
	require.NoError(t, r.Close())
}

// A DoPut without a descriptor, or whose data is not IPC, is refused
// with InvalidArgument.
func TestBadPuts(t *testing.T) {
	c := serve(t, newMemServer())
	ingest, err := flightsql.Pack(&flightsql.StatementIngest{Table: "t"})
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		msgs []*flight.FlightData
	}{
		{"no message", nil},
		{"no descriptor", []*flight.FlightData{{DataHeader: []byte{1, 2, 3}}}},
		{"garbage header", []*flight.FlightData{{FlightDescriptor: flight.CmdDescriptor(ingest), DataHeader: []byte{1, 2, 3, 4, 5, 6, 7, 8}}}},
		{"body without header", []*flight.FlightData{{FlightDescriptor: flight.CmdDescriptor(ingest), DataBody: []byte{1}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := c.DoPut(ctx(t))
			require.NoError(t, err)
			for _, m := range tc.msgs {
				require.NoError(t, s.Send(m))
			}
			require.NoError(t, s.CloseSend())
			_, err = s.Recv()
			require.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
		})
	}
	_, err = c.Execute(ctx(t), flightsql.Statement{Query: "SELECT * FROM stars"})
	require.NoError(t, err, "the server still serves")
}
