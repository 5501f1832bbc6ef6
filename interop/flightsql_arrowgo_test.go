package interop

// Flight SQL between the flight module's flightsql package and arrow-go's
// (v18), linked into this test binary, on loopback: our client against
// arrow-go's SQLite example server (pure Go SQLite, started in-process),
// and arrow-go's client against a server of tables in memory built on our
// framework.

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aflight "github.com/apache/arrow-go/v18/arrow/flight"
	aflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/example"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/schema_ref"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/flightsql"
)

// TestFlightSQLRegistration: our Flight SQL messages and enums have
// arrow-go's (Arrow's FlightSql.proto) names, numbers, kinds and values,
// under our own protobuf package.
func TestFlightSQLRegistration(t *testing.T) {
	theirs, err := protoregistry.GlobalFiles.FindFileByPath("FlightSql.proto")
	require.NoError(t, err)
	ours, err := protoregistry.GlobalFiles.FindFileByPath("alkaid_flight_sql.proto")
	require.NoError(t, err)
	require.Equal(t, protoreflect.FullName("alkaid.flight.protocol.sql"), ours.Package())
	var enums func(a, b protoreflect.EnumDescriptors)
	enums = func(a, b protoreflect.EnumDescriptors) {
		require.Equal(t, a.Len(), b.Len())
		for i := range a.Len() {
			e := a.Get(i)
			f := b.ByName(e.Name())
			require.NotNil(t, f, "enum %s", e.FullName())
			require.Equal(t, e.Values().Len(), f.Values().Len(), "enum %s", e.FullName())
			for j := range e.Values().Len() {
				v := e.Values().Get(j)
				w := f.Values().ByName(v.Name())
				require.NotNil(t, w, "%s", v.FullName())
				require.Equal(t, v.Number(), w.Number(), "%s", v.FullName())
			}
		}
	}
	var messages func(a, b protoreflect.MessageDescriptors)
	messages = func(a, b protoreflect.MessageDescriptors) {
		require.Equal(t, a.Len(), b.Len())
		for i := range a.Len() {
			m := a.Get(i)
			n := b.ByName(m.Name())
			require.NotNil(t, n, "message %s", m.FullName())
			require.Equal(t, m.Fields().Len(), n.Fields().Len(), "%s", m.FullName())
			for j := range m.Fields().Len() {
				f := m.Fields().Get(j)
				g := n.Fields().ByNumber(f.Number())
				require.NotNil(t, g, "%s", f.FullName())
				require.Equal(t, f.Name(), g.Name(), "%s", f.FullName())
				require.Equal(t, f.Kind(), g.Kind(), "%s", f.FullName())
				require.Equal(t, f.Cardinality(), g.Cardinality(), "%s", f.FullName())
				require.Equal(t, f.HasPresence(), g.HasPresence(), "%s", f.FullName())
				require.Equal(t, f.IsPacked(), g.IsPacked(), "%s", f.FullName())
			}
			enums(m.Enums(), n.Enums())
			messages(m.Messages(), n.Messages())
		}
	}
	enums(theirs.Enums(), ours.Enums())
	messages(theirs.Messages(), ours.Messages())
}

func sqlCtx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

// serveSQLite starts arrow-go's SQLite Flight SQL server and returns its
// address.
func serveSQLite(t *testing.T) string {
	db, err := example.CreateDB()
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	srv, err := example.NewSQLiteFlightSQLServer(db)
	require.NoError(t, err)
	s := aflight.NewServerWithMiddleware(nil)
	s.RegisterFlightService(aflightsql.NewFlightServer(srv))
	require.NoError(t, s.Init("127.0.0.1:0"))
	done := make(chan struct{})
	go func() { defer close(done); s.Serve() }()
	t.Cleanup(func() { s.Shutdown(); <-done })
	return s.Addr().String()
}

// sqlRead runs st with our client and reads the whole result.
func sqlRead(t *testing.T, c *flightsql.Client, fi *flight.FlightInfo) *alkaid.Table {
	r, err := c.Read(sqlCtx(t), fi)
	require.NoError(t, err)
	tab, err := alkaid.ReadAll(r)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	return tab
}

