package flightsql

import (
	"context"
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/internal/sqlpb"
)

// PreparedStatement is a statement prepared on a server by
// [Client.Prepare]. Close it when done. It is not safe for concurrent
// use.
type PreparedStatement struct {
	c *Client
	Prepared
}

// Bind sends parameter records for the next Execute (DoPut); the server
// may answer with a new handle, which the statement then uses.
func (p *PreparedStatement) Bind(ctx context.Context, params alkaid.RecordReader) error {
	var res DoPutPreparedStatementResult
	if err := p.c.put(ctx, &PreparedStatementQuery{PreparedStatementHandle: p.Handle}, params, &res); err != nil {
		return err
	}
	if res.PreparedStatementHandle != nil {
		p.Handle = res.PreparedStatementHandle
	}
	return nil
}

// Execute returns where the result of the prepared query is.
func (p *PreparedStatement) Execute(ctx context.Context) (*flight.FlightInfo, error) {
	return p.c.CommandInfo(ctx, &PreparedStatementQuery{PreparedStatementHandle: p.Handle})
}

// Schema asks for the result schema of the prepared query.
func (p *PreparedStatement) Schema(ctx context.Context) (*alkaid.Schema, error) {
	return p.c.CommandSchema(ctx, &PreparedStatementQuery{PreparedStatementHandle: p.Handle})
}

// ExecuteUpdate runs the prepared update once per row of params (once
// when params is nil) and returns the rows changed.
func (p *PreparedStatement) ExecuteUpdate(ctx context.Context, params alkaid.RecordReader) (int64, error) {
	if params == nil {
		params = alkaid.NewRecordReader(emptySchema(), func(func(*alkaid.Record, error) bool) {}, nil)
	}
	var res DoPutUpdateResult
	if err := p.c.put(ctx, &PreparedStatementUpdate{PreparedStatementHandle: p.Handle}, params, &res); err != nil {
		return 0, err
	}
	return res.RecordCount, nil
}

// Close releases the statement on the server.
func (p *PreparedStatement) Close(ctx context.Context) error {
	if err := p.c.action(ctx, ActionClosePreparedStatement, &sqlpb.ActionClosePreparedStatementRequest{PreparedStatementHandle: p.Handle}, nil); err != nil {
		return fmt.Errorf("flightsql: close prepared statement: %w", err)
	}
	return nil
}
