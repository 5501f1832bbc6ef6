package flightsql

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight/internal/sqlpb"
)

// Commands and their answers: the messages of Arrow's FlightSql.proto.
type (
	// StatementQuery runs SQL text (GetFlightInfo, GetSchema).
	StatementQuery = sqlpb.CommandStatementQuery
	// StatementSubstraitPlan runs a Substrait plan (GetFlightInfo,
	// GetSchema, DoPut for an update).
	StatementSubstraitPlan = sqlpb.CommandStatementSubstraitPlan
	// StatementUpdate runs SQL text that changes data (DoPut).
	StatementUpdate = sqlpb.CommandStatementUpdate
	// StatementIngest loads records into a table (DoPut).
	StatementIngest = sqlpb.CommandStatementIngest
	// TableDefinitionOptions says what an ingestion does when the table
	// exists or does not.
	TableDefinitionOptions = sqlpb.CommandStatementIngest_TableDefinitionOptions
	// TicketStatementQuery is the ticket of a statement's result.
	TicketStatementQuery = sqlpb.TicketStatementQuery
	// PreparedStatementQuery runs a prepared query (GetFlightInfo,
	// GetSchema, DoGet; DoPut binds its parameters).
	PreparedStatementQuery = sqlpb.CommandPreparedStatementQuery
	// PreparedStatementUpdate runs a prepared update (DoPut).
	PreparedStatementUpdate = sqlpb.CommandPreparedStatementUpdate
	// SubstraitPlan is a serialized Substrait plan and its version.
	SubstraitPlan = sqlpb.SubstraitPlan
	// GetCatalogs lists catalogs.
	GetCatalogs = sqlpb.CommandGetCatalogs
	// GetDBSchemas lists database schemas.
	GetDBSchemas = sqlpb.CommandGetDbSchemas
	// GetTables lists tables.
	GetTables = sqlpb.CommandGetTables
	// GetTableTypes lists table types.
	GetTableTypes = sqlpb.CommandGetTableTypes
	// GetPrimaryKeys lists the primary key columns of a table.
	GetPrimaryKeys = sqlpb.CommandGetPrimaryKeys
	// GetExportedKeys lists the foreign keys that refer to a table.
	GetExportedKeys = sqlpb.CommandGetExportedKeys
	// GetImportedKeys lists the foreign keys of a table.
	GetImportedKeys = sqlpb.CommandGetImportedKeys
	// GetCrossReference lists the foreign keys of one table that refer
	// to another.
	GetCrossReference = sqlpb.CommandGetCrossReference
	// GetXdbcTypeInfo describes the data types a server supports.
	GetXdbcTypeInfo = sqlpb.CommandGetXdbcTypeInfo
	// GetSqlInfo asks for server information values.
	GetSqlInfo = sqlpb.CommandGetSqlInfo
	// DoPutUpdateResult is the PutResult metadata of an update.
	DoPutUpdateResult = sqlpb.DoPutUpdateResult
	// DoPutPreparedStatementResult is the PutResult metadata of a
	// parameter binding.
	DoPutPreparedStatementResult = sqlpb.DoPutPreparedStatementResult
	// SqlInfo names a server information value.
	SqlInfo = sqlpb.SqlInfo
	// EndTransaction is how a transaction ends.
	EndTransaction = sqlpb.ActionEndTransactionRequest_EndTransaction
	// EndSavepoint is how a savepoint ends.
	EndSavepoint = sqlpb.ActionEndSavepointRequest_EndSavepoint
)

// How transactions and savepoints end.
const (
	Commit            = sqlpb.ActionEndTransactionRequest_END_TRANSACTION_COMMIT
	Rollback          = sqlpb.ActionEndTransactionRequest_END_TRANSACTION_ROLLBACK
	ReleaseSavepoint  = sqlpb.ActionEndSavepointRequest_END_SAVEPOINT_RELEASE
	RollbackSavepoint = sqlpb.ActionEndSavepointRequest_END_SAVEPOINT_ROLLBACK
)

// Some server information values (all are [SqlInfo] constants of the
// generated enum; these are the ones a Flight SQL server usually gives).
const (
	InfoServerName                = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_NAME
	InfoServerVersion             = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_VERSION
	InfoServerArrowVersion        = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_ARROW_VERSION
	InfoServerReadOnly            = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_READ_ONLY
	InfoServerSQL                 = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_SQL
	InfoServerSubstrait           = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_SUBSTRAIT
	InfoServerSubstraitMinVersion = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_SUBSTRAIT_MIN_VERSION
	InfoServerSubstraitMaxVersion = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_SUBSTRAIT_MAX_VERSION
	InfoServerTransaction         = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_TRANSACTION
	InfoServerCancel              = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_CANCEL
	InfoServerBulkIngestion       = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_BULK_INGESTION
	InfoServerIngestTransactions  = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_INGEST_TRANSACTIONS_SUPPORTED
	InfoServerStatementTimeout    = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_STATEMENT_TIMEOUT
	InfoServerTransactionTimeout  = sqlpb.SqlInfo_FLIGHT_SQL_SERVER_TRANSACTION_TIMEOUT
	TransactionSupportNone        = sqlpb.SqlSupportedTransaction_SQL_SUPPORTED_TRANSACTION_NONE
	TransactionSupportTransaction = sqlpb.SqlSupportedTransaction_SQL_SUPPORTED_TRANSACTION_TRANSACTION
	TransactionSupportSavepoint   = sqlpb.SqlSupportedTransaction_SQL_SUPPORTED_TRANSACTION_SAVEPOINT
)

