package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
)

func init() {
	scenarios["middleware"] = func() Scenario { return middleware{} }
	scenarios["ordered"] = func() Scenario { return ordered{} }
	scenarios["location:reuse_connection"] = func() Scenario { return reuseConnection{} }
	scenarios["poll_flight_info"] = func() Scenario { return pollFlightInfo{} }
	scenarios["app_metadata_flight_info_endpoint"] = func() Scenario { return appMetadataInfo{} }
}

// plain serves svc with no options and nothing to do at the end.
func plain(svc flight.Service) (flight.Service, []flight.Option, func(), error) {
	return svc, nil, func() {}, nil
}

// numberSchema is the schema of one nullable column "number" of type t.
func numberSchema(t datatype.DataType) *alkaid.Schema {
	return alkaid.NewSchema([]datatype.Field{{Name: "number", Type: t, Nullable: true}}, datatype.Metadata{})
}

// infoOf is a FlightInfo of schema s for d, with unknown sizes.
func infoOf(s *alkaid.Schema, d *flight.FlightDescriptor, eps ...*flight.FlightEndpoint) (*flight.FlightInfo, error) {
	b, err := flight.EncodeSchema(s)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "%v", err)
	}
	return &flight.FlightInfo{Schema: b, FlightDescriptor: d, Endpoint: eps, TotalRecords: -1, TotalBytes: -1}, nil
}

// middleware: the server sends back, as the response header
// x-middleware, the request header of that name, on a failing call as on
// a successful one.
type middleware struct{}

const middlewareHeader = "x-middleware"

type middlewareService struct{ flight.BaseService }

func (middlewareService) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	if d.GetType() != flight.DescriptorCmd || string(d.GetCmd()) != "success" {
		return nil, status.Error(codes.Unknown, "unknown")
	}
	return infoOf(alkaid.NewSchema(nil, datatype.Metadata{}), d, &flight.FlightEndpoint{
		Ticket:   &flight.Ticket{Ticket: []byte("foo")},
		Location: []*flight.Location{{Uri: "grpc+tcp://localhost:10010"}},
	})
}

// echoHeader copies the request's x-middleware header to the response.
func echoHeader(ctx context.Context) {
	var v string
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if got := md.Get(middlewareHeader); len(got) > 0 {
			v = got[0]
		}
	}
	grpc.SetHeader(ctx, metadata.Pairs(middlewareHeader, v))
}

func (middleware) Server(int) (flight.Service, []flight.Option, func(), error) {
	opts := []flight.Option{flight.WithGRPCServerOptions(
		grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			echoHeader(ctx)
			return h(ctx, req)
		}),
		grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
			echoHeader(ss.Context())
			return h(srv, ss)
		}),
	)}
	return middlewareService{}, opts, func() {}, nil
}

func (middleware) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	const want = "expected value"
	ctx = metadata.AppendToOutgoingContext(ctx, middlewareHeader, want)
	for _, cmd := range []string{"", "success"} {
		var md metadata.MD
		_, err := c.GetFlightInfo(ctx, flight.CmdDescriptor([]byte(cmd)), grpc.Header(&md))
		switch {
		case cmd == "" && err == nil:
			return errors.New("expected the call to fail")
		case cmd != "" && err != nil:
			return err
		}
		if got := md.Get(middlewareHeader); len(got) != 1 || got[0] != want {
			return fmt.Errorf("command %q: expected to receive header '%s: %s', but instead got %q", cmd, middlewareHeader, want, got)
		}
	}
	return nil
}

// ordered: a FlightInfo with ordered set, three endpoints without
// locations (read at the same server), whose batches in order are
// 1 2 3, 10 20 30, 100 200 300.
type ordered struct{}

type orderedService struct{ flight.BaseService }

var orderedTickets = map[string][]int32{"1": {1, 2, 3}, "2": {10, 20, 30}, "3": {100, 200, 300}}

func (orderedService) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	var eps []*flight.FlightEndpoint
	for _, t := range []string{"1", "2", "3"} {
		eps = append(eps, &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: []byte(t)}})
	}
	info, err := infoOf(numberSchema(datatype.Int32), d, eps...)
	if err != nil {
		return nil, err
	}
	info.Ordered = d.GetType() == flight.DescriptorCmd && string(d.GetCmd()) == "ordered"
	return info, nil
}

func (orderedService) DoGet(t *flight.Ticket, stream flight.DoGetServer) error {
	vals, ok := orderedTickets[string(t.GetTicket())]
	if !ok {
		return status.Errorf(codes.NotFound, "no ticket %q", t.GetTicket())
	}
	b := array.NewPrimitiveBuilder[int32](datatype.Int32)
	b.AppendValues(vals, nil)
	s := numberSchema(datatype.Int32)
	rec, err := alkaid.NewRecord(s, []array.Array{b.Finish()}, len(vals))
	if err != nil {
		return err
	}
	w, err := flight.NewRecordWriter(stream, s)
	if err != nil {
		return err
	}
	return w.Write(rec)
}

func (ordered) Server(int) (flight.Service, []flight.Option, func(), error) {
	return plain(orderedService{})
}

func (ordered) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	info, err := c.GetFlightInfo(ctx, flight.CmdDescriptor([]byte("ordered")))
	if err != nil {
		return err
	}
	if !info.GetOrdered() {
		return errors.New("expected the server to return FlightInfo.ordered = true")
	}
	var got []int32
	for _, ep := range info.GetEndpoint() {
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
			col, ok := rec.Column(0).(*array.Primitive[int32])
			if !ok || rec.NumCols() != 1 {
				return fmt.Errorf("expected one int32 column, got %s", rr.Schema())
			}
			for i := range col.Len() {
				got = append(got, col.Value(i))
			}
		}
	}
	if want := []int32{1, 2, 3, 10, 20, 30, 100, 200, 300}; !slices.Equal(got, want) {
		return fmt.Errorf("read %v, want %v", got, want)
	}
	return nil
}

