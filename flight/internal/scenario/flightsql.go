package scenario

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/flightsql"
)

func init() {
	scenarios["flight_sql"] = func() Scenario { return sqlScenario{} }
	scenarios["flight_sql:extension"] = func() Scenario { return sqlScenario{extension: true} }
	scenarios["flight_sql:ingestion"] = func() Scenario { return sqlIngestion{} }
}

// The values both sides of the Flight SQL scenarios agree on.
const (
	updateRows            int64 = 10000
	updateRowsInTxn       int64 = 15000
	preparedUpdateRows    int64 = 20000
	preparedUpdateRowsTxn int64 = 25000
	ingestRows            int64 = 3

	selectStatement = "SELECT STATEMENT"
	updateStatement = "UPDATE STATEMENT"
	selectPrepared  = "SELECT PREPARED STATEMENT"
	updatePrepared  = "UPDATE PREPARED STATEMENT"
	planText        = "plan"
	planVersion     = "version"
	transactionID   = "transaction_id"
	savepointName   = "savepoint_name"
	savepointID     = "savepoint_id"
)

// plan is the Substrait plan the extension scenario sends.
func plan() *flightsql.SubstraitPlan {
	return &flightsql.SubstraitPlan{Plan: []byte(planText), Version: planVersion}
}

// columnMetadata is the Flight SQL column metadata of the query schemas
// (the transaction's has the remarks before the precision).
func columnMetadata(remarksFirst bool) datatype.Metadata {
	const p = "ARROW:FLIGHT:SQL:"
	kv := [][2]string{
		{p + "TABLE_NAME", "test"}, {p + "IS_AUTO_INCREMENT", "1"}, {p + "IS_CASE_SENSITIVE", "0"},
		{p + "TYPE_NAME", "type_test"}, {p + "SCHEMA_NAME", "schema_test"}, {p + "IS_SEARCHABLE", "1"},
		{p + "CATALOG_NAME", "catalog_test"}, {p + "PRECISION", "100"}, {p + "REMARKS", "test column"},
	}
	if remarksFirst {
		kv[7], kv[8] = kv[8], kv[7]
	}
	var keys, values []string
	for _, e := range kv {
		keys, values = append(keys, e[0]), append(values, e[1])
	}
	return datatype.NewMetadata(keys, values)
}

// querySchema is the result (and parameter) schema of the statements
// outside a transaction; txnSchema of those in one.
func querySchema() *alkaid.Schema {
	return alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Int64, Nullable: true, Metadata: columnMetadata(false)}}, datatype.Metadata{})
}

func txnSchema() *alkaid.Schema {
	return alkaid.NewSchema([]datatype.Field{{Name: "pkey", Type: datatype.Int32, Nullable: true, Metadata: columnMetadata(true)}}, datatype.Metadata{})
}

// empty is a reader of no records of schema s.
func empty(s *alkaid.Schema) alkaid.RecordReader {
	return alkaid.NewRecordReader(s, func(func(*alkaid.Record, error) bool) {}, nil)
}

