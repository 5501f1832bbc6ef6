package scenario

import (
	"context"
	"fmt"
	"maps"
	"reflect"

	"github.com/alkaid-go/alkaid/flight"
)

func init() {
	scenarios["session_options"] = func() Scenario { return sessionOptions{} }
}

// sessionOptions is session_options: a client keeping the session cookie
// sets options (one refused for its name "lol_invalid", one for its
// value "lol_invalid"), reads them, removes one, reads them again and
// closes the session.
type sessionOptions struct{}

const invalid = "lol_invalid"

func refuseInvalid(name string, v *flight.SessionOptionValue) flight.SessionOptionError {
	switch {
	case name == invalid:
		return flight.SessionOptionInvalidName
	case v.GetStringValue() == invalid:
		return flight.SessionOptionInvalidValue
	}
	return flight.SessionOptionUnspecified
}

func (sessionOptions) Server(int) (flight.Service, []flight.Option, func(), error) {
	return flight.BaseService{}, []flight.Option{flight.WithSessions(refuseInvalid)}, func() {}, nil
}

// optionValues makes session option values of Go values.
func optionValues(m map[string]any) (map[string]*flight.SessionOptionValue, error) {
	out := map[string]*flight.SessionOptionValue{}
	for k, v := range m {
		o, err := flight.NewSessionOptionValue(v)
		if err != nil {
			return nil, err
		}
		out[k] = o
	}
	return out, nil
}

// checkOptions compares a session's options with want.
func checkOptions(ctx context.Context, c *flight.Client, step string, want map[string]any) error {
	got, err := c.GetSessionOptions(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	vals := map[string]any{}
	for k, v := range got {
		vals[k] = flight.SessionOptionValueOf(v)
	}
	if !reflect.DeepEqual(vals, want) {
		return fmt.Errorf("%s: session options %v, want %v", step, vals, want)
	}
	return nil
}

// setOptions sets options and compares the refusals with want.
func setOptions(ctx context.Context, c *flight.Client, step string, opts map[string]any, want map[string]flight.SessionOptionError) error {
	vals, err := optionValues(opts)
	if err != nil {
		return err
	}
	errs, err := c.SetSessionOptions(ctx, vals)
	if err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	if !maps.Equal(errs, want) {
		return fmt.Errorf("%s: refused %v, want %v", step, errs, want)
	}
	return nil
}

func (sessionOptions) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr, flight.WithSessionCookies())
	if err != nil {
		return err
	}
	defer c.Close()
	list := []string{"a", "b", "sea", "dee", " ", "  ", "geee", "(づ｡◕‿‿◕｡)づ"}
	if err := checkOptions(ctx, c, "a new session", map[string]any{}); err != nil {
		return err
	}
	if err := setOptions(ctx, c, "setting options", map[string]any{
		"foolong":                int64(123),
		"bardouble":              456.0,
		invalid:                  "this won't get set",
		"key_with_invalid_value": invalid,
		"big_ol_string_list":     list,
	}, map[string]flight.SessionOptionError{
		invalid:                  flight.SessionOptionInvalidName,
		"key_with_invalid_value": flight.SessionOptionInvalidValue,
	}); err != nil {
		return err
	}
	if err := checkOptions(ctx, c, "after setting", map[string]any{"foolong": int64(123), "bardouble": 456.0, "big_ol_string_list": list}); err != nil {
		return err
	}
	if err := setOptions(ctx, c, "removing foolong", map[string]any{"foolong": nil}, map[string]flight.SessionOptionError{}); err != nil {
		return err
	}
	if err := checkOptions(ctx, c, "after removing", map[string]any{"bardouble": 456.0, "big_ol_string_list": list}); err != nil {
		return err
	}
	st, err := c.CloseSession(ctx)
	if err != nil {
		return fmt.Errorf("closing the session: %w", err)
	}
	if st != flight.SessionClosed {
		return fmt.Errorf("closing the session: status %s, want CLOSED", st)
	}
	return nil
}
