package flightsql

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/internal/sqlpb"
)

// Client is a Flight SQL client: a flight.Client (Get redeems the
// tickets of the FlightInfos it returns, CancelFlightInfo cancels them,
// Close closes the connection) with the Flight SQL commands.
type Client struct {
	*flight.Client
}

// NewClient returns a Flight SQL client over c.
func NewClient(c *flight.Client) *Client { return &Client{Client: c} }

// CommandInfo asks where the result of cmd is (GetFlightInfo), for a
// metadata command (&GetTables{…}, …) or a statement command.
func (c *Client) CommandInfo(ctx context.Context, cmd Command) (*flight.FlightInfo, error) {
	d, err := descriptor(cmd)
	if err != nil {
		return nil, err
	}
	fi, err := c.GetFlightInfo(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("flightsql: %s: %w", name(cmd), err)
	}
	return fi, nil
}

// CommandSchema asks for the result schema of cmd (GetSchema).
func (c *Client) CommandSchema(ctx context.Context, cmd Command) (*alkaid.Schema, error) {
	d, err := descriptor(cmd)
	if err != nil {
		return nil, err
	}
	s, err := c.Schema(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("flightsql: %s: %w", name(cmd), err)
	}
	return s, nil
}

// Execute starts st and returns where its result is.
func (c *Client) Execute(ctx context.Context, st Statement) (*flight.FlightInfo, error) {
	return c.CommandInfo(ctx, st.query())
}

// ExecuteSchema asks for the result schema of st.
func (c *Client) ExecuteSchema(ctx context.Context, st Statement) (*alkaid.Schema, error) {
	return c.CommandSchema(ctx, st.query())
}

// Query runs st and reads its result from every endpoint.
func (c *Client) Query(ctx context.Context, st Statement) (alkaid.RecordReader, error) {
	fi, err := c.Execute(ctx, st)
	if err != nil {
		return nil, err
	}
	return c.Read(ctx, fi)
}

// Read reads the records of every endpoint of fi (see flight.Fetch):
// in endpoint order when fi says its endpoints are ordered, as they
// arrive otherwise. When fi carries no schema, the reader's is that of
// the first endpoint's stream (no columns when there is none).
func (c *Client) Read(ctx context.Context, fi *flight.FlightInfo) (alkaid.RecordReader, error) {
	var opts []flight.Option
	if !fi.GetOrdered() {
		opts = append(opts, flight.WithUnordered())
	}
	r, err := flight.Fetch(ctx, c.Client, fi, opts...)
	if err != nil {
		return nil, fmt.Errorf("flightsql: %w", err)
	}
	return r, nil
}

// query is the command that runs st as a query.
func (st Statement) query() Command {
	if st.Plan != nil {
		return &StatementSubstraitPlan{Plan: st.Plan, TransactionId: st.TransactionID}
	}
	return &StatementQuery{Query: st.Query, TransactionId: st.TransactionID}
}

// ExecuteUpdate runs st as an update and returns the rows it changed.
func (c *Client) ExecuteUpdate(ctx context.Context, st Statement) (int64, error) {
	var cmd Command = &StatementUpdate{Query: st.Query, TransactionId: st.TransactionID}
	if st.Plan != nil {
		cmd = &StatementSubstraitPlan{Plan: st.Plan, TransactionId: st.TransactionID}
	}
	var res DoPutUpdateResult
	if err := c.put(ctx, cmd, nil, &res); err != nil {
		return 0, err
	}
	return res.RecordCount, nil
}

// Ingest loads the records of rows into the table cmd names and returns
// the number of rows the server loaded.
func (c *Client) Ingest(ctx context.Context, cmd *StatementIngest, rows alkaid.RecordReader) (int64, error) {
	var res DoPutUpdateResult
	if err := c.put(ctx, cmd, rows, &res); err != nil {
		return res.RecordCount, err
	}
	return res.RecordCount, nil
}

// put runs a DoPut of cmd, sending rows (none when nil), and decodes the
// server's PutResult metadata into res.
func (c *Client) put(ctx context.Context, cmd Command, rows alkaid.RecordReader, res proto.Message) error {
	d, err := descriptor(cmd)
	if err != nil {
		return err
	}
	var results []*flight.PutResult
	if rows == nil {
		// An update carries no data: one message with the descriptor.
		s, err := c.DoPut(ctx)
		if err != nil {
			return fmt.Errorf("flightsql: %s: %w", name(cmd), err)
		}
		if err := s.Send(&flight.FlightData{FlightDescriptor: d}); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("flightsql: %s: %w", name(cmd), err)
		}
		if err := s.CloseSend(); err != nil {
			return fmt.Errorf("flightsql: %s: %w", name(cmd), err)
		}
		for {
			r, err := s.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("flightsql: %s: %w", name(cmd), err)
			}
			results = append(results, r)
		}
	} else {
		p, err := c.Put(ctx, d, rows.Schema())
		if err != nil {
			return fmt.Errorf("flightsql: %s: %w", name(cmd), err)
		}
		var werr error
		for rec, err := range rows.Records() {
			if err == nil {
				err = p.Write(rec)
			}
			if err != nil {
				werr = err
				break
			}
		}
		err = p.Close()
		results = p.Results()
		if len(results) > 0 {
			// Decode what the server answered even when it then failed
			// (an ingestion reports the rows it loaded).
			_ = proto.Unmarshal(results[0].AppMetadata, res)
		}
		if werr != nil && err == nil {
			err = werr
		}
		if err != nil {
			return fmt.Errorf("flightsql: %s: %w", name(cmd), err)
		}
	}
	if len(results) == 0 {
		return fmt.Errorf("flightsql: %s: the server sent no result: %w", name(cmd), datatype.ErrInvalid)
	}
	if err := proto.Unmarshal(results[0].AppMetadata, res); err != nil {
		return fmt.Errorf("flightsql: %s: a malformed result: %w", name(cmd), datatype.ErrInvalid)
	}
	return nil
}

