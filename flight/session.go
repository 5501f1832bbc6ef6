package flight

import (
	"context"
	"fmt"

	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/ipc"
)

// The session actions Flight defines. Their bodies and results are the
// messages of the same names, sent as they are (not wrapped in an Any).
const (
	// ActionSetSessionOptions sets options of the caller's session; its
	// body is a SetSessionOptionsRequest and its one result a
	// SetSessionOptionsResult naming the options not set.
	ActionSetSessionOptions = "SetSessionOptions"
	// ActionGetSessionOptions gives the options of the caller's session;
	// its body is a GetSessionOptionsRequest and its one result a
	// GetSessionOptionsResult.
	ActionGetSessionOptions = "GetSessionOptions"
	// ActionCloseSession ends the caller's session; its body is a
	// CloseSessionRequest and its one result a CloseSessionResult.
	ActionCloseSession = "CloseSession"
)

// SessionCookie is the name of the cookie that carries a session's id
// (Arrow's: arrow_flight_session_id).
const SessionCookie = "arrow_flight_session_id"

type (
	// SessionOptionValue is the value of a session option: a string, a
	// bool, an int64, a float64 or a list of strings; one with none set
	// removes the option. [NewSessionOptionValue] makes one from a Go
	// value and [SessionOptionValueOf] gives it back.
	SessionOptionValue = pb.SessionOptionValue
	// SetSessionOptionsRequest is the body of ActionSetSessionOptions.
	SetSessionOptionsRequest = pb.SetSessionOptionsRequest
	// SetSessionOptionsResult answers ActionSetSessionOptions.
	SetSessionOptionsResult = pb.SetSessionOptionsResult
	// SetSessionOptionsError says why one option was not set.
	SetSessionOptionsError = pb.SetSessionOptionsResult_Error
	// SessionOptionError is the reason in a SetSessionOptionsError.
	SessionOptionError = pb.SetSessionOptionsResult_ErrorValue
	// GetSessionOptionsRequest is the body of ActionGetSessionOptions.
	GetSessionOptionsRequest = pb.GetSessionOptionsRequest
	// GetSessionOptionsResult answers ActionGetSessionOptions.
	GetSessionOptionsResult = pb.GetSessionOptionsResult
	// CloseSessionRequest is the body of ActionCloseSession.
	CloseSessionRequest = pb.CloseSessionRequest
	// CloseSessionResult answers ActionCloseSession.
	CloseSessionResult = pb.CloseSessionResult
	// CloseSessionStatus is the outcome of ActionCloseSession.
	CloseSessionStatus = pb.CloseSessionResult_Status
)

// Why an option was not set.
const (
	SessionOptionUnspecified  = pb.SetSessionOptionsResult_UNSPECIFIED
	SessionOptionInvalidName  = pb.SetSessionOptionsResult_INVALID_NAME
	SessionOptionInvalidValue = pb.SetSessionOptionsResult_INVALID_VALUE
	SessionOptionFailed       = pb.SetSessionOptionsResult_ERROR
)

// The outcomes of closing a session.
const (
	SessionCloseUnspecified = pb.CloseSessionResult_UNSPECIFIED
	SessionClosed           = pb.CloseSessionResult_CLOSED
	SessionClosing          = pb.CloseSessionResult_CLOSING
	SessionNotCloseable     = pb.CloseSessionResult_NOT_CLOSEABLE
)

// NewSessionOptionValue makes the value of a session option from a
// string, bool, int64, float64 or []string; nil makes the value that
// removes the option. Any other type is an error.
func NewSessionOptionValue(v any) (*SessionOptionValue, error) {
	switch v := v.(type) {
	case nil:
		return &SessionOptionValue{}, nil
	case string:
		return &SessionOptionValue{OptionValue: &pb.SessionOptionValue_StringValue{StringValue: v}}, nil
	case bool:
		return &SessionOptionValue{OptionValue: &pb.SessionOptionValue_BoolValue{BoolValue: v}}, nil
	case int64:
		return &SessionOptionValue{OptionValue: &pb.SessionOptionValue_Int64Value{Int64Value: v}}, nil
	case float64:
		return &SessionOptionValue{OptionValue: &pb.SessionOptionValue_DoubleValue{DoubleValue: v}}, nil
	case []string:
		return &SessionOptionValue{OptionValue: &pb.SessionOptionValue_StringListValue_{
			StringListValue: &pb.SessionOptionValue_StringListValue{Values: append([]string(nil), v...)}}}, nil
	}
	return nil, fmt.Errorf("flight: a session option cannot be a %T (string, bool, int64, float64, []string or nil): %w", v, ipc.ErrInvalid)
}

// SessionOptionValueOf is the Go value of a session option: a string,
// bool, int64, float64 or []string, or nil for the value that removes
// the option.
func SessionOptionValueOf(v *SessionOptionValue) any {
	switch o := v.GetOptionValue().(type) {
	case *pb.SessionOptionValue_StringValue:
		return o.StringValue
	case *pb.SessionOptionValue_BoolValue:
		return o.BoolValue
	case *pb.SessionOptionValue_Int64Value:
		return o.Int64Value
	case *pb.SessionOptionValue_DoubleValue:
		return o.DoubleValue
	case *pb.SessionOptionValue_StringListValue_:
		return append([]string{}, o.StringListValue.GetValues()...)
	}
	return nil
}

// SetSessionOptions sets options of this client's session (the
// SetSessionOptions action; a value made from nil removes its option)
// and returns the options the server did not set, with the reason. The
// client must keep the session cookie ([WithSessionCookies]).
func (c *Client) SetSessionOptions(ctx context.Context, opts map[string]*SessionOptionValue) (map[string]SessionOptionError, error) {
	var res SetSessionOptionsResult
	if err := c.typedAction(ctx, ActionSetSessionOptions, &SetSessionOptionsRequest{SessionOptions: opts}, &res); err != nil {
		return nil, err
	}
	out := make(map[string]SessionOptionError, len(res.GetErrors()))
	for k, e := range res.GetErrors() {
		out[k] = e.GetValue()
	}
	return out, nil
}

// GetSessionOptions returns the options of this client's session (the
// GetSessionOptions action).
func (c *Client) GetSessionOptions(ctx context.Context) (map[string]*SessionOptionValue, error) {
	var res GetSessionOptionsResult
	if err := c.typedAction(ctx, ActionGetSessionOptions, &GetSessionOptionsRequest{}, &res); err != nil {
		return nil, err
	}
	return res.GetSessionOptions(), nil
}

// CloseSession ends this client's session (the CloseSession action) and
// returns the status the server answers.
func (c *Client) CloseSession(ctx context.Context) (CloseSessionStatus, error) {
	var res CloseSessionResult
	if err := c.typedAction(ctx, ActionCloseSession, &CloseSessionRequest{}, &res); err != nil {
		return SessionCloseUnspecified, err
	}
	return res.GetStatus(), nil
}
