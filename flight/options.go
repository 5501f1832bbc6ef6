package flight

import (
	"crypto/tls"
	"fmt"
	"runtime"
	"time"

	"google.golang.org/grpc"

	"github.com/alkaid-go/alkaid/ipc"
)

// Option configures the package's constructors: [Dial] (a client),
// [NewServer], [NewDirService] and [Fetch]. One concept has one option
// wherever it applies (WithTLS, WithMaxMessageSize, WithMaxSendSize,
// WithReadOptions, WithWriteOptions serve several of them); each option
// says which constructors take it. An option given to a constructor that
// does not take it, or an invalid value, makes the constructor return an
// error wrapping ipc.ErrInvalid that names the option.
type Option func(*config) error

// role is the constructor options are applied for.
type role uint8

const (
	forDial role = 1 << iota
	forServer
	forDir
	forFetch
)

func (r role) String() string {
	switch r {
	case forDial:
		return "Dial"
	case forServer:
		return "NewServer"
	case forDir:
		return "NewDirService"
	default:
		return "Fetch"
	}
}

// config is what options set, for the constructor of role.
type config struct {
	role   role
	client *clientConfig
	server *serverConfig
	dir    *DirService
	fetch  *fetchConfig
}

// apply applies opts in order; the first error is returned.
func (c *config) apply(opts []Option) error {
	for _, o := range opts {
		if o == nil {
			return fmt.Errorf("flight: %s: a nil option: %w", c.role, ipc.ErrInvalid)
		}
		if err := o(c); err != nil {
			return err
		}
	}
	return nil
}

// option makes an option named name that the constructors of roles take.
func option(name string, roles role, set func(*config) error) Option {
	return func(c *config) error {
		if c.role&roles == 0 {
			return fmt.Errorf("flight: %s is not an option of %s: %w", name, c.role, ipc.ErrInvalid)
		}
		return set(c)
	}
}

func invalidOption(name, why string) error {
	return fmt.Errorf("flight: %s: %s: %w", name, why, ipc.ErrInvalid)
}

// WithTLS connects (Dial) or serves (NewServer) over TLS with cfg. For a
// URI of scheme grpc+tls, Dial defaults to the system roots without it.
func WithTLS(cfg *tls.Config) Option {
	return option("WithTLS", forDial|forServer, func(c *config) error {
		if cfg == nil {
			return invalidOption("WithTLS(nil)", "no configuration")
		}
		if c.client != nil {
			c.client.tls = cfg
		} else {
			c.server.tls = cfg
		}
		return nil
	})
}

// WithMaxMessageSize bounds one received message in bytes (default
// [DefaultMaxMessageSize]), for Dial and NewServer; n must be positive.
func WithMaxMessageSize(n int) Option {
	name := fmt.Sprintf("WithMaxMessageSize(%d)", n)
	return option(name, forDial|forServer, func(c *config) error {
		if n <= 0 {
			return invalidOption(name, "must be positive")
		}
		if c.client != nil {
			c.client.maxMsg = n
		} else {
			c.server.maxMsg = n
		}
		return nil
	})
}

// WithMaxSendSize bounds each FlightData sent in bytes (default
// [DefaultMaxSendSize], which peers with gRPC's default settings
// accept): a client's uploads ([Client.Put], [Client.Exchange]) for Dial,
// what the RecordWriters of the server's calls send for NewServer. Raise
// it only for peers that accept larger messages; n must be positive.
func WithMaxSendSize(n int) Option {
	name := fmt.Sprintf("WithMaxSendSize(%d)", n)
	return option(name, forDial|forServer, func(c *config) error {
		if n <= 0 {
			return invalidOption(name, "must be positive")
		}
		if c.client != nil {
			c.client.maxSend = n
		} else {
			c.server.maxSend = n
		}
		return nil
	})
}

// WithReadOptions sets the ipc reader options (validation, limits) for
// the data received: by a client (Dial), or by a DirService's DoPut.
func WithReadOptions(opts ...ipc.Option) Option {
	return option("WithReadOptions", forDial|forDir, func(c *config) error {
		if c.client != nil {
			c.client.read = append(c.client.read, opts...)
		} else {
			c.dir.read = append(c.dir.read, opts...)
		}
		return nil
	})
}

