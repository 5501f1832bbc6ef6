package scenario

import (
	"context"
	"fmt"
	"maps"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/flightsql"
)

// sqlServer is the server of the flight_sql scenarios: it checks what
// the client sends and answers fixed handles, schemas and counts.
type sqlServer struct {
	flightsql.BaseServer
	info map[uint32]any
}

func badRequest(format string, args ...any) error {
	return fmt.Errorf("scenario: "+format+": %w", append(args, datatype.ErrInvalid)...)
}

// checkPlan checks the Substrait plan of st.
func checkPlan(st flightsql.Statement) error {
	if err := expectBytes("plan", st.Plan.Plan, planText); err != nil {
		return badRequest("%v", err)
	}
	if err := expect("plan version", st.Plan.Version, planVersion); err != nil {
		return badRequest("%v", err)
	}
	return nil
}

// checkQuery checks a statement: its plan, or its text is want.
func checkQuery(st flightsql.Statement, want string) error {
	if st.Plan != nil {
		return checkPlan(st)
	}
	if st.Query != want {
		return badRequest("statement %q, want %q", st.Query, want)
	}
	return nil
}

// schemaFor is the result schema of a statement, by its transaction.
func schemaFor(txn []byte) *alkaid.Schema {
	if len(txn) == 0 {
		return querySchema()
	}
	return txnSchema()
}

func (s *sqlServer) StatementSchema(_ context.Context, st flightsql.Statement) (*alkaid.Schema, error) {
	if err := checkQuery(st, selectStatement); err != nil {
		return nil, err
	}
	return schemaFor(st.TransactionID), nil
}

func (s *sqlServer) ExecuteStatement(_ context.Context, st flightsql.Statement) (*alkaid.Schema, []byte, error) {
	if err := checkQuery(st, selectStatement); err != nil {
		return nil, nil, err
	}
	h := "SELECT STATEMENT"
	if st.Plan != nil {
		h = "PLAN"
	}
	if len(st.TransactionID) > 0 {
		h += " WITH TXN"
	}
	return schemaFor(st.TransactionID), []byte(h + " HANDLE"), nil
}

// handleSchema is the result schema of a statement or prepared query
// handle.
func handleSchema(h []byte) (*alkaid.Schema, error) {
	switch string(h) {
	case "SELECT STATEMENT HANDLE", "SELECT PREPARED STATEMENT HANDLE", "PLAN HANDLE":
		return querySchema(), nil
	case "SELECT STATEMENT WITH TXN HANDLE", "SELECT PREPARED STATEMENT WITH TXN HANDLE", "PLAN WITH TXN HANDLE":
		return txnSchema(), nil
	}
	return nil, badRequest("unknown handle %q", h)
}

func (s *sqlServer) StatementResult(_ context.Context, h []byte) (alkaid.RecordReader, error) {
	schema, err := handleSchema(h)
	if err != nil {
		return nil, err
	}
	return empty(schema), nil
}

func (s *sqlServer) ExecuteUpdate(_ context.Context, st flightsql.Statement) (int64, error) {
	if err := checkQuery(st, updateStatement); err != nil {
		return 0, err
	}
	if len(st.TransactionID) > 0 {
		return updateRowsInTxn, nil
	}
	return updateRows, nil
}

func (s *sqlServer) Prepare(_ context.Context, st flightsql.Statement) (flightsql.Prepared, error) {
	h := "PLAN"
	if st.Plan != nil {
		if err := checkPlan(st); err != nil {
			return flightsql.Prepared{}, err
		}
	} else if st.Query != selectPrepared && st.Query != updatePrepared {
		return flightsql.Prepared{}, badRequest("statement %q to prepare", st.Query)
	} else {
		h = st.Query
	}
	if len(st.TransactionID) > 0 {
		h += " WITH TXN"
	}
	return flightsql.Prepared{Handle: []byte(h + " HANDLE")}, nil
}

func (s *sqlServer) ClosePrepared(_ context.Context, h []byte) error {
	switch string(h) {
	case "SELECT PREPARED STATEMENT HANDLE", "UPDATE PREPARED STATEMENT HANDLE", "PLAN HANDLE",
		"SELECT PREPARED STATEMENT WITH TXN HANDLE", "UPDATE PREPARED STATEMENT WITH TXN HANDLE", "PLAN WITH TXN HANDLE":
		return nil
	}
	return badRequest("closing unknown handle %q", h)
}

func (s *sqlServer) BindParameters(_ context.Context, h []byte, params alkaid.RecordReader) ([]byte, error) {
	if _, err := handleSchema(h); err != nil {
		return nil, err
	}
	if !params.Schema().Equal(querySchema()) {
		return nil, badRequest("parameter schema\n%v\nwant\n%v", params.Schema(), querySchema())
	}
	for _, err := range params.Records() {
		if err != nil {
			return nil, err
		}
	}
	return h, nil
}

func (s *sqlServer) PreparedSchema(_ context.Context, h []byte) (*alkaid.Schema, error) {
	return handleSchema(h)
}