// action runs a Flight SQL action with req packed and decodes its one
// result into res (no result is expected when res is nil).
func (c *Client) action(ctx context.Context, typ string, req, res Command) error {
	body, err := Pack(req)
	if err != nil {
		return err
	}
	out, err := c.Actions(ctx, typ, body)
	if err != nil {
		return fmt.Errorf("flightsql: %w", err)
	}
	if res == nil {
		return nil
	}
	if len(out) != 1 {
		return fmt.Errorf("flightsql: %s: the server sent %d results, not 1: %w", typ, len(out), datatype.ErrInvalid)
	}
	return unpackAs(out[0], res)
}

// Prepare prepares st on the server.
func (c *Client) Prepare(ctx context.Context, st Statement) (*PreparedStatement, error) {
	var res sqlpb.ActionCreatePreparedStatementResult
	var err error
	if st.Plan != nil {
		err = c.action(ctx, ActionCreatePreparedSubstraitPlan, &sqlpb.ActionCreatePreparedSubstraitPlanRequest{Plan: st.Plan, TransactionId: st.TransactionID}, &res)
	} else {
		err = c.action(ctx, ActionCreatePreparedStatement, &sqlpb.ActionCreatePreparedStatementRequest{Query: st.Query, TransactionId: st.TransactionID}, &res)
	}
	if err != nil {
		return nil, err
	}
	p := Prepared{Handle: res.PreparedStatementHandle, IsUpdate: res.IsUpdate}
	if len(res.DatasetSchema) > 0 {
		if p.DatasetSchema, err = flight.DecodeSchema(res.DatasetSchema); err != nil {
			return nil, fmt.Errorf("flightsql: prepared statement: %w", err)
		}
	}
	if len(res.ParameterSchema) > 0 {
		if p.ParameterSchema, err = flight.DecodeSchema(res.ParameterSchema); err != nil {
			return nil, fmt.Errorf("flightsql: prepared statement: %w", err)
		}
	}
	return &PreparedStatement{c: c, Prepared: p}, nil
}

// BeginTransaction starts a transaction and returns its id, to put in
// Statement.TransactionID.
func (c *Client) BeginTransaction(ctx context.Context) ([]byte, error) {
	var res sqlpb.ActionBeginTransactionResult
	if err := c.action(ctx, ActionBeginTransaction, &sqlpb.ActionBeginTransactionRequest{}, &res); err != nil {
		return nil, err
	}
	return res.TransactionId, nil
}

// EndTransaction commits or rolls back (how) the transaction id.
func (c *Client) EndTransaction(ctx context.Context, id []byte, how EndTransaction) error {
	return c.action(ctx, ActionEndTransaction, &sqlpb.ActionEndTransactionRequest{TransactionId: id, Action: how}, nil)
}

// BeginSavepoint starts a savepoint called name in transaction txn and
// returns its id.
func (c *Client) BeginSavepoint(ctx context.Context, txn []byte, name string) ([]byte, error) {
	var res sqlpb.ActionBeginSavepointResult
	if err := c.action(ctx, ActionBeginSavepoint, &sqlpb.ActionBeginSavepointRequest{TransactionId: txn, Name: name}, &res); err != nil {
		return nil, err
	}
	return res.SavepointId, nil
}

// EndSavepoint releases or rolls back to (how) the savepoint id.
func (c *Client) EndSavepoint(ctx context.Context, id []byte, how EndSavepoint) error {
	return c.action(ctx, ActionEndSavepoint, &sqlpb.ActionEndSavepointRequest{SavepointId: id, Action: how}, nil)
}

// descriptor is the CMD descriptor carrying cmd.
func descriptor(cmd Command) (*flight.FlightDescriptor, error) {
	b, err := Pack(cmd)
	if err != nil {
		return nil, err
	}
	return flight.CmdDescriptor(b), nil
}

// name is the message name of cmd.
func name(cmd Command) string { return string(cmd.ProtoReflect().Descriptor().Name()) }