// expect fails when got is not want.
func expect[T comparable](what string, got, want T) error {
	if got != want {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

func expectBytes(what string, got []byte, want string) error {
	if !bytes.Equal(got, []byte(want)) {
		return fmt.Errorf("%s: got %q, want %q", what, got, want)
	}
	return nil
}

// sqlScenario: flight_sql checks every command's encoding against a
// server that checks every field it receives and answers fixed schemas
// and counts; flight_sql:extension adds Substrait plans, SqlInfo values,
// cancellation and transactions with savepoints.
type sqlScenario struct{ extension bool }

func (sqlScenario) Server(int) (flight.Service, []flight.Option, func(), error) {
	return plain(flightsql.NewService(&sqlServer{info: map[uint32]any{
		uint32(flightsql.InfoServerSQL):                 false,
		uint32(flightsql.InfoServerSubstrait):           true,
		uint32(flightsql.InfoServerSubstraitMinVersion): "min_version",
		uint32(flightsql.InfoServerSubstraitMaxVersion): "max_version",
		uint32(flightsql.InfoServerTransaction):         int32(flightsql.TransactionSupportSavepoint),
		uint32(flightsql.InfoServerCancel):              true,
		uint32(flightsql.InfoServerStatementTimeout):    int32(42),
		uint32(flightsql.InfoServerTransactionTimeout):  int32(7),
	}}))
}

func (s sqlScenario) Client(ctx context.Context, addr string) error {
	fc, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer fc.Close()
	c := flightsql.NewClient(fc)
	steps := []func(context.Context, *flightsql.Client) error{checkMetadata, checkStatements, checkPrepared}
	if s.extension {
		steps = []func(context.Context, *flightsql.Client) error{checkMetadata, checkSqlInfo, checkPlans, checkPreparedPlans, checkTransactions}
	}
	for _, step := range steps {
		if err := step(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// checkResult reads the first endpoint of fi and checks its schema.
func checkResult(ctx context.Context, c *flightsql.Client, fi *flight.FlightInfo, want *alkaid.Schema) error {
	if len(fi.Endpoint) == 0 {
		return fmt.Errorf("a FlightInfo without endpoints")
	}
	r, err := c.Get(ctx, fi.Endpoint[0].Ticket)
	if err != nil {
		return err
	}
	if !r.Schema().Equal(want) {
		return fmt.Errorf("result schema:\n%v\nwant:\n%v", r.Schema(), want)
	}
	for _, err := range r.Records() {
		if err != nil {
			return err
		}
	}
	return nil
}

func checkSchema(what string, got *alkaid.Schema, err error, want *alkaid.Schema) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if !got.Equal(want) {
		return fmt.Errorf("%s: schema:\n%v\nwant:\n%v", what, got, want)
	}
	return nil
}

// checkCommand runs cmd (GetFlightInfo, DoGet) and asks for its schema.
func checkCommand(ctx context.Context, c *flightsql.Client, cmd flightsql.Command, want *alkaid.Schema) error {
	what := fmt.Sprintf("%T", cmd)
	fi, err := c.CommandInfo(ctx, cmd)
	if err != nil {
		return err
	}
	if err := checkResult(ctx, c, fi, want); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	got, err := c.CommandSchema(ctx, cmd)
	return checkSchema(what, got, err, want)
}

func str(s string) *string { return &s }

func checkMetadata(ctx context.Context, c *flightsql.Client) error {
	ref := func() (*string, *string, string) { return str("catalog"), str("db_schema"), "table" }
	cat, sch, tab := ref()
	cases := []struct {
		cmd  flightsql.Command
		want *alkaid.Schema
	}{
		{&flightsql.GetCatalogs{}, flightsql.CatalogsSchema()},
		{&flightsql.GetDBSchemas{Catalog: str("catalog"), DbSchemaFilterPattern: str("db_schema_filter_pattern")}, flightsql.DBSchemasSchema()},
		{&flightsql.GetTables{Catalog: str("catalog"), DbSchemaFilterPattern: str("db_schema_filter_pattern"),
			TableNameFilterPattern: str("table_filter_pattern"), TableTypes: []string{"table", "view"}, IncludeSchema: true}, flightsql.TablesSchema(true)},
		{&flightsql.GetTableTypes{}, flightsql.TableTypesSchema()},
		{&flightsql.GetPrimaryKeys{Catalog: cat, DbSchema: sch, Table: tab}, flightsql.PrimaryKeysSchema()},
		{&flightsql.GetExportedKeys{Catalog: cat, DbSchema: sch, Table: tab}, flightsql.ForeignKeysSchema()},
		{&flightsql.GetImportedKeys{Catalog: cat, DbSchema: sch, Table: tab}, flightsql.ForeignKeysSchema()},
		{&flightsql.GetCrossReference{PkCatalog: str("pk_catalog"), PkDbSchema: str("pk_db_schema"), PkTable: "pk_table",
			FkCatalog: str("fk_catalog"), FkDbSchema: str("fk_db_schema"), FkTable: "fk_table"}, flightsql.ForeignKeysSchema()},
		{&flightsql.GetXdbcTypeInfo{}, flightsql.XdbcTypeInfoSchema()},
		{&flightsql.GetSqlInfo{Info: []uint32{uint32(flightsql.InfoServerName), uint32(flightsql.InfoServerReadOnly)}}, flightsql.SqlInfoSchema()},
	}
	for _, tc := range cases {
		if err := checkCommand(ctx, c, tc.cmd, tc.want); err != nil {
			return err
		}
	}
	got, err := c.CommandSchema(ctx, &flightsql.GetTables{})
	return checkSchema("GetTables without schemas", got, err, flightsql.TablesSchema(false))
}

func checkStatements(ctx context.Context, c *flightsql.Client) error {
	st := flightsql.Statement{Query: selectStatement}
	fi, err := c.Execute(ctx, st)
	if err != nil {
		return err
	}
	if err := checkResult(ctx, c, fi, querySchema()); err != nil {
		return err
	}
	got, err := c.ExecuteSchema(ctx, st)
	if err := checkSchema("statement", got, err, querySchema()); err != nil {
		return err
	}
	n, err := c.ExecuteUpdate(ctx, flightsql.Statement{Query: updateStatement})
	if err != nil {
		return err
	}
	return expect("update rows", n, updateRows)
}

// params is the one-row parameter record the prepared queries bind.
func params() alkaid.RecordReader {
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.Append(1)
	rec, _ := alkaid.NewRecord(querySchema(), []array.Array{b.NewArray()}, 1)
	t, _ := alkaid.TableFromRecords(querySchema(), []*alkaid.Record{rec})
	return t
}

// checkPreparedQuery binds parameters to a prepared query, runs it and
// closes it.
func checkPreparedQuery(ctx context.Context, c *flightsql.Client, st flightsql.Statement, want *alkaid.Schema) error {
	p, err := c.Prepare(ctx, st)
	if err != nil {
		return err
	}
	if err := p.Bind(ctx, params()); err != nil {
		return err
	}
	fi, err := p.Execute(ctx)
	if err != nil {
		return err
	}
	if err := checkResult(ctx, c, fi, want); err != nil {
		return err
	}
	got, err := p.Schema(ctx)
	if err := checkSchema("prepared statement", got, err, want); err != nil {
		return err
	}
	return p.Close(ctx)
}

// checkPreparedUpdate runs a prepared update and closes it.
func checkPreparedUpdate(ctx context.Context, c *flightsql.Client, st flightsql.Statement, want int64) error {
	p, err := c.Prepare(ctx, st)
	if err != nil {
		return err
	}
	n, err := p.ExecuteUpdate(ctx, nil)
	if err != nil {
		return err
	}
	if err := expect("prepared update rows", n, want); err != nil {
		return err
	}
	return p.Close(ctx)
}

func checkPrepared(ctx context.Context, c *flightsql.Client) error {
	if err := checkPreparedQuery(ctx, c, flightsql.Statement{Query: selectPrepared}, querySchema()); err != nil {
		return err
	}
	return checkPreparedUpdate(ctx, c, flightsql.Statement{Query: updatePrepared}, preparedUpdateRows)
}

func checkSqlInfo(ctx context.Context, c *flightsql.Client) error {
	want := map[uint32]any{
		uint32(flightsql.InfoServerSQL):                 false,
		uint32(flightsql.InfoServerSubstrait):           true,
		uint32(flightsql.InfoServerSubstraitMinVersion): "min_version",
		uint32(flightsql.InfoServerSubstraitMaxVersion): "max_version",
		uint32(flightsql.InfoServerTransaction):         int32(flightsql.TransactionSupportSavepoint),
		uint32(flightsql.InfoServerCancel):              true,
		uint32(flightsql.InfoServerStatementTimeout):    int32(42),
		uint32(flightsql.InfoServerTransactionTimeout):  int32(7),
	}
	var ids []uint32
	for id := range want {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	fi, err := c.CommandInfo(ctx, &flightsql.GetSqlInfo{Info: ids})
	if err != nil {
		return err
	}
	r, err := c.Get(ctx, fi.Endpoint[0].Ticket)
	if err != nil {
		return err
	}
	if !r.Schema().Equal(flightsql.SqlInfoSchema()) {
		return fmt.Errorf("SqlInfo schema:\n%v", r.Schema())
	}
	got := map[uint32]any{}
	for rec, err := range r.Records() {
		if err != nil {
			return err
		}
		names, values := rec.Column(0).(*array.Uint32), rec.Column(1).(*array.Union)
		for i := range rec.NumRows() {
			id, j := names.Value(i), values.ValueOffset(i)
			if _, dup := got[id]; dup {
				return fmt.Errorf("SqlInfo %d twice", id)
			}
			switch ch := values.Child(values.ChildIndex(i)).(type) {
			case *array.String:
				got[id] = ch.ValueString(j)
			case *array.Boolean:
				got[id] = ch.Value(j)
			case *array.Int64:
				got[id] = ch.Value(j)
			case *array.Int32:
				got[id] = ch.Value(j)
			default:
				return fmt.Errorf("SqlInfo %d: a value of type %v", id, ch.DataType())
			}
		}
	}
	for id, v := range want {
		if got[id] != v {
			return fmt.Errorf("SqlInfo %d: got %v (%T), want %v (%T)", id, got[id], got[id], v, v)
		}
	}
	return nil
}

func checkPlans(ctx context.Context, c *flightsql.Client) error {
	st := flightsql.Statement{Plan: plan()}
	fi, err := c.Execute(ctx, st)
	if err != nil {
		return err
	}
	if err := checkResult(ctx, c, fi, querySchema()); err != nil {
		return err
	}
	got, err := c.ExecuteSchema(ctx, st)
	if err := checkSchema("plan", got, err, querySchema()); err != nil {
		return err
	}
	if fi, err = c.Execute(ctx, st); err != nil {
		return err
	}
	status, err := c.CancelFlightInfo(ctx, fi)
	if err != nil {
		return err
	}
	if err := expect("cancel", status, flight.CancelCancelled); err != nil {
		return err
	}
	n, err := c.ExecuteUpdate(ctx, st)
	if err != nil {
		return err
	}
	return expect("plan update rows", n, updateRows)
}

func checkPreparedPlans(ctx context.Context, c *flightsql.Client) error {
	st := flightsql.Statement{Plan: plan()}
	if err := checkPreparedQuery(ctx, c, st, querySchema()); err != nil {
		return err
	}
	return checkPreparedUpdate(ctx, c, st, preparedUpdateRows)
}

func checkTransactions(ctx context.Context, c *flightsql.Client) error {
	txn, err := c.BeginTransaction(ctx)
	if err != nil {
		return err
	}
	if err := expectBytes("transaction id", txn, transactionID); err != nil {
		return err
	}
	sp, err := c.BeginSavepoint(ctx, txn, savepointName)
	if err != nil {
		return err
	}
	if err := expectBytes("savepoint id", sp, savepointID); err != nil {
		return err
	}
	for _, st := range []flightsql.Statement{{Query: selectStatement, TransactionID: txn}, {Plan: plan(), TransactionID: txn}} {
		fi, err := c.Execute(ctx, st)
		if err != nil {
			return err
		}
		if err := checkResult(ctx, c, fi, txnSchema()); err != nil {
			return err
		}
		got, err := c.ExecuteSchema(ctx, st)
		if err := checkSchema("statement in a transaction", got, err, txnSchema()); err != nil {
			return err
		}
	}
	for _, st := range []flightsql.Statement{{Query: updateStatement, TransactionID: txn}, {Plan: plan(), TransactionID: txn}} {
		n, err := c.ExecuteUpdate(ctx, st)
		if err != nil {
			return err
		}
		if err := expect("update rows in a transaction", n, updateRowsInTxn); err != nil {
			return err
		}
	}
	for _, st := range []flightsql.Statement{{Query: selectPrepared, TransactionID: txn}, {Plan: plan(), TransactionID: txn}} {
		if err := checkPreparedQuery(ctx, c, st, txnSchema()); err != nil {
			return err
		}
	}
	for _, st := range []flightsql.Statement{{Query: updatePrepared, TransactionID: txn}, {Plan: plan(), TransactionID: txn}} {
		if err := checkPreparedUpdate(ctx, c, st, preparedUpdateRowsTxn); err != nil {
			return err
		}
	}
	if err := c.EndSavepoint(ctx, sp, flightsql.RollbackSavepoint); err != nil {
		return err
	}
	sp2, err := c.BeginSavepoint(ctx, txn, savepointName)
	if err != nil {
		return err
	}
	if err := expectBytes("savepoint id", sp2, savepointID); err != nil {
		return err
	}
	if err := c.EndSavepoint(ctx, sp, flightsql.ReleaseSavepoint); err != nil {
		return err
	}
	if err := c.EndTransaction(ctx, txn, flightsql.Commit); err != nil {
		return err
	}
	if txn, err = c.BeginTransaction(ctx); err != nil {
		return err
	}
	if err := expectBytes("transaction id", txn, transactionID); err != nil {
		return err
	}
	return c.EndTransaction(ctx, txn, flightsql.Rollback)
}
