package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/integration"
)

// roundTrip is the default scenario. The client uploads the batches of an
// integration JSON file with DoPut to the flight named by the file's
// path, batch i with app metadata "i", and waits for a PutResult
// repeating it after each batch; then it asks GetFlightInfo for the same
// path and reads every endpoint back with DoGet from each of its
// locations, checking the schema (metadata included), the batches and
// each batch's app metadata. The server stores uploads in a writable
// [flight.DirService] over a temporary directory.
type roundTrip struct {
	path string
}

func (*roundTrip) Server(port int) (flight.Service, []flight.Option, func(), error) {
	dir, err := os.MkdirTemp("", "alkaid-flight-integration-")
	if err != nil {
		return nil, nil, nil, err
	}
	svc, err := flight.NewDirService(dir, flight.WithWritable(), flight.WithLocations(fmt.Sprintf("grpc+tcp://127.0.0.1:%d", port)))
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, nil, err
	}
	stop := func() {
		svc.Close()
		os.RemoveAll(dir)
	}
	return svc, nil, stop, nil
}

func (r *roundTrip) Client(ctx context.Context, addr string) error {
	if r.path == "" {
		return errors.New("the JSON round trip needs -path FILE.json")
	}
	want, err := integration.ReadFile(r.path)
	if err != nil {
		return err
	}
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	d := flight.PathDescriptor(r.path)
	if err := upload(ctx, c, d, want); err != nil {
		return err
	}
	info, err := c.GetFlightInfo(ctx, d)
	if err != nil {
		return fmt.Errorf("get flight info: %w", err)
	}
	if len(info.Endpoint) == 0 {
		return errors.New("no endpoints returned from flight server")
	}
	for i, ep := range info.Endpoint {
		if len(ep.Location) == 0 {
			return fmt.Errorf("endpoint %d: no locations returned from flight server", i)
		}
		for _, loc := range ep.Location {
			if err := download(ctx, loc.Uri, ep.Ticket, want); err != nil {
				return fmt.Errorf("endpoint %d at %s: %w", i, loc.Uri, err)
			}
		}
	}
	return nil
}

// upload puts the file's batches, each acknowledged before the next goes.
func upload(ctx context.Context, c *flight.Client, d *flight.FlightDescriptor, f *integration.File) error {
	ps, err := c.Put(ctx, d, f.Schema)
	if err != nil {
		return err
	}
	for i, rec := range f.Records {
		app := strconv.Itoa(i)
		if err := ps.WriteWithAppMetadata(rec, []byte(app)); err != nil {
			ps.Close()
			return fmt.Errorf("do put: batch %d: %w", i, err)
		}
		res, err := ps.NextResult()
		if err == io.EOF {
			err = errors.New("the server ended the call")
		}
		if err != nil {
			ps.Close()
			return fmt.Errorf("do put: acknowledgement of batch %d: %w", i, err)
		}
		if got := string(res.AppMetadata); got != app {
			ps.Close()
			return fmt.Errorf("do put: batch %d acknowledged with app metadata %q, want %q", i, got, app)
		}
	}
	return ps.Close()
}

// download reads a ticket at a location and compares it with want.
func download(ctx context.Context, uri string, t *flight.Ticket, want *integration.File) error {
	c, err := flight.Dial(uri)
	if err != nil {
		return err
	}
	defer c.Close()
	rr, err := c.Get(ctx, t)
	if err != nil {
		return err
	}
	got := &integration.File{Schema: rr.Schema()}
	var apps []string
	for rec, err := range rr.Records() {
		if err != nil {
			return fmt.Errorf("do get: %w", err)
		}
		got.Records = append(got.Records, rec)
		apps = append(apps, string(rr.AppMetadata()))
	}
	// The names of a map's entries, key and value fields mean nothing in
	// the format, and arrow-go's server renames them to the canonical
	// ones (generated_map_non_canonical.json).
	if err := integration.Compare(want, got, integration.IgnoreMapFieldNames()); err != nil {
		return fmt.Errorf("do get: %w", err)
	}
	for i, app := range apps {
		if app != strconv.Itoa(i) {
			return fmt.Errorf("do get: batch %d has app metadata %q, want %q", i, app, strconv.Itoa(i))
		}
	}
	return nil
}
