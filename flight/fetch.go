package flight

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

type fetchConfig struct {
	concurrency int
	unordered   bool
	buffer      int
	dial        func(uri string) (*Client, error)
}

// Fetch reads every endpoint of info: each from the first of its
// locations that answers DoGet, or through self when the endpoint lists
// no location (it lives on the server that gave info; self may be nil
// otherwise). Endpoints are fetched concurrently ([WithConcurrency]) and
// their records yielded as one stream, in endpoint order unless
// [WithUnordered]: a FlightInfo is one flight, of one schema, split for
// transfer, so it reads as one [alkaid.RecordReader] rather than one per
// endpoint.
//
// The reader's schema is info's; when info carries none, Fetch opens the
// first endpoint now and takes its schema (no columns when info has no
// endpoint). An endpoint whose schema differs (metadata aside) is an
// error wrapping ipc.ErrInvalid. The first error ends the records.
// Transfers start when the records are iterated, which can be done once;
// stopping the loop early, or Close, cancels those still running.
func Fetch(ctx context.Context, self *Client, info *FlightInfo, opts ...Option) (alkaid.RecordReader, error) {
	cfg := fetchConfig{concurrency: 4, buffer: 2}
	if err := (&config{role: forFetch, fetch: &cfg}).apply(opts); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	f := &fetch{ctx: ctx, cancel: cancel, self: self, eps: info.GetEndpoint(), cfg: cfg,
		d: &dialer{dial: cfg.dial, clients: map[string]*Client{}}}
	switch {
	case len(info.GetSchema()) > 0:
		schema, err := DecodeSchema(info.GetSchema())
		if err != nil {
			f.Close()
			return nil, err
		}
		f.schema = schema
	case len(f.eps) == 0:
		f.schema = alkaid.NewSchema(nil, datatype.Metadata{})
	default:
		rr, err := f.d.get(ctx, self, f.eps[0])
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("flight: endpoint 0: %w", err)
		}
		f.first, f.schema = rr, rr.Schema()
	}
	return f, nil
}

// fetch is the reader Fetch returns.
type fetch struct {
	ctx    context.Context
	cancel context.CancelFunc
	self   *Client
	eps    []*FlightEndpoint
	cfg    fetchConfig
	d      *dialer
	schema *alkaid.Schema
	first  *RecordReader // endpoint 0, opened for its schema
	used   bool
}

func (f *fetch) Schema() *alkaid.Schema { return f.schema }

func (f *fetch) Close() error {
	f.cancel()
	if f.first != nil {
		f.first.Close()
	}
	f.d.closeAll()
	return nil
}

// open opens endpoint i's records and checks their schema.
func (f *fetch) open(ctx context.Context, i int) (*RecordReader, error) {
	rr := f.first
	if i != 0 || rr == nil {
		var err error
		if rr, err = f.d.get(ctx, f.self, f.eps[i]); err != nil {
			return nil, err
		}
	}
	if !rr.Schema().Equal(f.schema, datatype.IgnoreMetadata()) {
		rr.Close()
		return nil, fmt.Errorf("schema %s differs from the flight's %s: %w", rr.Schema(), f.schema, ipc.ErrInvalid)
	}
	return rr, nil
}

func (f *fetch) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		if f.used {
			yield(nil, fmt.Errorf("flight: fetched records iterated twice: they can be read once: %w", ipc.ErrInvalid))
			return
		}
		f.used = true
		f.records(yield)
	}
}

