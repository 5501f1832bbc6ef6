package flightsql

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
)

// service is the flight.Service of a Server.
type service struct {
	flight.BaseService
	srv Server
}

// NewService returns the Flight service that answers Flight SQL commands
// with srv; serve it with flight.NewServer.
func NewService(srv Server) flight.Service { return &service{srv: srv} }

// grpcError gives err the gRPC status the Server documentation lists.
func grpcError(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	code := codes.Internal
	switch {
	case errors.Is(err, datatype.ErrInvalid):
		code = codes.InvalidArgument
	case errors.Is(err, datatype.ErrNotSupported):
		code = codes.Unimplemented
	case errors.Is(err, datatype.ErrLimit):
		code = codes.ResourceExhausted
	case errors.Is(err, fs.ErrNotExist):
		code = codes.NotFound
	case errors.Is(err, context.Canceled):
		code = codes.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		code = codes.DeadlineExceeded
	}
	return status.Error(code, err.Error())
}

// command decodes the command of a CMD descriptor.
func command(d *flight.FlightDescriptor) (Command, error) {
	if d == nil || d.Type != flight.DescriptorCmd {
		return nil, status.Error(codes.InvalidArgument, "flightsql: expected a CMD descriptor")
	}
	cmd, err := Unpack(d.Cmd)
	if err != nil {
		return nil, grpcError(err)
	}
	return cmd, nil
}

// statementOf gives the Statement of a query or plan command.
func statementOf(cmd Command) (Statement, bool) {
	switch c := cmd.(type) {
	case *StatementQuery:
		return Statement{Query: c.Query, TransactionID: c.TransactionId}, true
	case *StatementSubstraitPlan:
		return Statement{Plan: c.Plan, TransactionID: c.TransactionId}, true
	case *StatementUpdate:
		return Statement{Query: c.Query, TransactionID: c.TransactionId}, true
	}
	return Statement{}, false
}

// fixedSchema is the schema of a metadata command's result, or nil.
func fixedSchema(cmd Command) *alkaid.Schema {
	switch c := cmd.(type) {
	case *GetCatalogs:
		return CatalogsSchema()
	case *GetDBSchemas:
		return DBSchemasSchema()
	case *GetTables:
		return TablesSchema(c.IncludeSchema)
	case *GetTableTypes:
		return TableTypesSchema()
	case *GetPrimaryKeys:
		return PrimaryKeysSchema()
	case *GetExportedKeys, *GetImportedKeys, *GetCrossReference:
		return ForeignKeysSchema()
	case *GetXdbcTypeInfo:
		return XdbcTypeInfoSchema()
	case *GetSqlInfo:
		return SqlInfoSchema()
	}
	return nil
}

// info is a FlightInfo of schema with one endpoint redeemed by ticket at
// this server.
func info(d *flight.FlightDescriptor, schema *alkaid.Schema, ticket []byte) (*flight.FlightInfo, error) {
	b, err := flight.EncodeSchema(schema)
	if err != nil {
		return nil, grpcError(err)
	}
	return &flight.FlightInfo{
		Schema:           b,
		FlightDescriptor: d,
		Endpoint:         []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: ticket}}},
		TotalRecords:     -1,
		TotalBytes:       -1,
	}, nil
}

// GetFlightInfo plans a statement, a prepared query or a metadata
// command.
func (s *service) GetFlightInfo(ctx context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	cmd, err := command(d)
	if err != nil {
		return nil, err
	}
	if st, ok := statementOf(cmd); ok {
		if _, update := cmd.(*StatementUpdate); update {
			return nil, status.Error(codes.InvalidArgument, "flightsql: an update is run by DoPut, not GetFlightInfo")
		}
		schema, handle, err := s.srv.ExecuteStatement(ctx, st)
		if err != nil {
			return nil, grpcError(err)
		}
		t, err := Pack(&TicketStatementQuery{StatementHandle: handle})
		if err != nil {
			return nil, grpcError(err)
		}
		return info(d, schema, t)
	}
	if c, ok := cmd.(*PreparedStatementQuery); ok {
		schema, err := s.srv.PreparedSchema(ctx, c.PreparedStatementHandle)
		if err != nil {
			return nil, grpcError(err)
		}
		return info(d, schema, d.Cmd)
	}
	if schema := fixedSchema(cmd); schema != nil {
		return info(d, schema, d.Cmd)
	}
	return nil, status.Errorf(codes.InvalidArgument, "flightsql: GetFlightInfo of a %s", cmd.ProtoReflect().Descriptor().Name())
}

// GetSchema answers the result schema of a statement, a prepared query or
// a metadata command.
func (s *service) GetSchema(ctx context.Context, d *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	cmd, err := command(d)
	if err != nil {
		return nil, err
	}
	var schema *alkaid.Schema
	if st, ok := statementOf(cmd); ok {
		schema, err = s.srv.StatementSchema(ctx, st)
	} else if c, ok := cmd.(*PreparedStatementQuery); ok {
		schema, err = s.srv.PreparedSchema(ctx, c.PreparedStatementHandle)
	} else if schema = fixedSchema(cmd); schema == nil {
		return nil, status.Errorf(codes.InvalidArgument, "flightsql: GetSchema of a %s", cmd.ProtoReflect().Descriptor().Name())
	}
	if err != nil {
		return nil, grpcError(err)
	}
	b, err := flight.EncodeSchema(schema)
	if err != nil {
		return nil, grpcError(err)
	}
	return &flight.SchemaResult{Schema: b}, nil
}