// Ingestion table options.
const (
	IfNotExistCreate = sqlpb.CommandStatementIngest_TableDefinitionOptions_TABLE_NOT_EXIST_OPTION_CREATE
	IfNotExistFail   = sqlpb.CommandStatementIngest_TableDefinitionOptions_TABLE_NOT_EXIST_OPTION_FAIL
	IfExistsFail     = sqlpb.CommandStatementIngest_TableDefinitionOptions_TABLE_EXISTS_OPTION_FAIL
	IfExistsAppend   = sqlpb.CommandStatementIngest_TableDefinitionOptions_TABLE_EXISTS_OPTION_APPEND
	IfExistsReplace  = sqlpb.CommandStatementIngest_TableDefinitionOptions_TABLE_EXISTS_OPTION_REPLACE
)

// The actions Flight SQL defines, by the names DoAction carries.
const (
	ActionCreatePreparedStatement     = "CreatePreparedStatement"
	ActionCreatePreparedSubstraitPlan = "CreatePreparedSubstraitPlan"
	ActionClosePreparedStatement      = "ClosePreparedStatement"
	ActionBeginTransaction            = "BeginTransaction"
	ActionEndTransaction              = "EndTransaction"
	ActionBeginSavepoint              = "BeginSavepoint"
	ActionEndSavepoint                = "EndSavepoint"
	ActionCancelQuery                 = "CancelQuery"
)

// A Command is one of this package's protocol messages.
type Command = proto.Message

// TypeURLPrefix starts the type URL of every packed command: Arrow's
// protobuf package, whatever the package of the Go code.
const TypeURLPrefix = "type.googleapis.com/arrow.flight.protocol.sql."

// ourPackage is the protobuf package of the generated messages.
const ourPackage = "alkaid.flight.protocol.sql"

// Pack encodes cmd in a google.protobuf.Any with Arrow's type URL, as
// FlightDescriptor.cmd, Ticket and Action bodies carry it.
func Pack(cmd Command) ([]byte, error) {
	d := cmd.ProtoReflect().Descriptor()
	if d.ParentFile().Package() != ourPackage {
		return nil, fmt.Errorf("flightsql: %s is not a Flight SQL message: %w", d.FullName(), datatype.ErrInvalid)
	}
	v, err := proto.Marshal(cmd)
	if err != nil {
		return nil, fmt.Errorf("flightsql: encode %s: %w", d.Name(), datatype.ErrInvalid)
	}
	return proto.Marshal(&anypb.Any{TypeUrl: TypeURLPrefix + string(d.Name()), Value: v})
}

// Unpack decodes a command packed by [Pack] (or any Flight SQL peer). An
// unknown type, a foreign type URL or malformed bytes give an error
// wrapping datatype.ErrInvalid.
func Unpack(b []byte) (Command, error) {
	var a anypb.Any
	if err := proto.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("flightsql: a command that is not a google.protobuf.Any: %w", datatype.ErrInvalid)
	}
	name, ok := strings.CutPrefix(a.TypeUrl, TypeURLPrefix)
	if !ok || strings.Contains(name, ".") {
		return nil, fmt.Errorf("flightsql: command type %q is not a Flight SQL message: %w", clip(a.TypeUrl), datatype.ErrInvalid)
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(ourPackage + "." + name))
	if err != nil {
		return nil, fmt.Errorf("flightsql: unknown command type %q: %w", clip(name), datatype.ErrInvalid)
	}
	m := mt.New().Interface()
	if err := proto.Unmarshal(a.Value, m); err != nil {
		return nil, fmt.Errorf("flightsql: malformed %s: %w", name, datatype.ErrInvalid)
	}
	return m, nil
}

// unpackAs decodes b as a command of the type of dst.
func unpackAs(b []byte, dst Command) error {
	m, err := Unpack(b)
	if err != nil {
		return err
	}
	if m.ProtoReflect().Descriptor() != dst.ProtoReflect().Descriptor() {
		return fmt.Errorf("flightsql: a %s where a %s was expected: %w", m.ProtoReflect().Descriptor().Name(), dst.ProtoReflect().Descriptor().Name(), datatype.ErrInvalid)
	}
	proto.Merge(dst, m)
	return nil
}

// clip shortens a peer's string for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
