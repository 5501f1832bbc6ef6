package flight

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/ipc"
)

type clientConfig struct {
	tls     *tls.Config
	maxMsg  int
	maxSend int
	read    []ipc.Option
	write   []ipc.Option
	grpcOpt []grpc.DialOption
	cookies bool
}

// Client calls a Flight server. The embedded generated client gives every
// RPC as it is on the wire; the methods of Client add records, schemas
// and authentication. It is safe for concurrent use.
type Client struct {
	pb.FlightServiceClient
	conn *grpc.ClientConn
	cfg  clientConfig

	mu    sync.RWMutex
	token string
	bin   bool // the token goes in auth-token-bin, not as a bearer token
}

// Dial connects to target: "host:port" or a Flight URI
// ("grpc://host:port", "grpc+tcp://…", "grpc+tls://…"). The connection is
// made lazily, at the first call.
func Dial(target string, opts ...Option) (*Client, error) {
	c := clientConfig{maxMsg: DefaultMaxMessageSize, maxSend: DefaultMaxSendSize}
	if err := (&config{role: forDial, client: &c}).apply(opts); err != nil {
		return nil, err
	}
	addr := target
	switch {
	case strings.HasPrefix(target, "grpc+tls://"):
		addr = strings.TrimPrefix(target, "grpc+tls://")
		if c.tls == nil {
			c.tls = &tls.Config{}
		}
	case strings.HasPrefix(target, "grpc+tcp://"):
		addr = strings.TrimPrefix(target, "grpc+tcp://")
	case strings.HasPrefix(target, "grpc://"):
		addr = strings.TrimPrefix(target, "grpc://")
	case strings.Contains(target, "://"):
		return nil, fmt.Errorf("flight: location %q: unsupported scheme (grpc, grpc+tcp, grpc+tls)", target)
	}
	creds := insecure.NewCredentials()
	if c.tls != nil {
		creds = credentials.NewTLS(c.tls)
	}
	cl := &Client{cfg: c}
	var jarOpts []grpc.DialOption
	if c.cookies {
		jar := &cookieJar{m: map[string]string{}}
		jarOpts = append(jarOpts, grpc.WithChainUnaryInterceptor(jar.unary), grpc.WithChainStreamInterceptor(jar.stream))
	}
	gopts := append([]grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithReadBufferSize(transportBufferSize), grpc.WithWriteBufferSize(transportBufferSize),
		grpc.WithSharedWriteBuffer(true),
		poolDialOption(),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(c.maxMsg), grpc.MaxCallSendMsgSize(max(c.maxMsg, c.maxSend)), grpc.ForceCodecV2(codec{})),
		grpc.WithChainUnaryInterceptor(cl.unaryToken),
		grpc.WithChainStreamInterceptor(cl.streamToken),
	}, append(jarOpts, c.grpcOpt...)...)
	conn, err := grpc.NewClient(addr, gopts...)
	if err != nil {
		return nil, fmt.Errorf("flight: dial %s: %w", target, err)
	}
	cl.conn, cl.FlightServiceClient = conn, pb.NewFlightServiceClient(conn)
	return cl, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

func (c *Client) withToken(ctx context.Context) context.Context {
	c.mu.RLock()
	tok, bin := c.token, c.bin
	c.mu.RUnlock()
	if tok == "" {
		return ctx
	}
	if md, ok := metadata.FromOutgoingContext(ctx); ok && (len(md.Get(authHeader)) > 0 || len(md.Get(tokenHeader)) > 0) {
		return ctx
	}
	if bin {
		return metadata.AppendToOutgoingContext(ctx, tokenHeader, tok)
	}
	return metadata.AppendToOutgoingContext(ctx, authHeader, "Bearer "+tok)
}

func (c *Client) unaryToken(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, inv grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	return inv(c.withToken(ctx), method, req, reply, cc, opts...)
}

func (c *Client) streamToken(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, s grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	if method != handshakeMethod {
		ctx = c.withToken(ctx)
	}
	return s(withSendLimit(withOurCodec(ctx), c.cfg.maxSend), desc, cc, method, opts...)
}

