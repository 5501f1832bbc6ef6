// Command alkaid-flight serves a directory of IPC and Parquet files over
// Arrow Flight and fetches flights from any Flight server.
//
//	alkaid-flight serve [-addr 127.0.0.1:8815] [-writable] [-max-message-size BYTES] [-memory BYTES] [-send-timeout D] DIR|s3://BUCKET/PREFIX
//	alkaid-flight list URL
//	alkaid-flight get URL DESCRIPTOR -o OUT
//
// URL is grpc://host:port (or grpc+tls://). DESCRIPTOR names a flight by
// path (for a served directory: the file's path in it); "cmd:TEXT" sends
// TEXT as a command descriptor instead. get fetches every endpoint of the
// flight, concurrently, in order, and writes the records to OUT: the file
// format for a name ending in .ipc or .arrow, the stream format otherwise.
//
// serve sends record batches in messages of at most 4 MiB (what gRPC
// clients accept by default), slicing larger batches by rows;
// -max-message-size raises that for clients that accept more. The
// decoded batches all calls hold, and the memory decoding a Parquet row
// group takes, are bounded by -memory (1 GiB; see flight.WithMemory); a file
// whose batch would take more than a quarter of it decoded fails its
// call alone. A client that reads nothing for -send-timeout (1m) is
// disconnected. Endpoints list the server's address as their location
// when it is one a client can dial (not 0.0.0.0).
//
// serve s3://BUCKET/PREFIX serves the files and datasets under a prefix
// of an S3-compatible bucket, read-only (package objstore: ranged reads,
// the endpoint and credentials from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_REGION). Several servers may serve one
// bucket.
// "alkaid-flight -h" (or --help, help) prints this usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/objstore"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "alkaid-flight:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  alkaid-flight serve [-addr 127.0.0.1:8815] [-writable] [-max-message-size BYTES] [-memory BYTES] [-send-timeout D] DIR|s3://BUCKET/PREFIX
  alkaid-flight list URL
  alkaid-flight get URL DESCRIPTOR -o OUT`

// run runs one command; ready, when not nil, gets serve's address.
func run(ctx context.Context, args []string, stdout io.Writer, ready func(addr string)) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	case "serve":
		fs := newFlagSet("serve", stdout)
		addr := fs.String("addr", "127.0.0.1:8815", "address to listen on")
		writable := fs.Bool("writable", false, "store DoPut uploads as new .ipcs files")
		maxMsg := fs.Int("max-message-size", flight.DefaultMaxSendSize, "largest message sent, in bytes (larger record batches are sliced)")
		memory := fs.Int64("memory", flight.DefaultDirMemory, "bytes of decoded batches (and of Parquet decoding) all calls hold at once; one batch takes at most a quarter")
		timeout := fs.Duration("send-timeout", flight.DefaultSendTimeout, "disconnect a client that reads nothing for this long")
		if err := fs.Parse(args[1:]); err != nil {
			return helpOK(err)
		}
		if fs.NArg() != 1 {
			return errors.New(usage)
		}
		if *maxMsg <= 0 || *memory <= 0 || *timeout <= 0 {
			return fmt.Errorf("-max-message-size, -memory and -send-timeout must be positive")
		}
		opts := serveOptions{writable: *writable, maxMsg: *maxMsg, memory: *memory, timeout: *timeout}
		return serve(ctx, fs.Arg(0), *addr, opts, stdout, ready)
	case "list":
		if len(args) == 2 && (args[1] == "-h" || args[1] == "-help" || args[1] == "--help") {
			fmt.Fprintln(stdout, usage)
			return nil
		}
		if len(args) != 2 {
			return errors.New(usage)
		}
		return list(ctx, args[1], stdout)
	case "get":
		fs := newFlagSet("get", stdout)
		out := fs.String("o", "", "output file")
		// flags may come after the positional arguments
		var pos []string
		rest := args[1:]
		for len(rest) > 0 {
			if err := fs.Parse(rest); err != nil {
				return helpOK(err)
			}
			rest = fs.Args()
			if len(rest) > 0 {
				pos, rest = append(pos, rest[0]), rest[1:]
			}
		}
		if len(pos) != 2 || *out == "" {
			return errors.New(usage)
		}
		return get(ctx, pos[0], pos[1], *out, stdout)
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// newFlagSet returns a subcommand's flags, whose -h prints the usage and
// the flags to stdout.
func newFlagSet(name string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintln(stdout, usage)
		fs.PrintDefaults()
	}
	return fs
}

// helpOK turns the flag package's answer to -h, which has printed the
// flags, into success.
func helpOK(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

// serveOptions are serve's flags.
type serveOptions struct {
	writable bool
	maxMsg   int
	memory   int64
	timeout  time.Duration
}

func serve(ctx context.Context, dir, addr string, o serveOptions, stdout io.Writer, ready func(string)) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	defer l.Close()
	opts := []flight.Option{flight.WithMemory(o.memory, o.memory/4)}
	if o.writable {
		opts = append(opts, flight.WithWritable())
	}
	// Endpoints name this server when its address is one a client can
	// dial (not 0.0.0.0 or [::]).
	if host, _, err := net.SplitHostPort(l.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
			opts = append(opts, flight.WithLocations("grpc://"+l.Addr().String()))
		}
	}
	var svc *flight.DirService
	if objstore.IsURL(dir) {
		// A bucket prefix: endpoint and credentials from AWS_ENDPOINT_URL,
		// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION.
		fsys, err := objstore.Open(dir)
		if err != nil {
			return err
		}
		defer fsys.Close()
		svc, err = flight.NewFSService(fsys, opts...)
	} else {
		svc, err = flight.NewDirService(dir, opts...)
	}
	if err != nil {
		return err
	}
	defer svc.Close()
	srv, err := flight.NewServer(svc, flight.WithMaxSendSize(o.maxMsg), flight.WithSendTimeout(o.timeout))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving %s at grpc://%s\n", dir, l.Addr())
	if ready != nil {
		ready(l.Addr().String())
	}
	return srv.ServeContext(ctx, l)
}

func list(ctx context.Context, url string, stdout io.Writer) error {
	c, err := flight.Dial(url)
	if err != nil {
		return err
	}
	defer c.Close()
	for fi, err := range c.Flights(ctx, nil) {
		if err != nil {
			return err
		}
		d := fi.GetFlightDescriptor()
		name := strings.Join(d.GetPath(), "/")
		if d.GetType() == flight.DescriptorCmd {
			name = "cmd:" + string(d.GetCmd())
		}
		fmt.Fprintf(stdout, "%s\t%d rows\t%d bytes\t%d endpoints\n", name, fi.GetTotalRecords(), fi.GetTotalBytes(), len(fi.GetEndpoint()))
	}
	return nil
}

type recordWriter interface {
	Write(*alkaid.Record) error
	Close() error
}

func get(ctx context.Context, url, desc, out string, stdout io.Writer) error {
	c, err := flight.Dial(url)
	if err != nil {
		return err
	}
	defer c.Close()
	d := flight.PathDescriptor(desc)
	if cmd, ok := strings.CutPrefix(desc, "cmd:"); ok {
		d = flight.CmdDescriptor([]byte(cmd))
	}
	info, err := c.GetFlightInfo(ctx, d)
	if err != nil {
		return fmt.Errorf("get flight info %q: %w", desc, err)
	}
	schema, err := flight.DecodeSchema(info.GetSchema())
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".alkaid-flight-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	var w recordWriter
	switch strings.ToLower(filepath.Ext(out)) {
	case ".ipc", ".arrow":
		w, err = ipc.NewFileWriter(tmp, schema)
	default:
		w, err = ipc.NewStreamWriter(tmp, schema)
	}
	if err != nil {
		return err
	}
	rows, batches := 0, 0
	r, err := flight.Fetch(ctx, c, info)
	if err != nil {
		return err
	}
	defer r.Close()
	for rec, err := range r.Records() {
		if err != nil {
			return err
		}
		if err := w.Write(rec); err != nil {
			return err
		}
		rows += rec.NumRows()
		batches++
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d rows in %d batches\n", out, rows, batches)
	return nil
}