// column formats column name of tab.
func column(t *testing.T, tab *alkaid.Table, name string) string {
	i := tab.Schema().FieldIndex(name)
	require.GreaterOrEqual(t, i, 0, name)
	var parts []string
	for _, ch := range tab.Column(i).Chunks() {
		s := array.Format(ch)
		parts = append(parts, strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func oneRow(t *testing.T, s *alkaid.Schema, typ datatype.DataType, json string) alkaid.RecordReader {
	rec, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(typ, json)}, -1)
	require.NoError(t, err)
	tab, err := alkaid.TableFromRecords(s, []*alkaid.Record{rec})
	require.NoError(t, err)
	return tab
}

func TestFlightSQLAlkaidClientSQLiteServer(t *testing.T) {
	fc, err := flight.Dial(serveSQLite(t))
	require.NoError(t, err)
	defer fc.Close()
	c := flightsql.NewClient(fc)
	ctx := sqlCtx(t)

	t.Run("query", func(t *testing.T) {
		fi, err := c.Execute(ctx, flightsql.Statement{Query: "SELECT id, keyName, value FROM intTable ORDER BY id"})
		require.NoError(t, err)
		tab := sqlRead(t, c, fi)
		require.Equal(t, 4, tab.NumRows())
		require.Equal(t, `["one" "zero" "negative one" (null)]`, column(t, tab, "keyName"))
		require.Equal(t, `[1 0 -1 (null)]`, column(t, tab, "value"))
	})

	t.Run("update", func(t *testing.T) {
		n, err := c.ExecuteUpdate(ctx, flightsql.Statement{Query: "INSERT INTO intTable (keyName, value) VALUES ('five', 5), ('six', 6)"})
		require.NoError(t, err)
		require.EqualValues(t, 2, n)
		n, err = c.ExecuteUpdate(ctx, flightsql.Statement{Query: "DELETE FROM intTable WHERE value > 4"})
		require.NoError(t, err)
		require.EqualValues(t, 2, n)
	})

	t.Run("prepared query with a parameter", func(t *testing.T) {
		p, err := c.Prepare(ctx, flightsql.Statement{Query: "SELECT keyName FROM intTable WHERE value = ?"})
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close(ctx)) }()
		ps := alkaid.NewSchema([]datatype.Field{{Name: "value", Type: datatype.Int64}}, datatype.Metadata{})
		require.NoError(t, p.Bind(ctx, oneRow(t, ps, datatype.Int64, `[-1]`)))
		fi, err := p.Execute(ctx)
		require.NoError(t, err)
		require.Equal(t, `["negative one"]`, column(t, sqlRead(t, c, fi), "keyName"))
	})

	t.Run("prepared update with a parameter", func(t *testing.T) {
		n, err := c.ExecuteUpdate(ctx, flightsql.Statement{Query: "INSERT INTO intTable (keyName, value) VALUES ('ten', 10)"})
		require.NoError(t, err)
		require.EqualValues(t, 1, n)
		p, err := c.Prepare(ctx, flightsql.Statement{Query: "DELETE FROM intTable WHERE keyName = ?"})
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close(ctx)) }()
		ps := alkaid.NewSchema([]datatype.Field{{Name: "keyName", Type: datatype.String}}, datatype.Metadata{})
		n, err = p.ExecuteUpdate(ctx, oneRow(t, ps, datatype.String, `["ten"]`))
		require.NoError(t, err)
		require.EqualValues(t, 1, n)
	})

	t.Run("metadata", func(t *testing.T) {
		for _, tc := range []struct {
			cmd  flightsql.Command
			want *alkaid.Schema
		}{
			{&flightsql.GetCatalogs{}, flightsql.CatalogsSchema()},
			{&flightsql.GetDBSchemas{}, flightsql.DBSchemasSchema()},
			{&flightsql.GetTables{}, flightsql.TablesSchema(false)},
			{&flightsql.GetTableTypes{}, flightsql.TableTypesSchema()},
			{&flightsql.GetPrimaryKeys{Table: "intTable"}, flightsql.PrimaryKeysSchema()},
			{&flightsql.GetImportedKeys{Table: "intTable"}, flightsql.ForeignKeysSchema()},
			{&flightsql.GetExportedKeys{Table: "foreignTable"}, flightsql.ForeignKeysSchema()},
			{&flightsql.GetXdbcTypeInfo{}, flightsql.XdbcTypeInfoSchema()},
			{&flightsql.GetSqlInfo{}, flightsql.SqlInfoSchema()},
		} {
			fi, err := c.CommandInfo(ctx, tc.cmd)
			require.NoError(t, err, "%T", tc.cmd)
			s, err := flight.DecodeSchema(fi.Schema)
			require.NoError(t, err)
			require.True(t, s.Equal(tc.want), "%T: %v", tc.cmd, s)
			tab := sqlRead(t, c, fi)
			require.True(t, tab.Schema().Equal(tc.want), "%T", tc.cmd)
			switch tc.cmd.(type) {
			case *flightsql.GetTables:
				require.Contains(t, column(t, tab, "table_name"), `"intTable"`)
				require.Contains(t, column(t, tab, "table_name"), `"foreignTable"`)
			case *flightsql.GetPrimaryKeys:
				require.Equal(t, `["id"]`, column(t, tab, "column_name"))
			case *flightsql.GetImportedKeys:
				require.Equal(t, `["foreignTable"]`, column(t, tab, "pk_table_name"))
			case *flightsql.GetSqlInfo:
				require.Greater(t, tab.NumRows(), 0)
			}
		}
		fi, err := c.CommandInfo(ctx, &flightsql.GetTables{IncludeSchema: true, TableNameFilterPattern: ptr("intTable")})
		require.NoError(t, err)
		tab := sqlRead(t, c, fi)
		require.Equal(t, 1, tab.NumRows())
		b := tab.Column(tab.Schema().FieldIndex("table_schema")).Chunks()[0].(*array.BinaryArray).Value(0)
		s, err := flight.DecodeSchema(b)
		require.NoError(t, err)
		require.Equal(t, "id", s.Field(0).Name)
	})

	t.Run("transaction", func(t *testing.T) {
		txn, err := c.BeginTransaction(ctx)
		require.NoError(t, err)
		n, err := c.ExecuteUpdate(ctx, flightsql.Statement{Query: "INSERT INTO intTable (keyName, value) VALUES ('txn', 7)", TransactionID: txn})
		require.NoError(t, err)
		require.EqualValues(t, 1, n)
		require.NoError(t, c.EndTransaction(ctx, txn, flightsql.Rollback))
		fi, err := c.Execute(ctx, flightsql.Statement{Query: "SELECT keyName FROM intTable WHERE value = 7"})
		require.NoError(t, err)
		require.Equal(t, 0, sqlRead(t, c, fi).NumRows(), "rolled back")
	})

	t.Run("errors", func(t *testing.T) {
		r, err := c.Query(ctx, flightsql.Statement{Query: "SELECT * FROM noSuchTable"})
		if err == nil { // the server plans without running: DoGet fails
			_, err = alkaid.ReadAll(r)
		}
		require.ErrorContains(t, err, "no such table")
		p := &flightsql.PreparedStatementQuery{PreparedStatementHandle: []byte("no such handle")}
		_, err = c.CommandInfo(ctx, p)
		require.Error(t, err)
		_, err = c.Execute(ctx, flightsql.Statement{Query: "SELECT 1"})
		require.NoError(t, err, "the server still serves")
	})
}