// DoGet sends the result a ticket names.
func (s *service) DoGet(t *flight.Ticket, stream flight.DoGetServer) error {
	ctx := stream.Context()
	cmd, err := Unpack(t.Ticket)
	if err != nil {
		return grpcError(err)
	}
	var r alkaid.RecordReader
	switch c := cmd.(type) {
	case *TicketStatementQuery:
		r, err = s.srv.StatementResult(ctx, c.StatementHandle)
	case *PreparedStatementQuery:
		r, err = s.srv.PreparedResult(ctx, c.PreparedStatementHandle)
	case *GetCatalogs:
		r, err = s.srv.Catalogs(ctx)
	case *GetDBSchemas:
		r, err = s.srv.DBSchemas(ctx, c)
	case *GetTables:
		r, err = s.srv.Tables(ctx, c)
	case *GetTableTypes:
		r, err = s.srv.TableTypes(ctx)
	case *GetPrimaryKeys:
		r, err = s.srv.PrimaryKeys(ctx, c)
	case *GetExportedKeys:
		r, err = s.srv.ExportedKeys(ctx, c)
	case *GetImportedKeys:
		r, err = s.srv.ImportedKeys(ctx, c)
	case *GetCrossReference:
		r, err = s.srv.CrossReference(ctx, c)
	case *GetXdbcTypeInfo:
		r, err = s.srv.XdbcTypeInfo(ctx, c)
	case *GetSqlInfo:
		r, err = s.srv.SqlInfo(ctx, c.Info)
	default:
		return status.Errorf(codes.InvalidArgument, "flightsql: DoGet of a %s", cmd.ProtoReflect().Descriptor().Name())
	}
	if err != nil {
		return grpcError(err)
	}
	defer r.Close()
	w, err := flight.NewRecordWriter(stream, r.Schema())
	if err != nil {
		return grpcError(err)
	}
	if err := w.WriteSchema(); err != nil {
		return grpcError(err)
	}
	for rec, err := range r.Records() {
		if err != nil {
			return grpcError(err)
		}
		if err := w.Write(rec); err != nil {
			return grpcError(err)
		}
	}
	return nil
}

// replay hands out a message already received, then the rest of the
// stream.
type replay struct {
	first *flight.FlightData
	s     flight.DataReceiver
	ended bool // the stream ended
}

func (r *replay) Recv() (*flight.FlightData, error) {
	if m := r.first; m != nil {
		r.first = nil
		return m, nil
	}
	m, err := r.s.Recv()
	if err == io.EOF {
		r.ended = true
	}
	return m, err
}

// rows reads the records of a DoPut after its first message; a stream
// that ended before any schema has no records (of an empty schema).
func rows(first *flight.FlightData, s flight.DataReceiver) (alkaid.RecordReader, error) {
	rp := &replay{first: first, s: s}
	rr, err := flight.NewRecordReader(rp)
	if err != nil {
		if rp.ended && len(first.DataHeader) == 0 {
			return alkaid.NewRecordReader(emptySchema(), func(func(*alkaid.Record, error) bool) {}, nil), nil
		}
		return nil, grpcError(err)
	}
	return alkaid.NewRecordReader(rr.Schema(), rr.Records(), nil), nil
}

// DoPut runs an update, binds parameters, or ingests records.
func (s *service) DoPut(stream flight.DoPutServer) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if err != nil {
		if err == io.EOF {
			return status.Error(codes.InvalidArgument, "flightsql: DoPut without a descriptor")
		}
		return err
	}
	cmd, err := command(first.FlightDescriptor)
	if err != nil {
		return err
	}
	var meta proto.Message
	switch c := cmd.(type) {
	case *StatementUpdate, *StatementSubstraitPlan:
		st, _ := statementOf(c)
		n, err := s.srv.ExecuteUpdate(ctx, st)
		if err != nil {
			return grpcError(err)
		}
		meta = &DoPutUpdateResult{RecordCount: n}
	case *PreparedStatementQuery:
		r, err := rows(first, stream)
		if err != nil {
			return err
		}
		h, err := s.srv.BindParameters(ctx, c.PreparedStatementHandle, r)
		if err != nil {
			return grpcError(err)
		}
		meta = &DoPutPreparedStatementResult{PreparedStatementHandle: h}
	case *PreparedStatementUpdate:
		r, err := rows(first, stream)
		if err != nil {
			return err
		}
		n, err := s.srv.PreparedUpdate(ctx, c.PreparedStatementHandle, r)
		if err != nil {
			return grpcError(err)
		}
		meta = &DoPutUpdateResult{RecordCount: n}
	case *StatementIngest:
		r, err := rows(first, stream)
		if err != nil {
			return err
		}
		n, ierr := s.srv.Ingest(ctx, c, r)
		// The count goes first even after a failure: some rows may have
		// been loaded.
		if err := sendPutResult(stream, &DoPutUpdateResult{RecordCount: n}); err != nil {
			return err
		}
		return grpcError(ierr)
	default:
		return status.Errorf(codes.InvalidArgument, "flightsql: DoPut of a %s", cmd.ProtoReflect().Descriptor().Name())
	}
	return sendPutResult(stream, meta)
}

func sendPutResult(stream flight.DoPutServer, meta proto.Message) error {
	b, err := proto.Marshal(meta)
	if err != nil {
		return status.Errorf(codes.Internal, "flightsql: %v", err)
	}
	return stream.Send(&flight.PutResult{AppMetadata: b})
}
