package flightsql_test

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/flightsql"
)

// memServer is a Flight SQL server of tables in memory. It understands
// "SELECT * FROM name", "DELETE FROM name" and, prepared,
// "SELECT * FROM name WHERE row = ?" (the parameter is a row index).
type memServer struct {
	flightsql.BaseServer
	mu       sync.Mutex
	tables   map[string]*alkaid.Table
	prepared map[string]int64 // handle: bound row index
	next     int
}

func newMemServer() *memServer {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Alkaid", "Mizar", "Alioth"]`),
		arrayjson.MustParse(datatype.Float64, `[1.86, null, 1.77]`),
	}, -1)
	if err != nil {
		panic(err)
	}
	t, err := alkaid.TableFromRecords(schema, []*alkaid.Record{rec})
	if err != nil {
		panic(err)
	}
	return &memServer{tables: map[string]*alkaid.Table{"stars": t}, prepared: map[string]int64{}}
}

// table finds the table a statement names after prefix.
func (s *memServer) table(q, prefix string) (string, *alkaid.Table, error) {
	name, ok := strings.CutPrefix(q, prefix)
	if !ok {
		return "", nil, fmt.Errorf("memserver: cannot run %q: %w", q, datatype.ErrNotSupported)
	}
	name, _, _ = strings.Cut(name, " ")
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[name]
	if !ok {
		return "", nil, fmt.Errorf("memserver: table %q: %w", name, fs.ErrNotExist)
	}
	return name, t, nil
}

func (s *memServer) StatementSchema(_ context.Context, st flightsql.Statement) (*alkaid.Schema, error) {
	_, t, err := s.table(st.Query, "SELECT * FROM ")
	if err != nil {
		return nil, err
	}
	return t.Schema(), nil
}

func (s *memServer) ExecuteStatement(_ context.Context, st flightsql.Statement) (*alkaid.Schema, []byte, error) {
	name, t, err := s.table(st.Query, "SELECT * FROM ")
	if err != nil {
		return nil, nil, err
	}
	return t.Schema(), []byte(name), nil
}

func (s *memServer) StatementResult(_ context.Context, handle []byte) (alkaid.RecordReader, error) {
	_, t, err := s.table(string(handle), "")
	return t, err
}

func (s *memServer) ExecuteUpdate(_ context.Context, st flightsql.Statement) (int64, error) {
	name, t, err := s.table(st.Query, "DELETE FROM ")
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tables[name] = t.Slice(0, 0)
	return int64(t.NumRows()), nil
}

func (s *memServer) Prepare(_ context.Context, st flightsql.Statement) (flightsql.Prepared, error) {
	name, t, err := s.table(st.Query, "SELECT * FROM ")
	if err != nil {
		return flightsql.Prepared{}, err
	}
	if !strings.HasSuffix(st.Query, " WHERE row = ?") {
		return flightsql.Prepared{}, fmt.Errorf("memserver: cannot prepare %q: %w", st.Query, datatype.ErrNotSupported)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	h := fmt.Sprintf("%s#%d", name, s.next)
	s.prepared[h] = -1
	params := alkaid.NewSchema([]datatype.Field{{Name: "row", Type: datatype.Int64}}, datatype.Metadata{})
	return flightsql.Prepared{Handle: []byte(h), DatasetSchema: t.Schema(), ParameterSchema: params}, nil
}

// handle finds a prepared statement.
func (s *memServer) handle(h []byte) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.prepared[string(h)]; !ok {
		return "", fmt.Errorf("memserver: prepared statement %q: %w", h, fs.ErrNotExist)
	}
	name, _, _ := strings.Cut(string(h), "#")
	return name, nil
}

func (s *memServer) ClosePrepared(_ context.Context, h []byte) error {
	if _, err := s.handle(h); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.prepared, string(h))
	return nil
}

func (s *memServer) BindParameters(_ context.Context, h []byte, params alkaid.RecordReader) ([]byte, error) {
	if _, err := s.handle(h); err != nil {
		return nil, err
	}
	for rec, err := range params.Records() {
		if err != nil {
			return nil, err
		}
		col, ok := rec.Column(0).(*array.Int64)
		if !ok || rec.NumRows() != 1 {
			return nil, fmt.Errorf("memserver: want one int64 parameter: %w", datatype.ErrInvalid)
		}
		s.mu.Lock()
		s.prepared[string(h)] = col.Value(0)
		s.mu.Unlock()
	}
	return h, nil
}

func (s *memServer) PreparedSchema(_ context.Context, h []byte) (*alkaid.Schema, error) {
	name, err := s.handle(h)
	if err != nil {
		return nil, err
	}
	_, t, err := s.table(name, "")
	if err != nil {
		return nil, err
	}
	return t.Schema(), nil
}

func (s *memServer) PreparedResult(_ context.Context, h []byte) (alkaid.RecordReader, error) {
	name, err := s.handle(h)
	if err != nil {
		return nil, err
	}
	_, t, err := s.table(name, "")
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	row := s.prepared[string(h)]
	s.mu.Unlock()
	if row < 0 || row >= int64(t.NumRows()) {
		return t.Slice(0, 0), nil
	}
	return t.Slice(int(row), int(row)+1), nil
}

func (s *memServer) Ingest(_ context.Context, cmd *flightsql.StatementIngest, rows alkaid.RecordReader) (int64, error) {
	t, err := alkaid.ReadAll(rows)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tables[cmd.Table] = t
	return int64(t.NumRows()), nil
}

func (s *memServer) Tables(_ context.Context, cmd *flightsql.GetTables) (alkaid.RecordReader, error) {
	s.mu.Lock()
	var names []string
	for n := range s.tables {
		names = append(names, n)
	}
	s.mu.Unlock()
	schema := flightsql.TablesSchema(false)
	b, err := alkaid.NewRecordBuilder(schema)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		b.Field(0).AppendNull()
		b.Field(1).AppendNull()
		b.Field(2).(*array.BinaryBuilder[int32]).AppendString(n)
		b.Field(3).(*array.BinaryBuilder[int32]).AppendString("TABLE")
	}
	rec, err := b.NewRecord()
	if err != nil {
		return nil, err
	}
	return alkaid.TableFromRecords(schema, []*alkaid.Record{rec})
}

func (s *memServer) SqlInfo(_ context.Context, ids []uint32) (alkaid.RecordReader, error) {
	return flightsql.SqlInfoReader(map[uint32]any{
		uint32(flightsql.InfoServerName):        "memserver",
		uint32(flightsql.InfoServerReadOnly):    false,
		uint32(flightsql.InfoServerTransaction): int32(flightsql.TransactionSupportNone),
		504:                                     int64(7),
		508:                                     []string{"a", "b"},
		517:                                     map[int32][]int32{1: {2, 3}, 4: nil},
	}, ids)
}

// serve serves srv on a loopback port and returns a client of it.
func serve(t testing.TB, srv flightsql.Server) *flightsql.Client {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := flight.NewServer(flightsql.NewService(srv))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); s.Serve(l) }()
	c, err := flight.Dial(l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); s.Stop(); <-done })
	return flightsql.NewClient(c)
}