func ptr[T any](v T) *T { return &v }

// sqlMemServer is a Flight SQL server of tables in memory, built on our
// framework: "SELECT * FROM name", "DELETE FROM name" and, prepared,
// "SELECT * FROM name LIMIT ?".
type sqlMemServer struct {
	flightsql.BaseServer
	mu       sync.Mutex
	tables   map[string]*alkaid.Table
	prepared map[string]int64 // handle: bound limit (-1: none)
}

func (s *sqlMemServer) table(name string) (*alkaid.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[name]
	if !ok {
		return nil, fmt.Errorf("memserver: table %q: %w", name, fs.ErrNotExist)
	}
	return t, nil
}

func (s *sqlMemServer) parse(q, prefix string) (string, error) {
	name, ok := strings.CutPrefix(q, prefix)
	if !ok {
		return "", fmt.Errorf("memserver: cannot run %q: %w", q, datatype.ErrNotSupported)
	}
	name, _, _ = strings.Cut(name, " ")
	return name, nil
}

func (s *sqlMemServer) ExecuteStatement(_ context.Context, st flightsql.Statement) (*alkaid.Schema, []byte, error) {
	name, err := s.parse(st.Query, "SELECT * FROM ")
	if err != nil {
		return nil, nil, err
	}
	t, err := s.table(name)
	if err != nil {
		return nil, nil, err
	}
	return t.Schema(), []byte(name), nil
}