// WithWriteOptions sets the ipc writer options (compression, …) for the
// data sent: by a client (Dial), or served by a DirService.
func WithWriteOptions(opts ...ipc.Option) Option {
	return option("WithWriteOptions", forDial|forDir, func(c *config) error {
		if c.client != nil {
			c.client.write = append(c.client.write, opts...)
		} else {
			c.dir.write = append(c.dir.write, opts...)
		}
		return nil
	})
}

// WithGRPCDialOptions passes further options to grpc.NewClient (Dial).
func WithGRPCDialOptions(opts ...grpc.DialOption) Option {
	return option("WithGRPCDialOptions", forDial, func(c *config) error {
		c.client.grpcOpt = append(c.client.grpcOpt, opts...)
		return nil
	})
}

// WithSessionCookies makes the client (Dial) keep the cookies a server
// sets (set-cookie headers, in a call's headers or trailers) and send
// them back with every later call, as Arrow's cookie middleware does: how
// a server's session ([WithSessions]) follows its client. A cookie the
// server expires (Max-Age 0) is dropped.
func WithSessionCookies() Option {
	return option("WithSessionCookies", forDial, func(c *config) error { c.client.cookies = true; return nil })
}

// WithAuth makes the server (NewServer) require a bearer token on every
// call but Handshake, which turns a basic user name and password into a
// token.
func WithAuth(a Authenticator) Option {
	return option("WithAuth", forServer, func(c *config) error {
		if a == nil {
			return invalidOption("WithAuth(nil)", "no authenticator")
		}
		c.server.auth = a
		return nil
	})
}

// WithGRPCServerOptions passes further options to grpc.NewServer
// (NewServer).
func WithGRPCServerOptions(opts ...grpc.ServerOption) Option {
	return option("WithGRPCServerOptions", forServer, func(c *config) error {
		c.server.grpcOpt = append(c.server.grpcOpt, opts...)
		return nil
	})
}

// WithSendTimeout bounds how long sending one message of a server's call
// may take (NewServer; a message is at most the send size, see
// [WithMaxSendSize]): a client that reads nothing for that long is
// disconnected, so that what the call holds for it is freed. Zero turns
// the bound off (default [DefaultSendTimeout]); a negative d is an error.
func WithSendTimeout(d time.Duration) Option {
	name := fmt.Sprintf("WithSendTimeout(%s)", d)
	return option(name, forServer, func(c *config) error {
		if d < 0 {
			return invalidOption(name, "must not be negative")
		}
		c.server.sendTimeout = d
		return nil
	})
}

// WithSessions gives the server (NewServer) sessions, as Arrow's session
// middleware does: a client that calls without a session cookie
// ([SessionCookie]) gets a new session, its id in a set-cookie response
// header, when the call uses one ([SessionOf] or a session action); a
// client that sends the cookie back is in that session; a cookie naming
// no open session (never issued, closed, or closed for room: at most
// [DefaultMaxSessions] are open, the one unused longest closed first)
// fails the call with NotFound, and expires the cookie: the client's next
// call opens a new session. The server answers the actions
// SetSessionOptions, GetSessionOptions and CloseSession itself. check,
// when not nil, is asked about each option set and refuses it by
// returning a reason other than [SessionOptionUnspecified]; nil accepts
// every option.
func WithSessions(check func(name string, value *SessionOptionValue) SessionOptionError) Option {
	return option("WithSessions", forServer, func(c *config) error {
		c.server.sessions = &sessions{m: map[string]*Session{}, max: DefaultMaxSessions, check: check}
		return nil
	})
}

// WithWritable lets a DirService's DoPut (NewDirService) store uploads
// as new .ipcs files. An existing entry of the name (a file, a
// directory, a symbolic link, wherever it leads) is never replaced: the
// upload is refused with AlreadyExists.
func WithWritable() Option {
	return option("WithWritable", forDir, func(c *config) error { c.dir.writable = true; return nil })
}

