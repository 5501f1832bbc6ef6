package flight

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
)

// A call that fails fails alone: a service method that panics answers
// its caller with codes.Internal instead of taking the process (and every
// other caller) down, and a client that stops reading is disconnected
// after a while instead of holding what the server had ready for it.

// DefaultSendTimeout is how long one message may wait for a client that
// does not read before the server drops the client's connection, unless
// [WithSendTimeout] says otherwise.
const DefaultSendTimeout = time.Minute

// panicError is the error a call answers when its handler panicked.
func panicError(method string, v any) error {
	msg := fmt.Sprint(v)
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return status.Errorf(codes.Internal, "flight: %s failed: %s", method, msg)
}

func recoverUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if v := recover(); v != nil {
			resp, err = nil, panicError(info.FullMethod, v)
		}
	}()
	return h(ctx, req)
}

func recoverStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicError(info.FullMethod, v)
		}
	}()
	return h(srv, ss)
}

// conns remembers a server's open connections by remote address, so that
// the connection of a client that stopped reading can be closed. The
// listener records each connection it accepts (not wrapped: gRPC reads
// a *net.TCPConn through its pooled buffers), and a stats handler forgets
// it when gRPC reports it closed.
type conns struct {
	mu sync.Mutex
	m  map[string]*tracked
}

type tracked struct {
	conn net.Conn
	at   time.Time     // accepted
	live bool          // gRPC made a transport of it (and reports its end)
	gone chan struct{} // closed when gRPC reports its end
}

// sweepAt is the number of connections remembered above which those
// accepted a minute ago that gRPC never took up (a failed TLS handshake
// closes them without a report) are forgotten.
const sweepAt = 256

type trackedListener struct {
	net.Listener
	c *conns
}

func (l trackedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	l.c.mu.Lock()
	if len(l.c.m) >= sweepAt {
		for k, t := range l.c.m {
			if !t.live && now.Sub(t.at) > time.Minute {
				delete(l.c.m, k)
			}
		}
	}
	l.c.m[c.RemoteAddr().String()] = &tracked{conn: c, at: now, gone: make(chan struct{})}
	l.c.mu.Unlock()
	return c, nil
}

// connEnds is the stats handler that forgets closed connections.
type connEnds struct{ c *conns }

func (connEnds) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (connEnds) HandleRPC(context.Context, stats.RPCStats)                       {}

type connKey struct{}

func (h connEnds) TagConn(ctx context.Context, info *stats.ConnTagInfo) context.Context {
	if info.RemoteAddr == nil {
		return ctx
	}
	key := info.RemoteAddr.String()
	h.c.mu.Lock()
	if t := h.c.m[key]; t != nil {
		t.live = true
	}
	h.c.mu.Unlock()
	return context.WithValue(ctx, connKey{}, key)
}

func (h connEnds) HandleConn(ctx context.Context, s stats.ConnStats) {
	if _, ok := s.(*stats.ConnEnd); !ok {
		return
	}
	if key, ok := ctx.Value(connKey{}).(string); ok {
		h.c.mu.Lock()
		if t := h.c.m[key]; t != nil {
			close(t.gone)
			delete(h.c.m, key)
		}
		h.c.mu.Unlock()
	}
}

// drop closes the connection of the client of ctx, and marks the call of
// ctx as dropped (see afterSends).
func (cs *conns) drop(ctx context.Context) {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return
	}
	cs.mu.Lock()
	t := cs.m[p.Addr.String()]
	cs.mu.Unlock()
	if t != nil {
		if d, ok := ctx.Value(droppedKey{}).(*dropped); ok {
			d.conn.Store(t)
		}
		t.conn.Close()
	}
}

// dropped marks a call whose connection the server closed: conn, once
// it is.
type dropped struct{ conn atomic.Pointer[tracked] }

type droppedKey struct{}

// afterSends calls release once gRPC has let go of the messages the call
// of ctx sent: at once, unless the server dropped the call's connection
// for a client that read nothing ([WithSendTimeout]); gRPC keeps the
// messages queued for that client until the connection's transport has
// shut down, then release is called.
func afterSends(ctx context.Context, release func()) {
	if d, ok := ctx.Value(droppedKey{}).(*dropped); ok {
		if t := d.conn.Load(); t != nil {
			go func() {
				<-t.gone
				release()
			}()
			return
		}
	}
	release()
}

// timedStream is a server stream whose sends are bounded in time; its
// context carries the mark drop leaves.
type timedStream struct {
	grpc.ServerStream
	ctx   context.Context
	d     time.Duration
	conns *conns
}

func (s timedStream) Context() context.Context { return s.ctx }

func (s timedStream) SendMsg(m any) error {
	t := time.AfterFunc(s.d, func() { s.conns.drop(s.Context()) })
	err := s.ServerStream.SendMsg(m)
	if !t.Stop() {
		return status.Errorf(codes.DeadlineExceeded, "flight: the client read nothing for %v", s.d)
	}
	return err
}

func (cs *conns) timeSends(d time.Duration) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		ctx := context.WithValue(ss.Context(), droppedKey{}, &dropped{})
		return h(srv, timedStream{ss, ctx, d, cs})
	}
}