// Authenticate sends user and password with a Handshake ("authorization:
// Basic …") and keeps the bearer token the server answers with for every
// later call.
func (c *Client) Authenticate(ctx context.Context, user, password string) error {
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
	ctx = metadata.AppendToOutgoingContext(ctx, authHeader, "Basic "+basic)
	s, err := c.Handshake(ctx)
	if err != nil {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	if err := s.CloseSend(); err != nil {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	hdr, err := s.Header()
	if err != nil {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	for {
		if _, err := s.Recv(); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("flight: handshake: %w", err)
		}
	}
	for _, v := range hdr.Get(authHeader) {
		if tok, ok := strings.CutPrefix(v, "Bearer "); ok {
			c.setToken(tok, false)
			return nil
		}
	}
	return fmt.Errorf("flight: handshake: the server sent no bearer token")
}

func (c *Client) setToken(tok string, bin bool) {
	c.mu.Lock()
	c.token, c.bin = tok, bin
	c.mu.Unlock()
}

// AuthenticateBasicProto authenticates as Arrow's older clients do: a
// Handshake whose request payload is a BasicAuth message with user and
// password, the server answering with a token as its response payload.
// The token is sent with every later call in the binary header
// auth-token-bin.
func (c *Client) AuthenticateBasicProto(ctx context.Context, user, password string) error {
	body, err := proto.Marshal(&BasicAuth{Username: user, Password: password})
	if err != nil {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	s, err := c.Handshake(ctx)
	if err != nil {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	if err := s.Send(&HandshakeRequest{Payload: body}); err != nil && err != io.EOF {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	if err := s.CloseSend(); err != nil {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	res, err := s.Recv()
	if err == io.EOF {
		return errors.New("flight: handshake: the server sent no token")
	}
	if err != nil {
		return fmt.Errorf("flight: handshake: %w", err)
	}
	for { // the end of the call
		if _, err := s.Recv(); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("flight: handshake: %w", err)
		}
	}
	c.setToken(string(res.GetPayload()), true)
	return nil
}

// Schema asks for a flight's schema (GetSchema).
func (c *Client) Schema(ctx context.Context, d *FlightDescriptor) (*alkaid.Schema, error) {
	res, err := c.GetSchema(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("flight: get schema: %w", err)
	}
	return DecodeSchema(res.Schema)
}

// Flights iterates over ListFlights; the loop stops at the first error,
// which is yielded.
func (c *Client) Flights(ctx context.Context, expr []byte) iter.Seq2[*FlightInfo, error] {
	return func(yield func(*FlightInfo, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		s, err := c.ListFlights(ctx, &Criteria{Expression: expr})
		if err != nil {
			yield(nil, fmt.Errorf("flight: list flights: %w", err))
			return
		}
		for {
			fi, err := s.Recv()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, fmt.Errorf("flight: list flights: %w", err))
				return
			}
			if !yield(fi, nil) {
				return
			}
		}
	}
}

// Get redeems a ticket (DoGet) and returns a reader of its records.
// Cancel ctx, or Close the reader, to stop the transfer early.
func (c *Client) Get(ctx context.Context, t *Ticket) (*RecordReader, error) {
	ctx, cancel := context.WithCancel(ctx)
	s, err := c.DoGet(ctx, t)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("flight: do get: %w", err)
	}
	rr, err := NewRecordReader(s, c.cfg.read...)
	if err != nil {
		cancel()
		return nil, err
	}
	rr.cancel = cancel
	return rr, nil
}

// PutStream is an upload started by [Client.Put], an
// [alkaid.RecordWriter]: write records, then Close. [PutStream.NextResult]
// waits for the server's next answer while writing (Arrow's integration
// client waits for one per batch); [PutStream.Results] gives, after
// Close, the answers NextResult did not take.
type PutStream struct {
	*RecordWriter
	s pb.FlightService_DoPutClient

	mu    sync.Mutex
	got   []*PutResult  // answers not yet taken by NextResult
	rest  []*PutResult  // the answers left when Close returned
	err   error         // how the answers ended (io.EOF: the call succeeded)
	more  chan struct{} // signalled when got or err changes
	ended chan struct{} // closed when the answers ended
}

// Put starts a DoPut of records of schema to the flight d. The server's
// PutResults are collected while writing.
func (c *Client) Put(ctx context.Context, d *FlightDescriptor, schema *alkaid.Schema) (*PutStream, error) {
	s, err := c.DoPut(ctx)
	if err != nil {
		return nil, fmt.Errorf("flight: do put: %w", err)
	}
	w, err := NewRecordWriter(s, schema, c.cfg.write...)
	if err != nil {
		s.CloseSend()
		return nil, err
	}
	w.SetDescriptor(d)
	p := &PutStream{RecordWriter: w, s: s, more: make(chan struct{}, 1), ended: make(chan struct{})}
	go p.receive()
	return p, nil
}

// receive collects the server's answers until the call ends.
func (p *PutStream) receive() {
	defer close(p.ended)
	for {
		r, err := p.s.Recv()
		p.mu.Lock()
		if err != nil {
			p.err = err
		} else {
			p.got = append(p.got, r)
		}
		p.mu.Unlock()
		select {
		case p.more <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// NextResult waits for the server's next PutResult. It returns io.EOF
// when the call ended without another, and the call's error when it
// failed.
func (p *PutStream) NextResult() (*PutResult, error) {
	for {
		p.mu.Lock()
		if len(p.got) > 0 {
			r := p.got[0]
			p.got = p.got[1:]
			p.mu.Unlock()
			return r, nil
		}
		err := p.err
		p.mu.Unlock()
		switch {
		case err == io.EOF:
			return nil, io.EOF
		case err != nil:
			return nil, fmt.Errorf("flight: do put: %w", err)
		}
		<-p.more
	}
}

// Close ends the upload (sending the schema first if no record was
// written) and waits for the server to finish. The server's PutResults
// that [PutStream.NextResult] did not take are then given by
// [PutStream.Results].
func (p *PutStream) Close() error {
	werr := p.WriteSchema()
	if err := p.s.CloseSend(); err != nil && werr == nil {
		werr = fmt.Errorf("flight: do put: %w", err)
	}
	<-p.ended
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rest = append(p.rest, p.got...)
	p.got = nil
	if p.err != io.EOF {
		return fmt.Errorf("flight: do put: %w", p.err)
	}
	return werr
}

// Results is the server's PutResults that NextResult did not take, in
// order, once Close has returned (nil before).
func (p *PutStream) Results() []*PutResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rest
}

// ExchangeStream is a DoExchange: a writer and a reader of records on one
// call. Its writing half is an [alkaid.RecordWriter], whose Close ends
// what the client sends; read with [ExchangeStream.Reader] once the peer
// has sent its schema.
type ExchangeStream struct {
	*RecordWriter
	s    pb.FlightService_DoExchangeClient
	read []ipc.Option
}

// Exchange starts a DoExchange for flight d, sending records of schema.
func (c *Client) Exchange(ctx context.Context, d *FlightDescriptor, schema *alkaid.Schema) (*ExchangeStream, error) {
	s, err := c.DoExchange(ctx)
	if err != nil {
		return nil, fmt.Errorf("flight: do exchange: %w", err)
	}
	w, err := NewRecordWriter(s, schema, c.cfg.write...)
	if err != nil {
		s.CloseSend()
		return nil, err
	}
	w.SetDescriptor(d)
	return &ExchangeStream{RecordWriter: w, s: s, read: c.cfg.read}, nil
}

// Close sends the schema if no record was written and says the client
// sends no more. The server's records stay readable.
func (e *ExchangeStream) Close() error {
	werr := e.WriteSchema()
	if err := e.s.CloseSend(); err != nil && werr == nil {
		werr = fmt.Errorf("flight: do exchange: %w", err)
	}
	return werr
}

// Reader reads what the server sends (it blocks until the server's
// schema arrives).
func (e *ExchangeStream) Reader() (*RecordReader, error) { return NewRecordReader(e.s, e.read...) }

// Actions runs an action (DoAction) and returns its results' bodies.
func (c *Client) Actions(ctx context.Context, typ string, body []byte) ([][]byte, error) {
	s, err := c.DoAction(ctx, &Action{Type: typ, Body: body})
	if err != nil {
		return nil, fmt.Errorf("flight: do action %q: %w", typ, err)
	}
	var out [][]byte
	for {
		r, err := s.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("flight: do action %q: %w", typ, err)
		}
		out = append(out, r.Body)
	}
}

// DecodeSchema reads a schema in its encapsulated IPC form, as
// SchemaResult and FlightInfo carry it.
func DecodeSchema(b []byte) (*alkaid.Schema, error) {
	m, err := ipc.ReadMessage(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("flight: schema: %w", err)
	}
	if m.Type() != ipc.MessageSchema {
		return nil, fmt.Errorf("flight: schema: a %s message: %w", m.Type(), ipc.ErrInvalid)
	}
	dec, err := ipc.NewDecoder()
	if err != nil {
		return nil, fmt.Errorf("flight: schema: %w", err)
	}
	ev, err := dec.DecodeMessage(m)
	if err != nil {
		return nil, fmt.Errorf("flight: schema: %w", err)
	}
	return ev.Schema, nil
}

// EncodeSchema gives schema in its encapsulated IPC form, for
// SchemaResult and FlightInfo.
func EncodeSchema(schema *alkaid.Schema, opts ...ipc.Option) ([]byte, error) {
	enc, err := ipc.NewMessageEncoder(schema, opts...)
	if err != nil {
		return nil, fmt.Errorf("flight: schema: %w", err)
	}
	m, err := enc.Schema()
	if err != nil {
		return nil, fmt.Errorf("flight: schema: %w", err)
	}
	return ipc.FrameSchema(m.Metadata), nil
}
