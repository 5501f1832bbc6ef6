package flight

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/ipc"
)

// The actions Flight defines, by the names DoAction carries.
const (
	// ActionCancelFlightInfo asks a server to stop the query behind a
	// FlightInfo; its body is a CancelFlightInfoRequest and its one
	// result a CancelFlightInfoResult.
	ActionCancelFlightInfo = "CancelFlightInfo"
	// ActionRenewFlightEndpoint asks a server to extend the expiration of
	// an endpoint; its body is a RenewFlightEndpointRequest and its one
	// result the renewed FlightEndpoint.
	ActionRenewFlightEndpoint = "RenewFlightEndpoint"
)

type (
	// CancelFlightInfoRequest is the body of ActionCancelFlightInfo.
	CancelFlightInfoRequest = pb.CancelFlightInfoRequest
	// CancelFlightInfoResult is the answer to ActionCancelFlightInfo.
	CancelFlightInfoResult = pb.CancelFlightInfoResult
	// RenewFlightEndpointRequest is the body of ActionRenewFlightEndpoint.
	RenewFlightEndpointRequest = pb.RenewFlightEndpointRequest
	// CancelStatus is the outcome of a cancellation.
	CancelStatus = pb.CancelStatus
)

// The outcomes of a cancellation.
const (
	CancelUnspecified    = pb.CancelStatus_CANCEL_STATUS_UNSPECIFIED
	CancelCancelled      = pb.CancelStatus_CANCEL_STATUS_CANCELLED
	CancelCancelling     = pb.CancelStatus_CANCEL_STATUS_CANCELLING
	CancelNotCancellable = pb.CancelStatus_CANCEL_STATUS_NOT_CANCELLABLE
)

// CancelFlightInfo asks the server to cancel the query behind info (the
// CancelFlightInfo action) and returns the status it answers.
func (c *Client) CancelFlightInfo(ctx context.Context, info *FlightInfo) (CancelStatus, error) {
	var res CancelFlightInfoResult
	if err := c.typedAction(ctx, ActionCancelFlightInfo, &CancelFlightInfoRequest{Info: info}, &res); err != nil {
		return CancelUnspecified, err
	}
	return res.Status, nil
}

// RenewFlightEndpoint asks the server to extend the expiration of ep (the
// RenewFlightEndpoint action) and returns the renewed endpoint.
func (c *Client) RenewFlightEndpoint(ctx context.Context, ep *FlightEndpoint) (*FlightEndpoint, error) {
	var res FlightEndpoint
	if err := c.typedAction(ctx, ActionRenewFlightEndpoint, &RenewFlightEndpointRequest{Endpoint: ep}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// typedAction runs an action whose body is req and whose answer is
// exactly one result holding res.
func (c *Client) typedAction(ctx context.Context, typ string, req, res proto.Message) error {
	body, err := proto.Marshal(req)
	if err != nil {
		return fmt.Errorf("flight: %s: %w", typ, err)
	}
	out, err := c.Actions(ctx, typ, body)
	if err != nil {
		return err
	}
	if len(out) != 1 {
		return fmt.Errorf("flight: %s: the server sent %d results, not 1: %w", typ, len(out), ipc.ErrInvalid)
	}
	if err := proto.Unmarshal(out[0], res); err != nil {
		return fmt.Errorf("flight: %s: result: %v: %w", typ, err, ipc.ErrInvalid)
	}
	return nil
}

// ParseCancelFlightInfo reads the FlightInfo of a CancelFlightInfo
// action, for a server implementing it.
func ParseCancelFlightInfo(a *Action) (*FlightInfo, error) {
	var req CancelFlightInfoRequest
	if err := parseAction(a, ActionCancelFlightInfo, &req); err != nil {
		return nil, err
	}
	return req.Info, nil
}

// ParseRenewFlightEndpoint reads the endpoint of a RenewFlightEndpoint
// action, for a server implementing it.
func ParseRenewFlightEndpoint(a *Action) (*FlightEndpoint, error) {
	var req RenewFlightEndpointRequest
	if err := parseAction(a, ActionRenewFlightEndpoint, &req); err != nil {
		return nil, err
	}
	return req.Endpoint, nil
}

func parseAction(a *Action, typ string, req proto.Message) error {
	if a.GetType() != typ {
		return fmt.Errorf("flight: action %s is not %s: %w", echo(a.GetType()), typ, ipc.ErrInvalid)
	}
	if err := proto.Unmarshal(a.Body, req); err != nil {
		return fmt.Errorf("flight: %s: body: %v: %w", typ, err, ipc.ErrInvalid)
	}
	return nil
}

// ActionResult is the Result of an action answering with msg (a
// CancelFlightInfoResult, a renewed FlightEndpoint), for a server.
func ActionResult(msg proto.Message) (*Result, error) {
	b, err := proto.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("flight: action result: %w", err)
	}
	return &Result{Body: b}, nil
}