func (s *sqlServer) PreparedResult(ctx context.Context, h []byte) (alkaid.RecordReader, error) {
	return s.StatementResult(ctx, h)
}

func (s *sqlServer) PreparedUpdate(_ context.Context, h []byte, params alkaid.RecordReader) (int64, error) {
	for _, err := range params.Records() {
		if err != nil {
			return 0, err
		}
	}
	switch string(h) {
	case "UPDATE PREPARED STATEMENT HANDLE", "PLAN HANDLE":
		return preparedUpdateRows, nil
	case "UPDATE PREPARED STATEMENT WITH TXN HANDLE", "PLAN WITH TXN HANDLE":
		return preparedUpdateRowsTxn, nil
	}
	return 0, badRequest("update of unknown handle %q", h)
}

func (s *sqlServer) Catalogs(context.Context) (alkaid.RecordReader, error) {
	return empty(flightsql.CatalogsSchema()), nil
}

// checkStrings checks pairs of got and wanted strings (nil is absent).
func checkStrings(pairs ...any) error {
	for i := 0; i < len(pairs); i += 3 {
		what, got, want := pairs[i].(string), pairs[i+1].(*string), pairs[i+2].(string)
		if got == nil || *got != want {
			return badRequest("%s: got %v, want %q", what, got, want)
		}
	}
	return nil
}

func (s *sqlServer) DBSchemas(_ context.Context, c *flightsql.GetDBSchemas) (alkaid.RecordReader, error) {
	if err := checkStrings("catalog", c.Catalog, "catalog", "db schema filter", c.DbSchemaFilterPattern, "db_schema_filter_pattern"); err != nil {
		return nil, err
	}
	return empty(flightsql.DBSchemasSchema()), nil
}

func (s *sqlServer) Tables(_ context.Context, c *flightsql.GetTables) (alkaid.RecordReader, error) {
	if err := checkStrings("catalog", c.Catalog, "catalog", "db schema filter", c.DbSchemaFilterPattern, "db_schema_filter_pattern",
		"table filter", c.TableNameFilterPattern, "table_filter_pattern"); err != nil {
		return nil, err
	}
	if len(c.TableTypes) != 2 || c.TableTypes[0] != "table" || c.TableTypes[1] != "view" || !c.IncludeSchema {
		return nil, badRequest("table types %q, include schema %v", c.TableTypes, c.IncludeSchema)
	}
	return empty(flightsql.TablesSchema(true)), nil
}

func (s *sqlServer) TableTypes(context.Context) (alkaid.RecordReader, error) {
	return empty(flightsql.TableTypesSchema()), nil
}

// checkTable checks a table reference of the key commands.
func checkTable(catalog, schema *string, table string) error {
	if err := checkStrings("catalog", catalog, "catalog", "db schema", schema, "db_schema"); err != nil {
		return err
	}
	if table != "table" {
		return badRequest("table %q", table)
	}
	return nil
}

func (s *sqlServer) PrimaryKeys(_ context.Context, c *flightsql.GetPrimaryKeys) (alkaid.RecordReader, error) {
	if err := checkTable(c.Catalog, c.DbSchema, c.Table); err != nil {
		return nil, err
	}
	return empty(flightsql.PrimaryKeysSchema()), nil
}

func (s *sqlServer) ExportedKeys(_ context.Context, c *flightsql.GetExportedKeys) (alkaid.RecordReader, error) {
	if err := checkTable(c.Catalog, c.DbSchema, c.Table); err != nil {
		return nil, err
	}
	return empty(flightsql.ForeignKeysSchema()), nil
}

func (s *sqlServer) ImportedKeys(_ context.Context, c *flightsql.GetImportedKeys) (alkaid.RecordReader, error) {
	if err := checkTable(c.Catalog, c.DbSchema, c.Table); err != nil {
		return nil, err
	}
	return empty(flightsql.ForeignKeysSchema()), nil
}

func (s *sqlServer) CrossReference(_ context.Context, c *flightsql.GetCrossReference) (alkaid.RecordReader, error) {
	if err := checkStrings("pk catalog", c.PkCatalog, "pk_catalog", "pk db schema", c.PkDbSchema, "pk_db_schema",
		"fk catalog", c.FkCatalog, "fk_catalog", "fk db schema", c.FkDbSchema, "fk_db_schema"); err != nil {
		return nil, err
	}
	if c.PkTable != "pk_table" || c.FkTable != "fk_table" {
		return nil, badRequest("tables %q and %q", c.PkTable, c.FkTable)
	}
	return empty(flightsql.ForeignKeysSchema()), nil
}

func (s *sqlServer) XdbcTypeInfo(context.Context, *flightsql.GetXdbcTypeInfo) (alkaid.RecordReader, error) {
	return empty(flightsql.XdbcTypeInfoSchema()), nil
}

func (s *sqlServer) SqlInfo(_ context.Context, ids []uint32) (alkaid.RecordReader, error) {
	if len(ids) == 2 { // the encoding check: the ids, no values
		if ids[0] != uint32(flightsql.InfoServerName) || ids[1] != uint32(flightsql.InfoServerReadOnly) {
			return nil, badRequest("SqlInfo ids %v", ids)
		}
		return empty(flightsql.SqlInfoSchema()), nil
	}
	return flightsql.SqlInfoReader(s.info, ids)
}