func (s *sqlMemServer) StatementSchema(ctx context.Context, st flightsql.Statement) (*alkaid.Schema, error) {
	schema, _, err := s.ExecuteStatement(ctx, st)
	return schema, err
}

func (s *sqlMemServer) StatementResult(_ context.Context, h []byte) (alkaid.RecordReader, error) {
	t, err := s.table(string(h))
	if err != nil {
		return nil, err
	}
	return t, nil
}

func (s *sqlMemServer) ExecuteUpdate(_ context.Context, st flightsql.Statement) (int64, error) {
	name, err := s.parse(st.Query, "DELETE FROM ")
	if err != nil {
		return 0, err
	}
	t, err := s.table(name)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tables[name] = t.Slice(0, 0)
	return int64(t.NumRows()), nil
}

func (s *sqlMemServer) Prepare(_ context.Context, st flightsql.Statement) (flightsql.Prepared, error) {
	name, err := s.parse(st.Query, "SELECT * FROM ")
	if err != nil {
		return flightsql.Prepared{}, err
	}
	t, err := s.table(name)
	if err != nil {
		return flightsql.Prepared{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prepared[name] = -1
	params := alkaid.NewSchema([]datatype.Field{{Name: "limit", Type: datatype.Int64}}, datatype.Metadata{})
	return flightsql.Prepared{Handle: []byte(name), DatasetSchema: t.Schema(), ParameterSchema: params}, nil
}

func (s *sqlMemServer) ClosePrepared(context.Context, []byte) error { return nil }

func (s *sqlMemServer) BindParameters(_ context.Context, h []byte, params alkaid.RecordReader) ([]byte, error) {
	for rec, err := range params.Records() {
		if err != nil {
			return nil, err
		}
		limit, ok := rec.Column(0).(*array.Int64)
		if !ok || rec.NumRows() != 1 {
			return nil, fmt.Errorf("memserver: want one int64 parameter: %w", datatype.ErrInvalid)
		}
		s.mu.Lock()
		s.prepared[string(h)] = limit.Value(0)
		s.mu.Unlock()
	}
	return h, nil
}

func (s *sqlMemServer) PreparedSchema(_ context.Context, h []byte) (*alkaid.Schema, error) {
	t, err := s.table(string(h))
	if err != nil {
		return nil, err
	}
	return t.Schema(), nil
}

func (s *sqlMemServer) PreparedResult(_ context.Context, h []byte) (alkaid.RecordReader, error) {
	t, err := s.table(string(h))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	limit := s.prepared[string(h)]
	s.mu.Unlock()
	if limit >= 0 && limit < int64(t.NumRows()) {
		t = t.Slice(0, int(limit))
	}
	return t, nil
}

func (s *sqlMemServer) Tables(context.Context, *flightsql.GetTables) (alkaid.RecordReader, error) {
	schema := flightsql.TablesSchema(false)
	b, err := alkaid.NewRecordBuilder(schema)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	for n := range s.tables {
		b.Field(0).AppendNull()
		b.Field(1).AppendNull()
		b.Field(2).(*array.BinaryBuilder[int32]).AppendString(n)
		b.Field(3).(*array.BinaryBuilder[int32]).AppendString("TABLE")
	}
	s.mu.Unlock()
	rec, err := b.NewRecord()
	if err != nil {
		return nil, err
	}
	return alkaid.TableFromRecords(schema, []*alkaid.Record{rec})
}

func (s *sqlMemServer) SqlInfo(_ context.Context, ids []uint32) (alkaid.RecordReader, error) {
	return flightsql.SqlInfoReader(map[uint32]any{
		uint32(flightsql.InfoServerName):     "alkaid memory",
		uint32(flightsql.InfoServerReadOnly): false,
		508:                                  []string{"x", "y"},
		517:                                  map[int32][]int32{1: {2, 3}},
	}, ids)
}

func newSQLMemServer(t *testing.T) *sqlMemServer {
	schema, recs := flightBatches()
	tab, err := alkaid.TableFromRecords(schema, recs)
	require.NoError(t, err)
	return &sqlMemServer{tables: map[string]*alkaid.Table{"all": tab}, prepared: map[string]int64{}}
}

// agSQLRead reads the first endpoint of fi with arrow-go's client.
func agSQLRead(t *testing.T, c *aflightsql.Client, fi *aflight.FlightInfo) (*aarrow.Schema, []aarrow.RecordBatch) {
	r, err := c.DoGet(sqlCtx(t), fi.Endpoint[0].Ticket)
	require.NoError(t, err)
	defer r.Release()
	var recs []aarrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, r.Err())
	return r.Schema(), recs
}

func TestFlightSQLArrowGoClientAlkaidServer(t *testing.T) {
	srv := newSQLMemServer(t)
	addr := serveFlight(t, flightsql.NewService(srv))
	c, err := aflightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer c.Close()
	ctx := sqlCtx(t)
	schema, recs := flightBatches()

	t.Run("query", func(t *testing.T) {
		fi, err := c.Execute(ctx, "SELECT * FROM all")
		require.NoError(t, err)
		s, got := agSQLRead(t, c, fi)
		require.Equal(t, schema.NumFields(), s.NumFields())
		requireSameFlightRecords(t, recs, fromArrowGoRecords(t, s, got), "Flight SQL query")
		sr, err := c.GetExecuteSchema(ctx, "SELECT * FROM all")
		require.NoError(t, err)
		as, err := aflight.DeserializeSchema(sr.Schema, memory.DefaultAllocator)
		require.NoError(t, err)
		require.True(t, as.Equal(s))
	})

	t.Run("prepared query with a parameter", func(t *testing.T) {
		p, err := c.Prepare(ctx, "SELECT * FROM all LIMIT ?")
		require.NoError(t, err)
		require.Equal(t, "limit", p.ParameterSchema().Field(0).Name)
		b := aarray.NewInt64Builder(memory.DefaultAllocator)
		b.Append(3)
		arr := b.NewArray()
		params := aarray.NewRecordBatch(p.ParameterSchema(), []aarrow.Array{arr}, 1)
		p.SetParameters(params)
		fi, err := p.Execute(ctx)
		require.NoError(t, err)
		_, got := agSQLRead(t, c, fi)
		var n int64
		for _, r := range got {
			n += r.NumRows()
		}
		require.EqualValues(t, 3, n)
		require.NoError(t, p.Close(ctx))
	})

	t.Run("metadata", func(t *testing.T) {
		fi, err := c.GetTables(ctx, &aflightsql.GetTablesOpts{})
		require.NoError(t, err)
		s, got := agSQLRead(t, c, fi)
		require.True(t, s.Equal(schema_ref.Tables), "%v", s)
		require.Equal(t, "all", got[0].Column(2).(*aarray.String).Value(0))

		fi, err = c.GetSqlInfo(ctx, nil)
		require.NoError(t, err)
		s, got = agSQLRead(t, c, fi)
		require.True(t, s.Equal(schema_ref.SqlInfo), "%v", s)
		require.EqualValues(t, 4, got[0].NumRows())
		u := got[0].Column(1).(*aarray.DenseUnion)
		require.Equal(t, "alkaid memory", u.Field(0).(*aarray.String).Value(int(u.ValueOffset(0))))
		require.Equal(t, `[["x" "y"]]`, u.Field(4).(*aarray.List).String())
		m := u.Field(5).(*aarray.Map)
		require.Equal(t, 1, m.Len())
		require.Equal(t, `[1]`, m.Keys().String())
		require.Equal(t, `[[2 3]]`, m.Items().String())
	})

	t.Run("update", func(t *testing.T) {
		n, err := c.ExecuteUpdate(ctx, "DELETE FROM all")
		require.NoError(t, err)
		rows := 0
		for _, r := range recs {
			rows += r.NumRows()
		}
		require.EqualValues(t, rows, n)
	})

	t.Run("errors", func(t *testing.T) {
		_, err := c.Execute(ctx, "SELECT * FROM nothing")
		require.Equal(t, codes.NotFound, status.Code(err), "%v", err)
		_, err = c.Execute(ctx, "DROP TABLE all")
		require.Equal(t, codes.Unimplemented, status.Code(err), "%v", err)
		_, err = c.BeginTransaction(ctx)
		require.Equal(t, codes.Unimplemented, status.Code(err), "%v", err)
		_, err = c.Execute(ctx, "SELECT * FROM all")
		require.NoError(t, err, "the server still serves")
	})
}
