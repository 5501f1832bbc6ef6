package flight

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/ipc"
)

func TestSessionOptionValue(t *testing.T) {
	for _, v := range []any{nil, "s", true, int64(-7), 2.5, []string{"a", "", "é"}} {
		o, err := NewSessionOptionValue(v)
		require.NoError(t, err)
		b, err := proto.Marshal(o)
		require.NoError(t, err)
		var back SessionOptionValue
		require.NoError(t, proto.Unmarshal(b, &back))
		require.Equal(t, v, SessionOptionValueOf(&back), "%v", v)
	}
	_, err := NewSessionOptionValue(int32(1))
	require.ErrorIs(t, err, ipc.ErrInvalid)
}

func mustValue(t *testing.T, v any) *SessionOptionValue {
	o, err := NewSessionOptionValue(v)
	require.NoError(t, err)
	return o
}

// values turns options into Go values to compare.
func values(opts map[string]*SessionOptionValue) map[string]any {
	out := map[string]any{}
	for k, v := range opts {
		out[k] = SessionOptionValueOf(v)
	}
	return out
}

// refuseBad refuses the name "bad" and the string value "bad".
func refuseBad(name string, v *SessionOptionValue) SessionOptionError {
	switch {
	case name == "bad":
		return SessionOptionInvalidName
	case v.GetStringValue() == "bad":
		return SessionOptionInvalidValue
	}
	return SessionOptionUnspecified
}

// A client keeping the cookie sets, reads, removes and closes its
// session's options; another client has a session of its own.
func TestSessions(t *testing.T) {
	addr := serve(t, BaseService{}, WithSessions(refuseBad))
	ctx := context.Background()
	c := dial(t, addr, WithSessionCookies())
	got, err := c.GetSessionOptions(ctx)
	require.NoError(t, err)
	require.Empty(t, got)

	errs, err := c.SetSessionOptions(ctx, map[string]*SessionOptionValue{
		"n": mustValue(t, int64(123)), "d": mustValue(t, 456.0), "l": mustValue(t, []string{"a", " "}),
		"bad": mustValue(t, "x"), "v": mustValue(t, "bad"),
	})
	require.NoError(t, err)
	require.Equal(t, map[string]SessionOptionError{"bad": SessionOptionInvalidName, "v": SessionOptionInvalidValue}, errs)
	got, err = c.GetSessionOptions(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"n": int64(123), "d": 456.0, "l": []string{"a", " "}}, values(got))

	other := dial(t, addr, WithSessionCookies())
	got, err = other.GetSessionOptions(ctx)
	require.NoError(t, err)
	require.Empty(t, got, "another client's session")

	errs, err = c.SetSessionOptions(ctx, map[string]*SessionOptionValue{"n": mustValue(t, nil)})
	require.NoError(t, err)
	require.Empty(t, errs)
	got, err = c.GetSessionOptions(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"d": 456.0, "l": []string{"a", " "}}, values(got))

	st, err := c.CloseSession(ctx)
	require.NoError(t, err)
	require.Equal(t, SessionClosed, st)
	got, err = c.GetSessionOptions(ctx) // the cookie was dropped: a new session
	require.NoError(t, err)
	require.Empty(t, got)

	// Without cookies, each call is a session of its own.
	plain := dial(t, addr)
	_, err = plain.SetSessionOptions(ctx, map[string]*SessionOptionValue{"n": mustValue(t, int64(1))})
	require.NoError(t, err)
	got, err = plain.GetSessionOptions(ctx)
	require.NoError(t, err)
	require.Empty(t, got)
}

// A cookie naming no session is NotFound; past the most sessions, the
// one unused longest is closed; the server goes on serving.
func TestSessionsHostile(t *testing.T) {
	few := func(c *config) error {
		if err := WithSessions(nil)(c); err != nil {
			return err
		}
		c.server.sessions.max = 2
		return nil
	}
	addr := serve(t, BaseService{}, few)
	ctx := context.Background()
	c := dial(t, addr)
	forged := metadata.AppendToOutgoingContext(ctx, "cookie", SessionCookie+"=never-issued")
	_, err := c.GetSessionOptions(forged)
	require.Equal(t, codes.NotFound, status.Code(err), "%v", err)

	var kept []*Client
	for i := range 3 {
		k := dial(t, addr, WithSessionCookies())
		_, err := k.SetSessionOptions(ctx, map[string]*SessionOptionValue{"x": mustValue(t, int64(i))})
		require.NoError(t, err)
		kept = append(kept, k)
		if i == 1 {
			_, err := kept[0].GetSessionOptions(ctx) // 0 used last: 1 goes next
			require.NoError(t, err)
		}
	}
	_, err = kept[1].GetSessionOptions(ctx)
	require.Equal(t, codes.NotFound, status.Code(err), "the session unused longest was closed: %v", err)
	for _, i := range []int{0, 2} {
		got, err := kept[i].GetSessionOptions(ctx)
		require.NoError(t, err)
		require.Equal(t, map[string]any{"x": int64(i)}, values(got))
	}
	got, err := kept[1].GetSessionOptions(ctx)
	require.NoError(t, err, "the cookie was expired: a new session")
	require.Empty(t, got)
}