// location:reuse_connection: an endpoint's location may be
// flight.LocationReuseConnection.
type reuseConnection struct{}

type reuseService struct{ flight.BaseService }

func (reuseService) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return infoOf(alkaid.NewSchema(nil, datatype.Metadata{}), d, &flight.FlightEndpoint{
		Ticket:   &flight.Ticket{Ticket: []byte("reuse")},
		Location: []*flight.Location{{Uri: flight.LocationReuseConnection}},
	})
}

func (reuseConnection) Server(int) (flight.Service, []flight.Option, func(), error) {
	return plain(reuseService{})
}

func (reuseConnection) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	info, err := c.GetFlightInfo(ctx, flight.CmdDescriptor([]byte("reuse")))
	if err != nil {
		return err
	}
	if len(info.GetEndpoint()) != 1 {
		return fmt.Errorf("expected 1 endpoint, got %d", len(info.GetEndpoint()))
	}
	locs := info.GetEndpoint()[0].GetLocation()
	if len(locs) != 1 || locs[0].GetUri() != flight.LocationReuseConnection {
		return fmt.Errorf("expected the one location %s, got %v", flight.LocationReuseConnection, locs)
	}
	return nil
}

// poll_flight_info: a first PollFlightInfo is in progress (a descriptor
// to poll again, progress in [0, 1], an expiration time); polling that
// descriptor finds it complete (no descriptor, progress 1, no
// expiration time).
type pollFlightInfo struct{}

type pollService struct{ flight.BaseService }

func (pollService) PollFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.PollInfo, error) {
	info, err := infoOf(numberSchema(datatype.Uint32), d, &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: []byte("long-running query")}})
	if err != nil {
		return nil, err
	}
	if d.GetType() == flight.DescriptorCmd && string(d.GetCmd()) == "poll" {
		done := 1.0
		return &flight.PollInfo{Info: info, Progress: &done}, nil
	}
	part := 0.1
	return &flight.PollInfo{
		Info:             info,
		FlightDescriptor: flight.CmdDescriptor([]byte("poll")),
		Progress:         &part,
		ExpirationTime:   timestamppb.New(time.Now().Add(10 * time.Second)),
	}, nil
}

func (pollFlightInfo) Server(int) (flight.Service, []flight.Option, func(), error) {
	return plain(pollService{})
}

func (pollFlightInfo) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	p, err := c.PollFlightInfo(ctx, flight.CmdDescriptor([]byte("heavy query")))
	if err != nil {
		return err
	}
	switch {
	case p.FlightDescriptor == nil:
		return fmt.Errorf("descriptor is missing: %v", p)
	case p.Progress == nil:
		return fmt.Errorf("progress is missing: %v", p)
	case p.GetProgress() < 0 || p.GetProgress() > 1:
		return fmt.Errorf("invalid progress: %v", p)
	case p.ExpirationTime == nil:
		return fmt.Errorf("expiration time is missing: %v", p)
	}
	p, err = c.PollFlightInfo(ctx, p.FlightDescriptor)
	if err != nil {
		return err
	}
	switch {
	case p.FlightDescriptor != nil:
		return fmt.Errorf("polled again but not finished yet: %v", p)
	case p.Progress == nil:
		return fmt.Errorf("progress is missing in finished query: %v", p)
	case math.Abs(p.GetProgress()-1) > 1e-5:
		return fmt.Errorf("progress of a finished query isn't 1.0: %v", p)
	case p.ExpirationTime != nil:
		return fmt.Errorf("expiration time must not be set for a finished query: %v", p)
	}
	return nil
}

// app_metadata_flight_info_endpoint: the FlightInfo and its endpoint
// carry the command as their app_metadata.
type appMetadataInfo struct{}

type appMetadataService struct{ flight.BaseService }

func (appMetadataService) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	if d.GetType() != flight.DescriptorCmd {
		return nil, status.Error(codes.InvalidArgument, "should have received a CMD descriptor")
	}
	info, err := infoOf(numberSchema(datatype.Uint32), d, &flight.FlightEndpoint{AppMetadata: d.GetCmd()})
	if err != nil {
		return nil, err
	}
	info.AppMetadata = d.GetCmd()
	return info, nil
}

func (appMetadataInfo) Server(int) (flight.Service, []flight.Option, func(), error) {
	return plain(appMetadataService{})
}

func (appMetadataInfo) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	cmd := []byte("foobar")
	info, err := c.GetFlightInfo(ctx, flight.CmdDescriptor(cmd))
	if err != nil {
		return err
	}
	switch {
	case !bytes.Equal(cmd, info.GetAppMetadata()):
		return fmt.Errorf("flight info app_metadata %q, want %q", info.GetAppMetadata(), cmd)
	case len(info.GetEndpoint()) != 1:
		return fmt.Errorf("expected exactly 1 endpoint, got %d", len(info.GetEndpoint()))
	case !bytes.Equal(cmd, info.GetEndpoint()[0].GetAppMetadata()):
		return fmt.Errorf("endpoint app_metadata %q, want %q", info.GetEndpoint()[0].GetAppMetadata(), cmd)
	}
	return nil
}
