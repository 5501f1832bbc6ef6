package flightsql

import (
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/internal/sqlpb"
)

// actionTypes are the actions the service answers.
var actionTypes = []string{
	flight.ActionCancelFlightInfo,
	ActionCreatePreparedStatement, ActionCreatePreparedSubstraitPlan, ActionClosePreparedStatement,
	ActionBeginTransaction, ActionEndTransaction, ActionBeginSavepoint, ActionEndSavepoint, ActionCancelQuery,
}

// ListActions lists the Flight SQL actions.
func (s *service) ListActions(_ *flight.Empty, stream flight.ListActionsServer) error {
	for _, t := range actionTypes {
		if err := stream.Send(&flight.ActionType{Type: t}); err != nil {
			return err
		}
	}
	return nil
}

// DoAction runs a Flight SQL action: its body is a packed request, its
// one result a packed answer (none for the closing actions).
func (s *service) DoAction(a *flight.Action, stream flight.DoActionServer) error {
	res, err := s.action(stream.Context(), a)
	if err != nil {
		return grpcError(err)
	}
	if res == nil {
		return nil
	}
	return stream.Send(res)
}

// packed is a Result holding msg packed.
func packed(msg Command) (*flight.Result, error) {
	b, err := Pack(msg)
	if err != nil {
		return nil, err
	}
	return &flight.Result{Body: b}, nil
}

func (s *service) action(ctx context.Context, a *flight.Action) (*flight.Result, error) {
	switch a.Type {
	case flight.ActionCancelFlightInfo:
		fi, err := flight.ParseCancelFlightInfo(a)
		if err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "%v", err)
		}
		st, err := s.srv.Cancel(ctx, fi)
		if err != nil {
			return nil, err
		}
		return flight.ActionResult(&flight.CancelFlightInfoResult{Status: st})
	case ActionCancelQuery:
		var req sqlpb.ActionCancelQueryRequest
		if err := unpackAs(a.Body, &req); err != nil {
			return nil, err
		}
		var fi flight.FlightInfo
		if err := proto.Unmarshal(req.Info, &fi); err != nil {
			return nil, fmt.Errorf("flightsql: CancelQuery: a malformed FlightInfo: %w", datatype.ErrInvalid)
		}
		st, err := s.srv.Cancel(ctx, &fi)
		if err != nil {
			return nil, err
		}
		// The CancelResult values are the CancelStatus ones.
		return packed(&sqlpb.ActionCancelQueryResult{Result: sqlpb.ActionCancelQueryResult_CancelResult(st)})
	case ActionCreatePreparedStatement, ActionCreatePreparedSubstraitPlan:
		var st Statement
		if a.Type == ActionCreatePreparedStatement {
			var req sqlpb.ActionCreatePreparedStatementRequest
			if err := unpackAs(a.Body, &req); err != nil {
				return nil, err
			}
			st = Statement{Query: req.Query, TransactionID: req.TransactionId}
		} else {
			var req sqlpb.ActionCreatePreparedSubstraitPlanRequest
			if err := unpackAs(a.Body, &req); err != nil {
				return nil, err
			}
			st = Statement{Plan: req.Plan, TransactionID: req.TransactionId}
		}
		p, err := s.srv.Prepare(ctx, st)
		if err != nil {
			return nil, err
		}
		res := &sqlpb.ActionCreatePreparedStatementResult{PreparedStatementHandle: p.Handle, IsUpdate: p.IsUpdate}
		if p.DatasetSchema != nil {
			if res.DatasetSchema, err = flight.EncodeSchema(p.DatasetSchema); err != nil {
				return nil, err
			}
		}
		if p.ParameterSchema != nil {
			if res.ParameterSchema, err = flight.EncodeSchema(p.ParameterSchema); err != nil {
				return nil, err
			}
		}
		return packed(res)
	case ActionClosePreparedStatement:
		var req sqlpb.ActionClosePreparedStatementRequest
		if err := unpackAs(a.Body, &req); err != nil {
			return nil, err
		}
		return nil, s.srv.ClosePrepared(ctx, req.PreparedStatementHandle)
	case ActionBeginTransaction:
		var req sqlpb.ActionBeginTransactionRequest
		if err := unpackAs(a.Body, &req); err != nil {
			return nil, err
		}
		id, err := s.srv.BeginTransaction(ctx)
		if err != nil {
			return nil, err
		}
		return packed(&sqlpb.ActionBeginTransactionResult{TransactionId: id})
	case ActionEndTransaction:
		var req sqlpb.ActionEndTransactionRequest
		if err := unpackAs(a.Body, &req); err != nil {
			return nil, err
		}
		if req.Action != Commit && req.Action != Rollback {
			return nil, fmt.Errorf("flightsql: EndTransaction: action %v: %w", req.Action, datatype.ErrInvalid)
		}
		return nil, s.srv.EndTransaction(ctx, req.TransactionId, req.Action)
	case ActionBeginSavepoint:
		var req sqlpb.ActionBeginSavepointRequest
		if err := unpackAs(a.Body, &req); err != nil {
			return nil, err
		}
		id, err := s.srv.BeginSavepoint(ctx, req.TransactionId, req.Name)
		if err != nil {
			return nil, err
		}
		return packed(&sqlpb.ActionBeginSavepointResult{SavepointId: id})
	case ActionEndSavepoint:
		var req sqlpb.ActionEndSavepointRequest
		if err := unpackAs(a.Body, &req); err != nil {
			return nil, err
		}
		if req.Action != ReleaseSavepoint && req.Action != RollbackSavepoint {
			return nil, fmt.Errorf("flightsql: EndSavepoint: action %v: %w", req.Action, datatype.ErrInvalid)
		}
		return nil, s.srv.EndSavepoint(ctx, req.SavepointId, req.Action)
	}
	return nil, status.Errorf(codes.InvalidArgument, "flightsql: unknown action %q", clip(a.Type))
}