// WithLocations lists these URIs as the locations of every endpoint a
// DirService (NewDirService) describes (the servers a client may redeem
// its tickets at: this one, replicas); without, endpoints list none,
// which means the server that gave the FlightInfo.
func WithLocations(uris ...string) Option {
	return option("WithLocations", forDir, func(c *config) error {
		for _, u := range uris {
			c.dir.locs = append(c.dir.locs, &Location{Uri: u})
		}
		return nil
	})
}

// WithMemory bounds the memory a DirService's DoGet calls hold
// (NewDirService): total bytes across every call of the service (a call
// waits for room before it decodes), and batch bytes for one batch or
// Parquet row group decoded (a larger one fails the call with
// ResourceExhausted). Zero keeps a default ([DefaultDirMemory],
// [DefaultDirBatchMemory]); a negative value is an error.
//
// The total counts, as estimated before decoding:
//   - the decoded record batches each call holds until gRPC has sent
//     them (until the call's next batch is sent): a Parquet row group's
//     records by its footer, its rows times the bytes a row takes at least
//     in memory (8 for an int64, 4 for the offset of a string, …) or the
//     uncompressed size of its column chunks if larger; any other batch's
//     (an IPC, CSV or NDJSON file's, a dataset file's) by its rows once it
//     is read (the batch before's size is taken while it is read);
//   - while a row group of a Parquet file served as a flight of its own
//     is decoded, the reader's working memory: its column chunks read
//     whole and the pages being decompressed (parquet.RowGroupInfo.Working),
//     given back once it is decoded.
//
// It does not count the values of strings, binaries and dictionaries
// beyond those estimates, what reading takes besides the batches for
// other files (an IPC, CSV or NDJSON file, a dataset's files, Parquet
// ones included, which its scan reads), gRPC's buffers and connections,
// nor the buffers
// the Parquet reader keeps pooled for reuse after a row group (until the
// garbage collector frees them). A call whose one batch or row group
// takes more than the total waits until it holds all that is held, then
// goes on alone, over the bound, rather than fail.
func WithMemory(total, batch int64) Option {
	name := fmt.Sprintf("WithMemory(%d, %d)", total, batch)
	return option(name, forDir, func(c *config) error {
		if total < 0 || batch < 0 {
			return invalidOption(name, "must not be negative")
		}
		if total > 0 {
			c.dir.mem.total = total
		}
		if batch > 0 {
			c.dir.batchMax = batch
		}
		return nil
	})
}

// WithConcurrency bounds the endpoints Fetch reads at once: 0 means
// runtime.GOMAXPROCS(0), 1 one endpoint after another; a negative n is an
// error. Without it Fetch reads 4 at once.
func WithConcurrency(n int) Option {
	name := fmt.Sprintf("WithConcurrency(%d)", n)
	return option(name, forFetch, func(c *config) error {
		if n < 0 {
			return invalidOption(name, "must not be negative")
		}
		if n == 0 {
			n = runtime.GOMAXPROCS(0)
		}
		c.fetch.concurrency = n
		return nil
	})
}

// WithUnordered makes Fetch yield records as they arrive from any
// endpoint, rather than in endpoint order (each endpoint's in its own
// order).
func WithUnordered() Option {
	return option("WithUnordered", forFetch, func(c *config) error { c.fetch.unordered = true; return nil })
}

// WithBuffer sets the number of records each endpoint Fetch reads may
// have waiting ahead of the one being read (default 2); it must be at
// least 1.
func WithBuffer(records int) Option {
	name := fmt.Sprintf("WithBuffer(%d)", records)
	return option(name, forFetch, func(c *config) error {
		if records < 1 {
			return invalidOption(name, "must be at least 1")
		}
		c.fetch.buffer = records
		return nil
	})
}

// WithDial sets how Fetch opens a client for a location URI. The default
// dials with [Dial] and no options. The clients are closed when the
// records have been read or the reader is closed.
func WithDial(dial func(uri string) (*Client, error)) Option {
	return option("WithDial", forFetch, func(c *config) error {
		if dial == nil {
			return invalidOption("WithDial(nil)", "no function")
		}
		c.fetch.dial = dial
		return nil
	})
}
