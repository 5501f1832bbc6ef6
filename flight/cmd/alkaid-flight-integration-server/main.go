// Command alkaid-flight-integration-server is the server side of Apache
// Arrow's Flight integration tests, with the flags and output of Arrow's
// integration servers:
//
//	alkaid-flight-integration-server [-port 31337] [-scenario NAME]
//
// It listens on 127.0.0.1:PORT (0: a free port), prints "Server listening
// on localhost:PORT" once it accepts calls (test harnesses wait for that
// line), and serves until SIGTERM or an interrupt. Without -scenario it
// serves the JSON round trip: DoPut stores uploads (acknowledging each
// batch with its app metadata), GetFlightInfo describes them with this
// server as the location, DoGet sends them back with their app metadata.
// -scenario NAME serves one of Arrow's named scenarios instead:
// auth:basic_proto, middleware, ordered, expiration_time:do_get,
// expiration_time:list_actions, expiration_time:cancel_flight_info,
// expiration_time:renew_flight_endpoint, location:reuse_connection,
// poll_flight_info, app_metadata_flight_info_endpoint, session_options,
// flight_sql, flight_sql:extension, flight_sql:ingestion (Flight SQL,
// served with package flightsql). A scenario it does not know, or a port
// it cannot listen on, ends it with status 1.
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
	"syscall"

	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/internal/scenario"
)

func main() {
	fs := flag.NewFlagSet("alkaid-flight-integration-server", flag.ContinueOnError)
	port := fs.Int("port", 31337, "port to listen on (0: any free one)")
	name := fs.String("scenario", "", "integration scenario to serve (default: the JSON round trip)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *port, *name, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "alkaid-flight-integration-server:", err)
		os.Exit(1)
	}
}

// run serves scenario name on port until ctx is done.
func run(ctx context.Context, port int, name string, stdout io.Writer) error {
	sc, err := scenario.Get(name, "")
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	port = l.Addr().(*net.TCPAddr).Port
	svc, opts, done, err := sc.Server(port)
	if err != nil {
		l.Close()
		return err
	}
	defer done()
	srv, err := flight.NewServer(svc, opts...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Server listening on localhost:%d\n", port)
	return srv.ServeContext(ctx, l)
}