func (s *sqlServer) BeginTransaction(context.Context) ([]byte, error) {
	return []byte(transactionID), nil
}

func (s *sqlServer) EndTransaction(_ context.Context, id []byte, _ flightsql.EndTransaction) error {
	if err := expectBytes("transaction id", id, transactionID); err != nil {
		return badRequest("%v", err)
	}
	return nil
}

func (s *sqlServer) BeginSavepoint(_ context.Context, txn []byte, name string) ([]byte, error) {
	if err := expectBytes("transaction id", txn, transactionID); err != nil {
		return nil, badRequest("%v", err)
	}
	if name != savepointName {
		return nil, badRequest("savepoint name %q", name)
	}
	return []byte(savepointID), nil
}

func (s *sqlServer) EndSavepoint(_ context.Context, id []byte, _ flightsql.EndSavepoint) error {
	if err := expectBytes("savepoint id", id, savepointID); err != nil {
		return badRequest("%v", err)
	}
	return nil
}

func (s *sqlServer) Cancel(_ context.Context, fi *flight.FlightInfo) (flight.CancelStatus, error) {
	if len(fi.Endpoint) != 1 {
		return flight.CancelUnspecified, badRequest("cancel of %d endpoints", len(fi.Endpoint))
	}
	cmd, err := flightsql.Unpack(fi.Endpoint[0].GetTicket().GetTicket())
	if err != nil {
		return flight.CancelUnspecified, err
	}
	t, ok := cmd.(*flightsql.TicketStatementQuery)
	if !ok || string(t.StatementHandle) != "PLAN HANDLE" {
		return flight.CancelUnspecified, badRequest("cancel of ticket %v", cmd)
	}
	return flight.CancelCancelled, nil
}

// sqlIngestion: flight_sql:ingestion loads three rows with every
// ingestion option set.
type sqlIngestion struct{}

// ingestCommand is the command the ingestion client sends.
func ingestCommand() *flightsql.StatementIngest {
	return &flightsql.StatementIngest{
		TableDefinitionOptions: &flightsql.TableDefinitionOptions{IfNotExist: flightsql.IfNotExistCreate, IfExists: flightsql.IfExistsReplace},
		Table:                  "test_table",
		Schema:                 str("test_schema"),
		Catalog:                str("test_catalog"),
		Temporary:              true,
		TransactionId:          []byte("123"),
		Options:                map[string]string{"key1": "val1", "key2": "val2"},
	}
}

func ingestSchema() *alkaid.Schema {
	return alkaid.NewSchema([]datatype.Field{{Name: "test_field", Type: datatype.Int64, Nullable: true}}, datatype.Metadata{})
}

type ingestServer struct{ flightsql.BaseServer }

func (sqlIngestion) Server(int) (flight.Service, []flight.Option, func(), error) {
	return plain(flightsql.NewService(ingestServer{}))
}

func (ingestServer) SqlInfo(_ context.Context, ids []uint32) (alkaid.RecordReader, error) {
	return flightsql.SqlInfoReader(map[uint32]any{
		uint32(flightsql.InfoServerBulkIngestion):      true,
		uint32(flightsql.InfoServerIngestTransactions): true,
	}, ids)
}

func (ingestServer) Ingest(_ context.Context, c *flightsql.StatementIngest, rows alkaid.RecordReader) (int64, error) {
	want := ingestCommand()
	switch {
	case c.GetTableDefinitionOptions().GetIfNotExist() != want.TableDefinitionOptions.IfNotExist,
		c.GetTableDefinitionOptions().GetIfExists() != want.TableDefinitionOptions.IfExists,
		c.Table != want.Table, c.GetSchema() != *want.Schema, c.GetCatalog() != *want.Catalog,
		c.Temporary != want.Temporary, string(c.TransactionId) != string(want.TransactionId),
		!maps.Equal(c.Options, want.Options):
		return 0, badRequest("ingest command %v", c)
	}
	if !rows.Schema().Equal(ingestSchema()) {
		return 0, badRequest("ingest schema\n%v", rows.Schema())
	}
	var n int64
	for rec, err := range rows.Records() {
		if err != nil {
			return n, err
		}
		n += int64(rec.NumRows())
	}
	return n, nil
}

func (sqlIngestion) Client(ctx context.Context, addr string) error {
	fc, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer fc.Close()
	nulls := array.NewPrimitiveBuilder[int64](datatype.Int64)
	nulls.AppendNulls(int(ingestRows))
	rec, err := alkaid.NewRecord(ingestSchema(), []array.Array{nulls.NewArray()}, int(ingestRows))
	if err != nil {
		return err
	}
	t, err := alkaid.TableFromRecords(ingestSchema(), []*alkaid.Record{rec})
	if err != nil {
		return err
	}
	n, err := flightsql.NewClient(fc).Ingest(ctx, ingestCommand(), t)
	if err != nil {
		return err
	}
	return expect("ingested rows", n, ingestRows)
}
