package objstore

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// request is one request seen by the proxy.
type request struct {
	method string
	key    string // bucket/key, path-style
	list   bool   // a listing
	rng    span   // a ranged GET's range ([0,0) when none)
	status int
	bytes  int64 // response body bytes sent to the client
	fault  fault
}

// fault is what the proxy does to a request instead of passing it on.
type fault int

const (
	passOn    fault = iota
	fail503         // answer 503 SlowDown
	dropConn        // close the connection without an answer
	stall           // answer nothing until the client gives up
	cutBody         // pass the answer on, cut after half its body
	failForbd       // answer 403
)

// proxy passes requests to an S3 server, recording each and injecting
// faults, and counts its open connections.
type proxy struct {
	t      *testing.T
	srv    *httptest.Server
	target *url.URL
	rp     *httputil.ReverseProxy

	mu    sync.Mutex
	log   []request
	n     int
	fault func(n int, r *http.Request) fault // nil: pass every request on

	conns    atomic.Int64
	inflight atomic.Int64 // requests not yet logged
}

func newProxy(t *testing.T, endpoint string) *proxy {
	t.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, target: target}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme, r.Out.URL.Host = target.Scheme, target.Host
			r.Out.Host = r.In.Host // the host the request was signed for
		},
		Transport: &http.Transport{MaxIdleConnsPerHost: 64},
		ErrorLog:  nil,
	}
	p.srv = httptest.NewUnstartedServer(p)
	p.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			p.conns.Add(1)
		case http.StateClosed, http.StateHijacked:
			p.conns.Add(-1)
		}
	}
	p.srv.Start()
	t.Cleanup(p.srv.Close)
	return p
}

func (p *proxy) URL() string { return p.srv.URL }

// setFault sets what happens to the requests from now on.
func (p *proxy) setFault(f func(n int, r *http.Request) fault) {
	p.mu.Lock()
	p.fault, p.n = f, 0
	p.mu.Unlock()
}

// settled takes the requests seen since the last take once every
// request in flight is logged (within 5 s): a client may have read a
// whole answer before the proxy logs it.
func (p *proxy) settled() []request {
	for deadline := time.Now().Add(5 * time.Second); p.inflight.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	return p.take()
}

// take returns the requests seen since the last take.
func (p *proxy) take() []request {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.log
	p.log = nil
	return out
}

type countingWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	limit  int64 // cut the body after this many bytes (-1: never)
}

func (w *countingWriter) WriteHeader(s int) { w.status = s; w.ResponseWriter.WriteHeader(s) }

func (w *countingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.limit >= 0 && w.bytes+int64(len(b)) > w.limit {
		n, _ := w.ResponseWriter.Write(b[:w.limit-w.bytes])
		w.bytes += int64(n)
		w.ResponseWriter.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the server resets the connection
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *countingWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.inflight.Add(1)
	req := request{method: r.Method, key: strings.TrimPrefix(r.URL.Path, "/")}
	q := r.URL.Query()
	req.list = r.Method == http.MethodGet && (q.Has("list-type") || q.Has("delimiter") || q.Has("prefix"))
	if h := r.Header.Get("Range"); h != "" {
		var a, b int64
		if s, ok := strings.CutPrefix(h, "bytes="); ok {
			lo, hi, _ := strings.Cut(s, "-")
			a, _ = strconv.ParseInt(lo, 10, 64)
			b, _ = strconv.ParseInt(hi, 10, 64)
			req.rng = span{a, b + 1}
		}
	}
	p.mu.Lock()
	f := passOn
	if p.fault != nil {
		f = p.fault(p.n, r)
	}
	p.n++
	p.mu.Unlock()
	req.fault = f
	cw := &countingWriter{ResponseWriter: w, limit: -1}
	defer func() {
		req.status, req.bytes = cw.status, cw.bytes
		p.mu.Lock()
		p.log = append(p.log, req)
		p.mu.Unlock()
		p.inflight.Add(-1)
	}()
	switch f {
	case fail503:
		w.Header().Set("Content-Type", "application/xml")
		cw.WriteHeader(http.StatusServiceUnavailable)
		cw.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>injected</Message></Error>`))
		return
	case failForbd:
		w.Header().Set("Content-Type", "application/xml")
		cw.WriteHeader(http.StatusForbidden)
		cw.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>injected</Message></Error>`))
		return
	case dropConn:
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	case stall:
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
		return
	case cutBody:
		if r.Method == http.MethodGet && req.rng.end > req.rng.off {
			cw.limit = (req.rng.end - req.rng.off) / 2
		}
	}
	p.rp.ServeHTTP(cw, r)
}
