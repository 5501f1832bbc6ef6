// Package scenario holds the Arrow Flight integration scenarios that the
// commands alkaid-flight-integration-server and
// alkaid-flight-integration-client run: the same names, checks and
// answers as the integration programs of Apache Arrow's implementations,
// so that each language's client is run against each language's server.
package scenario

import (
	"context"
	"fmt"
	"sort"

	"github.com/alkaid-go/alkaid/flight"
)

// A Scenario is one integration test: a server to run and a client that
// checks a server of the same scenario.
type Scenario interface {
	// Server returns the service of a server listening on port, the
	// options to serve it with, and what to run when the server stops.
	Server(port int) (svc flight.Service, opts []flight.Option, stop func(), err error)
	// Client runs the checks against the server at addr (host:port).
	Client(ctx context.Context, addr string) error
}

// scenarios are the named scenarios.
var scenarios = map[string]func() Scenario{}

// Get returns the scenario called name; "" is the JSON round trip of the
// integration file at path (path is needed by its client only).
func Get(name, path string) (Scenario, error) {
	if name == "" {
		return &roundTrip{path: path}, nil
	}
	mk, ok := scenarios[name]
	if !ok {
		return nil, fmt.Errorf("scenario not found: %s (known: %v)", name, Names())
	}
	return mk(), nil
}

// Names lists the named scenarios.
func Names() []string {
	var out []string
	for n := range scenarios {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
