package flight

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/alkaid-go/alkaid/flight/internal/pb"
)

// DefaultMaxMessageSize bounds one gRPC message (one FlightData) that a
// client or server of this package accepts, unless [WithMaxMessageSize]
// says otherwise. gRPC refuses a larger message from its length prefix,
// before reading or allocating it. 256 MiB holds a batch of a million
// rows of 32 eight-byte columns.
const DefaultMaxMessageSize = 256 << 20

// transportBufferSize is the read and write buffer size of this
// package's clients' and servers' connections (gRPC's default is 32 KiB):
// record batches are large, and a larger buffer means fewer system calls
// (measured on loopback: a 1 GiB DoPut took a fifth less system time).
// Both buffers are taken from a pool while a connection reads or writes
// and given back when it waits (gRPC's pooled read buffer, and its shared
// write buffer, which this package turns on), so idle connections do not
// hold them. Options passed with [WithGRPCDialOptions] or
// [WithGRPCServerOptions] override these settings. Flow-control windows
// stay gRPC's (they grow with the measured bandwidth), so a client that
// stops reading still holds a server to a few batches.
const transportBufferSize = 1 << 20

type serverConfig struct {
	auth    Authenticator
	tls     *tls.Config
	maxMsg  int
	maxSend int
	grpcOpt []grpc.ServerOption

	sendTimeout time.Duration
	sessions    *sessions
}

// Server is a gRPC server answering the Flight service. A call whose
// handler panics answers codes.Internal and the server goes on serving
// the others; a client that reads nothing for the send timeout
// ([WithSendTimeout]) is disconnected.
type Server struct {
	g     *grpc.Server
	conns *conns
}

// NewServer returns a server for svc.
func NewServer(svc Service, opts ...Option) (*Server, error) {
	c := serverConfig{maxMsg: DefaultMaxMessageSize, maxSend: DefaultMaxSendSize, sendTimeout: DefaultSendTimeout}
	if err := (&config{role: forServer, server: &c}).apply(opts); err != nil {
		return nil, err
	}
	gopts := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(c.maxMsg), grpc.MaxSendMsgSize(max(c.maxMsg, c.maxSend)),
		grpc.ForceServerCodecV2(codec{}),
		grpc.ReadBufferSize(transportBufferSize), grpc.WriteBufferSize(transportBufferSize),
		grpc.SharedWriteBuffer(true),
		poolServerOption(),
		grpc.ChainUnaryInterceptor(recoverUnary),
		grpc.ChainStreamInterceptor(recoverStream, markStream(c.maxSend)),
	}
	var cs *conns
	if c.sendTimeout > 0 {
		cs = &conns{m: map[string]*tracked{}}
		gopts = append(gopts, grpc.ChainStreamInterceptor(cs.timeSends(c.sendTimeout)), grpc.StatsHandler(connEnds{cs}))
	}
	if c.tls != nil {
		gopts = append(gopts, grpc.Creds(credentials.NewTLS(c.tls)))
	}
	if c.auth != nil {
		svc = &authService{Service: svc, auth: c.auth}
		gopts = append(gopts,
			grpc.ChainUnaryInterceptor(unaryAuth(c.auth)),
			grpc.ChainStreamInterceptor(streamAuth(c.auth)))
	}
	if c.sessions != nil { // after authentication: a session is found for an authenticated call
		svc = &sessionService{Service: svc, all: c.sessions}
		gopts = append(gopts,
			grpc.ChainUnaryInterceptor(c.sessions.unary),
			grpc.ChainStreamInterceptor(c.sessions.stream))
	}
	gopts = append(gopts, c.grpcOpt...)
	g := grpc.NewServer(gopts...)
	pb.RegisterFlightServiceServer(g, svc)
	return &Server{g: g, conns: cs}, nil
}

// Serve accepts connections on l until Stop or GracefulStop.
func (s *Server) Serve(l net.Listener) error {
	if s.conns != nil {
		l = trackedListener{l, s.conns}
	}
	return s.g.Serve(l)
}

// Stop closes every connection and cancels the calls in flight.
func (s *Server) Stop() { s.g.Stop() }

// GracefulStop stops accepting calls and waits for those in flight.
func (s *Server) GracefulStop() { s.g.GracefulStop() }

// GRPC is the underlying gRPC server (to register more services).
func (s *Server) GRPC() *grpc.Server { return s.g }

// ServeContext serves on l until ctx is done, then stops the server.
func (s *Server) ServeContext(ctx context.Context, l net.Listener) error {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			s.g.Stop()
		case <-done:
		}
	}()
	return s.Serve(l)
}

// markStream tells the RecordWriters of a call that the stream's codec
// is this package's (see codec), and the size of message to keep to.
func markStream(maxSend int) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		return h(srv, ctxStream{ss, withSendLimit(withOurCodec(ss.Context()), maxSend)})
	}
}
