package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
)

func init() {
	scenarios["expiration_time:do_get"] = func() Scenario { return expiration{client: expirationDoGet} }
	scenarios["expiration_time:list_actions"] = func() Scenario { return expiration{client: expirationListActions} }
	scenarios["expiration_time:cancel_flight_info"] = func() Scenario { return expiration{client: expirationCancel} }
	scenarios["expiration_time:renew_flight_endpoint"] = func() Scenario { return expiration{client: expirationRenew} }
}

// expiration is the expiration_time scenarios: one server, whose
// GetFlightInfo gives three endpoints (the first without an expiration
// time: readable once; the others expiring in 5 and 6 seconds: readable
// until then), which serve the one uint32 row of their index, and which
// CancelFlightInfo and RenewFlightEndpoint act on; four clients.
type expiration struct {
	client func(ctx context.Context, c *flight.Client) error
}

func (e expiration) Server(int) (flight.Service, []flight.Option, func(), error) {
	return plain(&expirationService{})
}

func (e expiration) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return e.client(ctx, c)
}

// endpointState is what the expiration server knows of one endpoint.
type endpointState struct {
	expires   *time.Time
	gets      int
	cancelled bool
}

type expirationService struct {
	flight.BaseService
	mu        sync.Mutex
	endpoints []endpointState
}

func (s *expirationService) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoints = s.endpoints[:0]
	var eps []*flight.FlightEndpoint
	for _, e := range []struct {
		name string
		in   time.Duration
	}{{"No expiration time", 0}, {"5 seconds", 5 * time.Second}, {"6 seconds", 6 * time.Second}} {
		i := len(s.endpoints)
		ep := &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: []byte(strconv.Itoa(i) + ": " + e.name)}}
		var st endpointState
		if e.in > 0 {
			t := time.Now().Add(e.in)
			st.expires = &t
			ep.ExpirationTime = timestamppb.New(t)
		}
		s.endpoints = append(s.endpoints, st)
		eps = append(eps, ep)
	}
	return infoOf(numberSchema(datatype.Uint32), d, eps...)
}

// index is the endpoint a ticket names ("i: ..."), or an error.
func (s *expirationService) index(ticket []byte) (int, error) {
	head, _, _ := strings.Cut(string(ticket), ":")
	i, err := strconv.Atoi(head)
	if err != nil || i < 0 || i >= len(s.endpoints) {
		return 0, status.Errorf(codes.InvalidArgument, "invalid flight: no endpoint %q", ticket)
	}
	return i, nil
}

