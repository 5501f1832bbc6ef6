package flight

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/alkaid-go/alkaid/ipc"
)

// actionService implements the two Flight actions with the package's
// server helpers; the ticket "twice" makes it answer with two results,
// "junk" with a body that is not the message.
type actionService struct {
	BaseService
	mu        sync.Mutex
	cancelled []string
}

func (s *actionService) DoAction(a *Action, st DoActionServer) error {
	var res *Result
	var err error
	var ticket string
	switch a.Type {
	case ActionCancelFlightInfo:
		info, perr := ParseCancelFlightInfo(a)
		if perr != nil {
			return status.Error(codes.InvalidArgument, perr.Error())
		}
		ticket = string(info.GetEndpoint()[0].GetTicket().GetTicket())
		s.mu.Lock()
		s.cancelled = append(s.cancelled, ticket)
		s.mu.Unlock()
		res, err = ActionResult(&CancelFlightInfoResult{Status: CancelCancelled})
	case ActionRenewFlightEndpoint:
		ep, perr := ParseRenewFlightEndpoint(a)
		if perr != nil {
			return status.Error(codes.InvalidArgument, perr.Error())
		}
		ticket = string(ep.GetTicket().GetTicket())
		renewed := proto.Clone(ep).(*FlightEndpoint)
		renewed.ExpirationTime = timestamppb.New(ep.GetExpirationTime().AsTime().Add(time.Hour))
		res, err = ActionResult(renewed)
	default:
		return status.Errorf(codes.Unimplemented, "no action %q", a.Type)
	}
	if err != nil {
		return err
	}
	switch ticket {
	case "twice":
		if err := st.Send(res); err != nil {
			return err
		}
	case "junk":
		res = &Result{Body: []byte{0xff, 0xff, 0xff}}
	}
	return st.Send(res)
}

func TestCancelAndRenewActions(t *testing.T) {
	svc := &actionService{}
	c := dial(t, serve(t, svc))
	ctx := context.Background()
	info := func(ticket string) *FlightInfo {
		return &FlightInfo{FlightDescriptor: PathDescriptor("q"), Endpoint: []*FlightEndpoint{{Ticket: &Ticket{Ticket: []byte(ticket)}}}}
	}

	st, err := c.CancelFlightInfo(ctx, info("q1"))
	require.NoError(t, err)
	require.Equal(t, CancelCancelled, st)
	require.Equal(t, []string{"q1"}, svc.cancelled)

	exp := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	ep := &FlightEndpoint{Ticket: &Ticket{Ticket: []byte("e1")}, ExpirationTime: timestamppb.New(exp),
		Location: []*Location{{Uri: "grpc://h:1"}}, AppMetadata: []byte("m")}
	got, err := c.RenewFlightEndpoint(ctx, ep)
	require.NoError(t, err)
	require.Equal(t, exp.Add(time.Hour), got.GetExpirationTime().AsTime())
	require.Equal(t, "e1", string(got.GetTicket().GetTicket()))
	require.Equal(t, "grpc://h:1", got.GetLocation()[0].GetUri())
	require.Equal(t, "m", string(got.GetAppMetadata()))

	for _, tc := range []struct {
		ticket, want string
	}{
		{"twice", "the server sent 2 results, not 1"},
		{"junk", "result"},
	} {
		_, err := c.CancelFlightInfo(ctx, info(tc.ticket))
		require.ErrorIs(t, err, ipc.ErrInvalid, tc.ticket)
		require.ErrorContains(t, err, tc.want)
		_, err = c.RenewFlightEndpoint(ctx, &FlightEndpoint{Ticket: &Ticket{Ticket: []byte(tc.ticket)}})
		require.ErrorIs(t, err, ipc.ErrInvalid, tc.ticket)
		require.ErrorContains(t, err, tc.want)
	}

	// A server that does not offer the actions: its status comes through.
	plain := dial(t, serve(t, &BaseService{}))
	_, err = plain.CancelFlightInfo(ctx, info("q1"))
	require.Equal(t, codes.Unimplemented, status.Code(errors.Unwrap(err)), "%v", err)
}

func TestParseActions(t *testing.T) {
	_, err := ParseCancelFlightInfo(&Action{Type: ActionRenewFlightEndpoint})
	require.ErrorIs(t, err, ipc.ErrInvalid)
	require.ErrorContains(t, err, `action "RenewFlightEndpoint" is not CancelFlightInfo`)
	_, err = ParseRenewFlightEndpoint(&Action{Type: ActionRenewFlightEndpoint, Body: []byte{0x0a, 0x05, 0x01}})
	require.ErrorIs(t, err, ipc.ErrInvalid)
	require.ErrorContains(t, err, "RenewFlightEndpoint: body")
	info, err := ParseCancelFlightInfo(&Action{Type: ActionCancelFlightInfo})
	require.NoError(t, err)
	require.Nil(t, info)
}

// FuzzParseActions: any action body is parsed or refused with ErrInvalid,
// never a panic.
func FuzzParseActions(f *testing.F) {
	req, _ := proto.Marshal(&CancelFlightInfoRequest{Info: &FlightInfo{TotalRecords: 3}})
	ren, _ := proto.Marshal(&RenewFlightEndpointRequest{Endpoint: &FlightEndpoint{Ticket: &Ticket{Ticket: []byte("t")}}})
	f.Add(req)
	f.Add(ren)
	f.Add([]byte{0x0a, 0x05, 0x01})
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, typ := range []string{ActionCancelFlightInfo, ActionRenewFlightEndpoint} {
			a := &Action{Type: typ, Body: body}
			var err error
			if typ == ActionCancelFlightInfo {
				_, err = ParseCancelFlightInfo(a)
			} else {
				_, err = ParseRenewFlightEndpoint(a)
			}
			if err != nil && !errors.Is(err, ipc.ErrInvalid) {
				t.Fatalf("%s: %v is not ErrInvalid", typ, err)
			}
		}
	})
}
