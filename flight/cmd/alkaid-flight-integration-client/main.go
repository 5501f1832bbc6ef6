// Command alkaid-flight-integration-client is the client side of Apache
// Arrow's Flight integration tests, with the flags and exit status of
// Arrow's integration clients:
//
//	alkaid-flight-integration-client [-host localhost] [-port 31337] (-path FILE.json | -scenario NAME)
//
// With -path it runs the JSON round trip against the server: the batches
// of the integration JSON file (plain or gzip-compressed) are uploaded
// with DoPut to the flight named by the path, batch i with app metadata
// "i", each acknowledged by a PutResult repeating it before the next is
// sent; then GetFlightInfo of the path, and DoGet of every endpoint at
// each of its locations, must give back the schema (metadata included),
// the batches and their app metadata. With -scenario it runs that
// scenario's checks (the names alkaid-flight-integration-server lists). It exits 0 when every check passes, 1 (with the
// reason on stderr) when one fails, 2 for bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/alkaid-go/alkaid/flight/internal/scenario"
)

func main() {
	fs := flag.NewFlagSet("alkaid-flight-integration-client", flag.ContinueOnError)
	host := fs.String("host", "localhost", "server host to connect to")
	port := fs.Int("port", 31337, "server port to connect to")
	path := fs.String("path", "", "integration JSON file for the round trip")
	name := fs.String("scenario", "", "integration scenario to run")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up after this long")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if (*path == "") == (*name == "") || fs.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "alkaid-flight-integration-client: give one of -path FILE.json and -scenario NAME")
		os.Exit(2)
	}
	sc, err := scenario.Get(*name, *path)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), *timeout)
		err = sc.Client(ctx, net.JoinHostPort(*host, strconv.Itoa(*port)))
		cancel()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "alkaid-flight-integration-client:", err)
		os.Exit(1)
	}
}
