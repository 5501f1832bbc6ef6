package flightsql

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/flight"
)

// BaseServer answers every [Server] method with codes.Unimplemented.
// Embed it in a Server and override what you serve.
type BaseServer struct{}

var _ Server = BaseServer{}

func unimplemented(what string) error {
	return status.Errorf(codes.Unimplemented, "flightsql: %s is not served", what)
}

// StatementSchema answers codes.Unimplemented.
func (BaseServer) StatementSchema(_ context.Context, _ Statement) (*alkaid.Schema, error) {
	return nil, unimplemented("StatementSchema")
}

// ExecuteStatement answers codes.Unimplemented.
func (BaseServer) ExecuteStatement(_ context.Context, _ Statement) (*alkaid.Schema, []byte, error) {
	return nil, nil, unimplemented("ExecuteStatement")
}

// StatementResult answers codes.Unimplemented.
func (BaseServer) StatementResult(_ context.Context, _ []byte) (alkaid.RecordReader, error) {
	return nil, unimplemented("StatementResult")
}

// ExecuteUpdate answers codes.Unimplemented.
func (BaseServer) ExecuteUpdate(_ context.Context, _ Statement) (int64, error) {
	return 0, unimplemented("ExecuteUpdate")
}

// Prepare answers codes.Unimplemented.
func (BaseServer) Prepare(_ context.Context, _ Statement) (Prepared, error) {
	return Prepared{}, unimplemented("Prepare")
}

// ClosePrepared answers codes.Unimplemented.
func (BaseServer) ClosePrepared(_ context.Context, _ []byte) error {
	return unimplemented("ClosePrepared")
}

// BindParameters answers codes.Unimplemented.
func (BaseServer) BindParameters(_ context.Context, _ []byte, _ alkaid.RecordReader) ([]byte, error) {
	return nil, unimplemented("BindParameters")
}

// PreparedSchema answers codes.Unimplemented.
func (BaseServer) PreparedSchema(_ context.Context, _ []byte) (*alkaid.Schema, error) {
	return nil, unimplemented("PreparedSchema")
}

// PreparedResult answers codes.Unimplemented.
func (BaseServer) PreparedResult(_ context.Context, _ []byte) (alkaid.RecordReader, error) {
	return nil, unimplemented("PreparedResult")
}

// PreparedUpdate answers codes.Unimplemented.
func (BaseServer) PreparedUpdate(_ context.Context, _ []byte, _ alkaid.RecordReader) (int64, error) {
	return 0, unimplemented("PreparedUpdate")
}

// Catalogs answers codes.Unimplemented.
func (BaseServer) Catalogs(_ context.Context) (alkaid.RecordReader, error) {
	return nil, unimplemented("Catalogs")
}

// DBSchemas answers codes.Unimplemented.
func (BaseServer) DBSchemas(_ context.Context, _ *GetDBSchemas) (alkaid.RecordReader, error) {
	return nil, unimplemented("DBSchemas")
}

// Tables answers codes.Unimplemented.
func (BaseServer) Tables(_ context.Context, _ *GetTables) (alkaid.RecordReader, error) {
	return nil, unimplemented("Tables")
}

// TableTypes answers codes.Unimplemented.
func (BaseServer) TableTypes(_ context.Context) (alkaid.RecordReader, error) {
	return nil, unimplemented("TableTypes")
}

// PrimaryKeys answers codes.Unimplemented.
func (BaseServer) PrimaryKeys(_ context.Context, _ *GetPrimaryKeys) (alkaid.RecordReader, error) {
	return nil, unimplemented("PrimaryKeys")
}

// ExportedKeys answers codes.Unimplemented.
func (BaseServer) ExportedKeys(_ context.Context, _ *GetExportedKeys) (alkaid.RecordReader, error) {
	return nil, unimplemented("ExportedKeys")
}

// ImportedKeys answers codes.Unimplemented.
func (BaseServer) ImportedKeys(_ context.Context, _ *GetImportedKeys) (alkaid.RecordReader, error) {
	return nil, unimplemented("ImportedKeys")
}

// CrossReference answers codes.Unimplemented.
func (BaseServer) CrossReference(_ context.Context, _ *GetCrossReference) (alkaid.RecordReader, error) {
	return nil, unimplemented("CrossReference")
}

// XdbcTypeInfo answers codes.Unimplemented.
func (BaseServer) XdbcTypeInfo(_ context.Context, _ *GetXdbcTypeInfo) (alkaid.RecordReader, error) {
	return nil, unimplemented("XdbcTypeInfo")
}

// SqlInfo answers codes.Unimplemented.
func (BaseServer) SqlInfo(_ context.Context, _ []uint32) (alkaid.RecordReader, error) {
	return nil, unimplemented("SqlInfo")
}

// BeginTransaction answers codes.Unimplemented.
func (BaseServer) BeginTransaction(_ context.Context) ([]byte, error) {
	return nil, unimplemented("BeginTransaction")
}

// EndTransaction answers codes.Unimplemented.
func (BaseServer) EndTransaction(_ context.Context, _ []byte, _ EndTransaction) error {
	return unimplemented("EndTransaction")
}

// BeginSavepoint answers codes.Unimplemented.
func (BaseServer) BeginSavepoint(_ context.Context, _ []byte, _ string) ([]byte, error) {
	return nil, unimplemented("BeginSavepoint")
}

// EndSavepoint answers codes.Unimplemented.
func (BaseServer) EndSavepoint(_ context.Context, _ []byte, _ EndSavepoint) error {
	return unimplemented("EndSavepoint")
}

// Cancel answers codes.Unimplemented.
func (BaseServer) Cancel(_ context.Context, _ *flight.FlightInfo) (flight.CancelStatus, error) {
	return flight.CancelUnspecified, unimplemented("Cancel")
}

// Ingest answers codes.Unimplemented.
func (BaseServer) Ingest(_ context.Context, _ *StatementIngest, _ alkaid.RecordReader) (int64, error) {
	return 0, unimplemented("Ingest")
}
