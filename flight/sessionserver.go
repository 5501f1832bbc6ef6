package flight

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"maps"
	"net/http"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Limits of a server's sessions: a client cannot make it hold without
// bound.
const (
	// DefaultMaxSessions is how many sessions a server made with
	// [WithSessions] keeps open at once; opening one more closes the
	// session unused for the longest time.
	DefaultMaxSessions = 10000
	// MaxSessionOptions is how many options one session holds; options
	// set beyond fail with [SessionOptionFailed].
	MaxSessionOptions = 1024
)

// Session is one client's session on a server made with [WithSessions].
// It is safe for concurrent use.
type Session struct {
	id   string
	mu   sync.Mutex
	opts map[string]*SessionOptionValue
	used int64 // the sessions' clock when a call last found it
}

// ID is the session's id, the value of its cookie.
func (s *Session) ID() string { return s.id }

// Options returns the session's options.
func (s *Session) Options() map[string]*SessionOptionValue {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.opts)
}

// sessions are a server's open sessions.
type sessions struct {
	mu    sync.Mutex
	m     map[string]*Session
	clock int64 // counts the calls that found a session
	max   int
	check func(string, *SessionOptionValue) SessionOptionError
}

// sessionCall is a call's view of its session: the one its cookie named,
// or one made when first used.
type sessionCall struct {
	all *sessions
	ctx context.Context
	mu  sync.Mutex
	s   *Session
}

type sessionKey struct{}

// SessionOf returns the session of the call ctx belongs to, opening one
// (and setting its cookie) when the client sent none. It returns nil
// when the server has no sessions ([WithSessions]).
func SessionOf(ctx context.Context) (*Session, error) {
	c, _ := ctx.Value(sessionKey{}).(*sessionCall)
	if c == nil {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s != nil {
		return c.s, nil
	}
	s, err := c.all.open()
	if err != nil {
		return nil, err
	}
	ck := http.Cookie{Name: SessionCookie, Value: s.id}
	if err := grpc.SetHeader(c.ctx, metadata.Pairs("set-cookie", ck.String())); err != nil {
		c.all.close(s)
		return nil, status.Errorf(codes.Internal, "flight: session cookie: %v", err)
	}
	c.s = s
	return s, nil
}

func (a *sessions) open() (*Session, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, status.Errorf(codes.Internal, "flight: session id: %v", err)
	}
	s := &Session{id: base64.RawURLEncoding.EncodeToString(b[:]), opts: map[string]*SessionOptionValue{}}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.m) >= a.max {
		var lru *Session
		for _, o := range a.m {
			if lru == nil || o.used < lru.used {
				lru = o
			}
		}
		delete(a.m, lru.id)
	}
	a.clock++
	s.used = a.clock
	a.m[s.id] = s
	return s, nil
}

func (a *sessions) close(s *Session) {
	a.mu.Lock()
	delete(a.m, s.id)
	a.mu.Unlock()
}

// start finds the session a call's cookie names.
func (a *sessions) start(ctx context.Context) (context.Context, error) {
	c := &sessionCall{all: a, ctx: ctx}
	md, _ := metadata.FromIncomingContext(ctx)
	if vals := md.Get("cookie"); len(vals) > 0 {
		if ck, err := (&http.Request{Header: http.Header{"Cookie": vals}}).Cookie(SessionCookie); err == nil {
			a.mu.Lock()
			if c.s = a.m[ck.Value]; c.s != nil {
				a.clock++
				c.s.used = a.clock
			}
			a.mu.Unlock()
			if c.s == nil { // and the client is told to drop the cookie
				gone := http.Cookie{Name: SessionCookie, Value: ck.Value, MaxAge: -1}
				grpc.SetTrailer(ctx, metadata.Pairs("set-cookie", gone.String()))
				return nil, status.Errorf(codes.NotFound, "flight: cookie %s names no open session", SessionCookie)
			}
		}
	}
	return context.WithValue(ctx, sessionKey{}, c), nil
}

func (a *sessions) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	ctx, err := a.start(ctx)
	if err != nil {
		return nil, err
	}
	return h(ctx, req)
}

func (a *sessions) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	ctx, err := a.start(ss.Context())
	if err != nil {
		return err
	}
	return h(srv, ctxStream{ss, ctx})
}

// sessionService answers the session actions; other calls go to the
// wrapped service.
type sessionService struct {
	Service
	all *sessions
}

func (s *sessionService) DoAction(a *Action, stream DoActionServer) error {
	var res proto.Message
	var err error
	switch a.GetType() {
	case ActionSetSessionOptions:
		res, err = s.set(stream.Context(), a)
	case ActionGetSessionOptions:
		res, err = s.get(stream.Context(), a)
	case ActionCloseSession:
		res, err = s.closeSession(stream.Context(), a)
	default:
		return s.Service.DoAction(a, stream)
	}
	if err != nil {
		return err
	}
	r, err := ActionResult(res)
	if err != nil {
		return status.Errorf(codes.Internal, "%v", err)
	}
	return stream.Send(r)
}

func (s *sessionService) set(ctx context.Context, a *Action) (proto.Message, error) {
	var req SetSessionOptionsRequest
	if err := parseAction(a, ActionSetSessionOptions, &req); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	sess, err := SessionOf(ctx)
	if err != nil {
		return nil, err
	}
	res := &SetSessionOptionsResult{Errors: map[string]*SetSessionOptionsError{}}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	for name, v := range req.GetSessionOptions() {
		if s.all.check != nil {
			if why := s.all.check(name, v); why != SessionOptionUnspecified {
				res.Errors[name] = &SetSessionOptionsError{Value: why}
				continue
			}
		}
		if v.GetOptionValue() == nil {
			delete(sess.opts, name)
			continue
		}
		if _, ok := sess.opts[name]; !ok && len(sess.opts) >= MaxSessionOptions {
			res.Errors[name] = &SetSessionOptionsError{Value: SessionOptionFailed}
			continue
		}
		sess.opts[name] = v
	}
	return res, nil
}

func (s *sessionService) get(ctx context.Context, a *Action) (proto.Message, error) {
	if err := parseAction(a, ActionGetSessionOptions, &GetSessionOptionsRequest{}); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	sess, err := SessionOf(ctx)
	if err != nil {
		return nil, err
	}
	return &GetSessionOptionsResult{SessionOptions: sess.Options()}, nil
}

// closeSession ends the session and tells the client to drop its cookie.
func (s *sessionService) closeSession(ctx context.Context, a *Action) (proto.Message, error) {
	if err := parseAction(a, ActionCloseSession, &CloseSessionRequest{}); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	sess, err := SessionOf(ctx)
	if err != nil {
		return nil, err
	}
	s.all.close(sess)
	ck := http.Cookie{Name: SessionCookie, Value: sess.id, MaxAge: -1}
	grpc.SetTrailer(ctx, metadata.Pairs("set-cookie", ck.String()))
	return &CloseSessionResult{Status: SessionClosed}, nil
}