func (f *fetch) records(yield func(*alkaid.Record, error) bool) {
	ctx, cancel := context.WithCancel(f.ctx)
	var wg sync.WaitGroup
	// on return: cancel the transfers, wait for their goroutines, then
	// close what they used
	defer f.d.closeAll()
	if f.first != nil {
		defer f.first.Close()
	}
	defer wg.Wait()
	defer cancel()

	type item struct {
		rec *alkaid.Record
		err error
	}
	ordered := !f.cfg.unordered
	eps := f.eps
	chans := make([]chan item, len(eps))
	shared := make(chan item, f.cfg.buffer*f.cfg.concurrency)
	for i := range eps {
		chans[i] = shared
		if ordered {
			chans[i] = make(chan item, f.cfg.buffer)
		}
	}
	sem := make(chan struct{}, f.cfg.concurrency)
	var live sync.WaitGroup
	live.Add(len(eps))
	wg.Add(1)
	go func() { // starts fetchers in endpoint order, at most concurrency at once
		defer wg.Done()
		for i := range eps {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				for range eps[i:] {
					live.Done()
				}
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer live.Done()
				defer func() { <-sem }()
				out := chans[i]
				if ordered {
					defer close(out)
				}
				send := func(it item) bool {
					select {
					case out <- it:
						return true
					case <-ctx.Done():
						return false
					}
				}
				rr, err := f.open(ctx, i)
				if err != nil {
					send(item{err: fmt.Errorf("flight: endpoint %d: %w", i, err)})
					return
				}
				defer rr.Close()
				for rec, err := range rr.Records() {
					if err != nil {
						send(item{err: fmt.Errorf("flight: endpoint %d: %w", i, err)})
						return
					}
					if !send(item{rec: rec}) {
						return
					}
				}
			}()
		}
	}()
	if ordered {
		for i := range eps {
			for it := range chans[i] {
				if it.err != nil {
					yield(nil, it.err)
					return
				}
				if !yield(it.rec, nil) {
					return
				}
			}
			if err := ctx.Err(); err != nil {
				yield(nil, fmt.Errorf("flight: fetch: %w", err))
				return
			}
		}
		return
	}
	done := make(chan struct{})
	wg.Add(1)
	go func() { defer wg.Done(); live.Wait(); close(done) }()
	for {
		select {
		case it := <-shared:
			if it.err != nil {
				yield(nil, it.err)
				return
			}
			if !yield(it.rec, nil) {
				return
			}
		case <-done:
			for {
				select {
				case it := <-shared:
					if it.err != nil {
						yield(nil, it.err)
						return
					}
					if !yield(it.rec, nil) {
						return
					}
				default:
					if err := ctx.Err(); err != nil {
						yield(nil, fmt.Errorf("flight: fetch: %w", err))
					}
					return
				}
			}
		}
	}
}

// dialer keeps one client per location for the length of a Fetch.
type dialer struct {
	dial    func(string) (*Client, error)
	mu      sync.Mutex
	clients map[string]*Client
}

func (d *dialer) client(uri string) (*Client, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if c, ok := d.clients[uri]; ok {
		return c, nil
	}
	dial := d.dial
	if dial == nil {
		dial = func(u string) (*Client, error) { return Dial(u) }
	}
	c, err := dial(uri)
	if err != nil {
		return nil, err
	}
	d.clients[uri] = c
	return c, nil
}

func (d *dialer) closeAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for uri, c := range d.clients {
		c.Close()
		delete(d.clients, uri)
	}
}

// get opens the endpoint's records at the first location that answers.
func (d *dialer) get(ctx context.Context, self *Client, ep *FlightEndpoint) (*RecordReader, error) {
	if len(ep.GetLocation()) == 0 {
		if self == nil {
			return nil, fmt.Errorf("no location and no client of the server that gave the FlightInfo: %w", ipc.ErrInvalid)
		}
		return self.Get(ctx, ep.GetTicket())
	}
	var errs []error
	for _, loc := range ep.GetLocation() {
		c, err := self, error(nil)
		if loc.GetUri() != LocationReuseConnection || self == nil {
			c, err = d.client(loc.GetUri())
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rr, err := c.Get(ctx, ep.GetTicket())
		if err == nil {
			return rr, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", loc.GetUri(), err))
	}
	return nil, errors.Join(errs...)
}
