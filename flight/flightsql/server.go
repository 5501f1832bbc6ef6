package flightsql

import (
	"context"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/flight"
)

// A Statement is what a client asks to run: SQL text, or a Substrait
// plan when Plan is set, in the transaction TransactionID names (none
// when empty).
type Statement struct {
	Query         string
	Plan          *SubstraitPlan
	TransactionID []byte
}

// A Prepared is a prepared statement as a server describes it: its
// handle, the schemas of its result and parameters (nil when unknown)
// and whether it is an update (nil when unknown).
type Prepared struct {
	Handle          []byte
	DatasetSchema   *alkaid.Schema
	ParameterSchema *alkaid.Schema
	IsUpdate        *bool
}

// Server is what a Flight SQL server implements; [NewService] decodes the
// Flight calls into these methods and encodes their answers. Embed
// [BaseServer], which refuses everything with codes.Unimplemented, and
// override what you serve.
//
// A method's error reaches the client as its gRPC status when it has one
// (status.Error), as InvalidArgument when it wraps datatype.ErrInvalid,
// Unimplemented for datatype.ErrNotSupported, ResourceExhausted for
// datatype.ErrLimit, NotFound for fs.ErrNotExist, the context's code for
// a context error, and Internal otherwise.
//
// Every reader a method returns is closed by the service once sent.
type Server interface {
	// StatementSchema is the result schema of st (GetSchema).
	StatementSchema(ctx context.Context, st Statement) (*alkaid.Schema, error)
	// ExecuteStatement starts st (GetFlightInfo) and returns its result
	// schema and a handle that StatementResult redeems.
	ExecuteStatement(ctx context.Context, st Statement) (schema *alkaid.Schema, handle []byte, err error)
	// StatementResult gives the records of a handle of ExecuteStatement
	// (DoGet).
	StatementResult(ctx context.Context, handle []byte) (alkaid.RecordReader, error)
	// ExecuteUpdate runs st and returns the number of rows changed, or
	// -1 when unknown (DoPut).
	ExecuteUpdate(ctx context.Context, st Statement) (int64, error)

	// Prepare prepares st (CreatePreparedStatement and
	// CreatePreparedSubstraitPlan actions).
	Prepare(ctx context.Context, st Statement) (Prepared, error)
	// ClosePrepared releases a prepared statement.
	ClosePrepared(ctx context.Context, handle []byte) error
	// BindParameters binds parameter records to a prepared query (DoPut)
	// and returns the handle to use from now on (handle itself, or a new
	// one for a stateless server).
	BindParameters(ctx context.Context, handle []byte, params alkaid.RecordReader) ([]byte, error)
	// PreparedSchema is the result schema of a prepared query
	// (GetSchema; GetFlightInfo).
	PreparedSchema(ctx context.Context, handle []byte) (*alkaid.Schema, error)
	// PreparedResult gives the records of a prepared query (DoGet).
	PreparedResult(ctx context.Context, handle []byte) (alkaid.RecordReader, error)
	// PreparedUpdate runs a prepared update once per parameter row (no
	// parameters: once) and returns the rows changed (DoPut).
	PreparedUpdate(ctx context.Context, handle []byte, params alkaid.RecordReader) (int64, error)

	// The metadata commands (DoGet): each result has the schema the
	// command fixes (CatalogsSchema, …), which GetFlightInfo and
	// GetSchema answer without calling the server.
	Catalogs(ctx context.Context) (alkaid.RecordReader, error)
	DBSchemas(ctx context.Context, cmd *GetDBSchemas) (alkaid.RecordReader, error)
	Tables(ctx context.Context, cmd *GetTables) (alkaid.RecordReader, error)
	TableTypes(ctx context.Context) (alkaid.RecordReader, error)
	PrimaryKeys(ctx context.Context, cmd *GetPrimaryKeys) (alkaid.RecordReader, error)
	ExportedKeys(ctx context.Context, cmd *GetExportedKeys) (alkaid.RecordReader, error)
	ImportedKeys(ctx context.Context, cmd *GetImportedKeys) (alkaid.RecordReader, error)
	CrossReference(ctx context.Context, cmd *GetCrossReference) (alkaid.RecordReader, error)
	XdbcTypeInfo(ctx context.Context, cmd *GetXdbcTypeInfo) (alkaid.RecordReader, error)
	// SqlInfo gives the information values ids names (all when empty);
	// see SqlInfoReader.
	SqlInfo(ctx context.Context, ids []uint32) (alkaid.RecordReader, error)

	// BeginTransaction starts a transaction and returns its id.
	BeginTransaction(ctx context.Context) ([]byte, error)
	// EndTransaction commits or rolls back a transaction.
	EndTransaction(ctx context.Context, id []byte, how EndTransaction) error
	// BeginSavepoint starts a savepoint in a transaction and returns its
	// id.
	BeginSavepoint(ctx context.Context, txn []byte, name string) ([]byte, error)
	// EndSavepoint releases or rolls back to a savepoint.
	EndSavepoint(ctx context.Context, id []byte, how EndSavepoint) error

	// Cancel stops the query behind info (the CancelFlightInfo action and
	// the older CancelQuery).
	Cancel(ctx context.Context, info *flight.FlightInfo) (flight.CancelStatus, error)
	// Ingest loads rows into the table cmd names and returns the number
	// of rows loaded (DoPut).
	Ingest(ctx context.Context, cmd *StatementIngest, rows alkaid.RecordReader) (int64, error)
}
