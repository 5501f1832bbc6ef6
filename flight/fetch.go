package flight

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

	"github.com/alkaid-go/alkaid/alkaid"
)

// FetchOptions configure [Fetch].
type FetchOptions struct {
	// Concurrency bounds the endpoints fetched at once (default 4).
	Concurrency int
	// Ordered yields the endpoints' records in endpoint order (each
	// endpoint's in its own order); otherwise records come as they
	// arrive. Ordered fetching holds at most Buffer records per endpoint
	// ahead of the one being read.
	Ordered bool
	// Buffer is the number of records each endpoint may have waiting
	// (default 2).
	Buffer int
	// Dial opens a client for a location URI. The default dials with
	// [Dial] and no options; the clients are closed when Fetch ends.
	Dial func(uri string) (*Client, error)
}

// Fetch reads every endpoint of info concurrently: each from the first
// of its locations that answers DoGet, or through self when the endpoint
// lists no location (it lives on the server that gave info; self may be
// nil otherwise). It yields the records of all endpoints as one sequence;
// the first error ends it (yielded with a nil record). Stopping the loop
// early cancels the transfers still running.
func Fetch(ctx context.Context, self *Client, info *FlightInfo, opt FetchOptions) iter.Seq2[*alkaid.Record, error] {
	if opt.Concurrency <= 0 {
		opt.Concurrency = 4
	}
	if opt.Buffer <= 0 {
		opt.Buffer = 2
	}
	return func(yield func(*alkaid.Record, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		defer wg.Wait()
		defer cancel()
		d := &dialer{dial: opt.Dial, clients: map[string]*Client{}}
		defer d.closeAll()

		type item struct {
			rec *alkaid.Record
			err error
		}
		eps := info.GetEndpoint()
		chans := make([]chan item, len(eps))
		shared := make(chan item, opt.Buffer*opt.Concurrency)
		for i := range eps {
			chans[i] = shared
			if opt.Ordered {
				chans[i] = make(chan item, opt.Buffer)
			}
		}
		sem := make(chan struct{}, opt.Concurrency)
		var live sync.WaitGroup
		live.Add(len(eps))
		wg.Add(1)
		go func() { // starts fetchers in endpoint order, at most Concurrency at once
			defer wg.Done()
			for i, ep := range eps {
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
					if opt.Ordered {
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
					rr, err := d.get(ctx, self, ep)
					if err != nil {
						send(item{err: fmt.Errorf("flight: endpoint %d: %w", i, err)})
						return
					}
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
		if opt.Ordered {
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
				if ctx.Err() != nil {
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
						return
					}
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
	for _, c := range d.clients {
		c.Close()
	}
}

// get opens the endpoint's records at the first location that answers.
func (d *dialer) get(ctx context.Context, self *Client, ep *FlightEndpoint) (*RecordReader, error) {
	if len(ep.GetLocation()) == 0 {
		if self == nil {
			return nil, errors.New("no location and no client of the server that gave the FlightInfo")
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
