package flight

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"io"
	"maps"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Authenticator checks credentials for a server made with [WithAuth].
// Basic credentials arrive with Handshake in either of Arrow's two ways:
// an "authorization: Basic …" header, the token returned going back in
// an "authorization: Bearer …" header ([Client.Authenticate]); or a
// BasicAuth message as the payload of the first HandshakeRequest, the
// token going back as the payload of the HandshakeResponse and coming
// with later calls in the binary header auth-token-bin
// ([Client.AuthenticateBasicProto]). Every later call must carry the
// token one way or the other.
type Authenticator interface {
	// Login checks a user name and password and returns a bearer token.
	Login(ctx context.Context, user, password string) (token string, err error)
	// Check checks a bearer token and returns the identity it stands for.
	Check(ctx context.Context, token string) (identity string, err error)
}

const (
	authHeader  = "authorization"
	tokenHeader = "auth-token-bin" // the token of the payload handshake
)

type identityKey struct{}

// Identity is the identity an [Authenticator] found for the call's
// token, or "".
func Identity(ctx context.Context) string {
	s, _ := ctx.Value(identityKey{}).(string)
	return s
}

func headerValue(ctx context.Context, prefix string) (string, bool) {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get(authHeader) {
		if len(v) >= len(prefix) && strings.EqualFold(v[:len(prefix)], prefix) {
			return v[len(prefix):], true
		}
	}
	return "", false
}

// checkBearer checks the call's token: "authorization: Bearer …", or
// else auth-token-bin.
func checkBearer(ctx context.Context, a Authenticator) (context.Context, error) {
	tok, ok := headerValue(ctx, "Bearer ")
	if !ok {
		md, _ := metadata.FromIncomingContext(ctx)
		if v := md.Get(tokenHeader); len(v) > 0 && v[0] != "" {
			tok, ok = v[0], true
		}
	}
	if !ok {
		return nil, status.Error(codes.Unauthenticated, "flight: no bearer token")
	}
	id, err := a.Check(ctx, tok)
	if err != nil {
		return nil, status.Errorf(codes.Unauthenticated, "flight: token refused: %v", err)
	}
	return context.WithValue(ctx, identityKey{}, id), nil
}

const handshakeMethod = "/arrow.flight.protocol.FlightService/Handshake"

func unaryAuth(a Authenticator) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		ctx, err := checkBearer(ctx, a)
		if err != nil {
			return nil, err
		}
		return h(ctx, req)
	}
}

type ctxStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s ctxStream) Context() context.Context { return s.ctx }

func streamAuth(a Authenticator) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		if info.FullMethod == handshakeMethod {
			return h(srv, ss)
		}
		ctx, err := checkBearer(ss.Context(), a)
		if err != nil {
			return err
		}
		return h(srv, ctxStream{ss, ctx})
	}
}

// authService answers Handshake with basic→bearer; other calls go to the
// wrapped service (the interceptors have checked their token).
type authService struct {
	Service
	auth Authenticator
}

func (s *authService) Handshake(stream HandshakeServer) error {
	ctx := stream.Context()
	enc, ok := headerValue(ctx, "Basic ")
	if !ok {
		return s.payloadHandshake(stream)
	}
	// padded or not: Arrow's clients differ
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(enc, "="))
	if err != nil {
		return status.Error(codes.Unauthenticated, "flight: basic credentials are not base64")
	}
	user, pass, ok := strings.Cut(string(raw), ":")
	if !ok {
		return status.Error(codes.Unauthenticated, "flight: basic credentials without ':'")
	}
	tok, err := s.auth.Login(ctx, user, pass)
	if err != nil {
		return status.Errorf(codes.Unauthenticated, "flight: login refused: %v", err)
	}
	if err := stream.SendHeader(metadata.Pairs(authHeader, "Bearer "+tok)); err != nil {
		return err
	}
	return stream.Send(&HandshakeResponse{Payload: []byte(tok)})
}

// payloadHandshake reads a BasicAuth from the first HandshakeRequest's
// payload and answers with the token as the HandshakeResponse's.
func (s *authService) payloadHandshake(stream HandshakeServer) error {
	req, err := stream.Recv()
	if err == io.EOF {
		return status.Error(codes.Unauthenticated, "flight: handshake without basic credentials (no authorization header, no BasicAuth payload)")
	}
	if err != nil {
		return err
	}
	var basic BasicAuth
	if err := proto.Unmarshal(req.GetPayload(), &basic); err != nil {
		return status.Errorf(codes.Unauthenticated, "flight: handshake payload is not a BasicAuth message: %v", err)
	}
	tok, err := s.auth.Login(stream.Context(), basic.GetUsername(), basic.GetPassword())
	if err != nil {
		return status.Errorf(codes.Unauthenticated, "flight: login refused: %v", err)
	}
	return stream.Send(&HandshakeResponse{Payload: []byte(tok)})
}

// StaticAuth is an [Authenticator] with a fixed set of users; tokens are
// random and stay valid for the life of the value.
type StaticAuth struct {
	users  map[string]string
	tokens sync.Map // token → user
}

// NewStaticAuth returns an authenticator for users (name → password).
func NewStaticAuth(users map[string]string) *StaticAuth {
	return &StaticAuth{users: maps.Clone(users)}
}

// Login implements [Authenticator].
func (a *StaticAuth) Login(_ context.Context, user, password string) (string, error) {
	want, ok := a.users[user]
	if !ok || subtle.ConstantTimeCompare([]byte(want), []byte(password)) != 1 {
		return "", errors.New("unknown user or wrong password")
	}
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	a.tokens.Store(tok, user)
	return tok, nil
}

// Check implements [Authenticator].
func (a *StaticAuth) Check(_ context.Context, token string) (string, error) {
	if u, ok := a.tokens.Load(token); ok {
		return u.(string), nil
	}
	return "", errors.New("unknown token")
}