func (s *expirationService) DoGet(t *flight.Ticket, stream flight.DoGetServer) error {
	s.mu.Lock()
	i, err := s.index(t.GetTicket())
	if err != nil {
		s.mu.Unlock()
		return err
	}
	st := &s.endpoints[i]
	switch {
	case st.cancelled:
		err = status.Errorf(codes.InvalidArgument, "invalid flight: cancelled: %q", t.GetTicket())
	case st.expires == nil && st.gets > 0:
		err = status.Errorf(codes.InvalidArgument, "invalid flight: can't read multiple times: %q", t.GetTicket())
	case st.expires != nil && time.Now().After(*st.expires):
		err = status.Errorf(codes.InvalidArgument, "invalid flight: expired: %q", t.GetTicket())
	}
	if err == nil {
		st.gets++
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	b := array.NewPrimitiveBuilder[uint32](datatype.Uint32)
	b.Append(uint32(i))
	sch := numberSchema(datatype.Uint32)
	rec, err := alkaid.NewRecord(sch, []array.Array{b.Finish()}, 1)
	if err != nil {
		return err
	}
	w, err := flight.NewRecordWriter(stream, sch)
	if err != nil {
		return err
	}
	return w.Write(rec)
}

func (s *expirationService) ListActions(_ *flight.Empty, stream flight.ListActionsServer) error {
	for _, a := range []string{flight.ActionCancelFlightInfo, flight.ActionRenewFlightEndpoint} {
		if err := stream.Send(&flight.ActionType{Type: a}); err != nil {
			return err
		}
	}
	return nil
}

func (s *expirationService) DoAction(a *flight.Action, stream flight.DoActionServer) error {
	var res *flight.Result
	var err error
	switch a.GetType() {
	case flight.ActionCancelFlightInfo:
		res, err = s.cancel(a)
	case flight.ActionRenewFlightEndpoint:
		res, err = s.renew(a)
	default:
		return status.Errorf(codes.InvalidArgument, "unsupported action: %q", a.GetType())
	}
	if err != nil {
		return err
	}
	return stream.Send(res)
}

// cancel marks every endpoint of the FlightInfo cancelled.
func (s *expirationService) cancel(a *flight.Action) (*flight.Result, error) {
	info, err := flight.ParseCancelFlightInfo(a)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := flight.CancelUnspecified
	for _, ep := range info.GetEndpoint() {
		i, err := s.index(ep.GetTicket().GetTicket())
		if err != nil || s.endpoints[i].cancelled {
			out = flight.CancelNotCancellable
			continue
		}
		s.endpoints[i].cancelled = true
		if out == flight.CancelUnspecified {
			out = flight.CancelCancelled
		}
	}
	return flight.ActionResult(&flight.CancelFlightInfoResult{Status: out})
}

// renew gives the endpoint 10 more seconds from now, under a new ticket.
func (s *expirationService) renew(a *flight.Action) (*flight.Result, error) {
	ep, err := flight.ParseRenewFlightEndpoint(a)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.index(ep.GetTicket().GetTicket())
	if err != nil {
		return nil, err
	}
	t := time.Now().Add(10 * time.Second)
	s.endpoints[i].expires = &t
	ep.Ticket = &flight.Ticket{Ticket: append(ep.GetTicket().GetTicket(), ": renewed (+ 10 seconds)"...)}
	ep.ExpirationTime = timestamppb.New(t)
	return flight.ActionResult(ep)
}

func expirationInfo(ctx context.Context, c *flight.Client) (*flight.FlightInfo, error) {
	return c.GetFlightInfo(ctx, flight.CmdDescriptor([]byte("expiration_time")))
}

// expirationDoGet reads every endpoint once: rows 0, 1, 2; only the
// first endpoint has no expiration time.
func expirationDoGet(ctx context.Context, c *flight.Client) error {
	info, err := expirationInfo(ctx, c)
	if err != nil {
		return err
	}
	var got []uint32
	for i, ep := range info.GetEndpoint() {
		if (i == 0) != (ep.GetExpirationTime() == nil) {
			return fmt.Errorf("endpoint %d: expiration time %v; only endpoints[0] must have none", i, ep.GetExpirationTime())
		}
		if len(ep.GetLocation()) != 0 {
			return fmt.Errorf("expected no locations (use the original service), got %v", ep.GetLocation())
		}
		rr, err := c.Get(ctx, ep.GetTicket())
		if err != nil {
			return err
		}
		for rec, err := range rr.Records() {
			if err != nil {
				return err
			}
			col, ok := rec.Column(0).(*array.Primitive[uint32])
			if !ok || rec.NumCols() != 1 {
				return fmt.Errorf("expected one uint32 column, got %s", rr.Schema())
			}
			for j := range col.Len() {
				got = append(got, col.Value(j))
			}
		}
	}
	if want := []uint32{0, 1, 2}; !slices.Equal(got, want) {
		return fmt.Errorf("read %v, want %v", got, want)
	}
	return nil
}

// expirationListActions: the server offers exactly CancelFlightInfo and
// RenewFlightEndpoint.
func expirationListActions(ctx context.Context, c *flight.Client) error {
	stream, err := c.ListActions(ctx, &flight.Empty{})
	if err != nil {
		return err
	}
	var names []string
	for {
		a, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		names = append(names, a.GetType())
	}
	sort.Strings(names)
	if want := []string{"CancelFlightInfo", "RenewFlightEndpoint"}; !slices.Equal(names, want) {
		return fmt.Errorf("action types %v, want %v", names, want)
	}
	return nil
}

// expirationCancel: CancelFlightInfo answers cancelled, after which no
// endpoint can be read.
func expirationCancel(ctx context.Context, c *flight.Client) error {
	info, err := expirationInfo(ctx, c)
	if err != nil {
		return err
	}
	st, err := c.CancelFlightInfo(ctx, info)
	if err != nil {
		return err
	}
	if st != flight.CancelCancelled {
		return fmt.Errorf("CancelFlightInfo must return CANCEL_STATUS_CANCELLED, got %s", st)
	}
	for i, ep := range info.GetEndpoint() {
		rr, err := c.Get(ctx, ep.GetTicket())
		if err == nil {
			_, err = alkaid.ReadAll(rr)
		}
		if err == nil {
			return fmt.Errorf("endpoint %d: DoGet after CancelFlightInfo must fail", i)
		}
	}
	return nil
}

// expirationRenew: each endpoint with an expiration time renewed expires
// later.
func expirationRenew(ctx context.Context, c *flight.Client) error {
	info, err := expirationInfo(ctx, c)
	if err != nil {
		return err
	}
	for i, ep := range info.GetEndpoint() {
		if ep.GetExpirationTime() == nil {
			continue
		}
		was := ep.GetExpirationTime().AsTime()
		renewed, err := c.RenewFlightEndpoint(ctx, ep)
		if err != nil {
			return err
		}
		if renewed.GetExpirationTime() == nil {
			return fmt.Errorf("endpoint %d: the renewed endpoint must have an expiration time: %v", i, renewed)
		}
		if !renewed.GetExpirationTime().AsTime().After(was) {
			return fmt.Errorf("endpoint %d: the renewed endpoint must expire later: was %v, renewed %v", i, ep, renewed)
		}
	}
	return nil
}
