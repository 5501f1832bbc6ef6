package objstore

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// settle waits until the goroutines are at most want and the proxy has
// no open connection, closing idle connections; it reports what is left.
func settle(tr *http.Transport, px *proxy, want int) (goroutines int, conns int64) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		tr.CloseIdleConnections()
		px.rp.Transport.(*http.Transport).CloseIdleConnections()
		goroutines, conns = runtime.NumGoroutine(), px.conns.Load()
		if (goroutines <= want && conns == 0) || time.Now().After(deadline) {
			return goroutines, conns
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func isRangedGet(r *http.Request) bool {
	return r.Method == http.MethodGet && r.Header.Get("Range") != ""
}

// Scans through a proxy that fails, drops, cuts and stalls requests
// either read the right rows or fail, within their time bound, with an
// error naming the object and the range; they leave no goroutine and no
// connection behind.
func TestScanFaults(t *testing.T) {
	bucket := newBucket(t)
	px := newProxy(t, server.endpoint)
	setup, err := Open("s3://"+bucket+"/w", testOptions(server.endpoint)...)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, setup, "sales")
	tests := []struct {
		name  string
		fault func(n int, r *http.Request) fault
		fail  bool          // the scan must fail
		bound time.Duration // within this time
		want  []string      // the error names these
		is    error
	}{
		{name: "every third request 503", fault: func(n int, _ *http.Request) fault {
			if n%3 == 1 {
				return fail503
			}
			return passOn
		}, bound: 30 * time.Second},
		{name: "every fourth connection dropped", fault: func(n int, _ *http.Request) fault {
			if n%4 == 2 {
				return dropConn
			}
			return passOn
		}, bound: 30 * time.Second},
		{name: "every other body cut", fault: func(n int, r *http.Request) fault {
			if isRangedGet(r) && n%2 == 0 {
				return cutBody
			}
			return passOn
		}, bound: 30 * time.Second},
		{name: "two reads stall", fault: func() func(int, *http.Request) fault {
			gets := 0
			return func(_ int, r *http.Request) fault {
				if !isRangedGet(r) {
					return passOn
				}
				gets++
				if gets == 2 || gets == 5 {
					return stall
				}
				return passOn
			}
		}(), bound: 30 * time.Second},
		{name: "reads always 503", fault: func(_ int, r *http.Request) fault {
			if isRangedGet(r) {
				return fail503
			}
			return passOn
		}, fail: true, bound: 20 * time.Second, want: []string{"GET s3://" + bucket + "/w/sales/year=2024/", ".parquet bytes ", "after 5 attempts"}, is: ErrRequest},
		{name: "reads always stall", fault: func(_ int, r *http.Request) fault {
			if isRangedGet(r) {
				return stall
			}
			return passOn
		}, fail: true, bound: 20 * time.Second, want: []string{"GET s3://" + bucket + "/w/sales/year=2024/", "request timeout"}, is: context.DeadlineExceeded},
		{name: "reads forbidden", fault: func(_ int, r *http.Request) fault {
			if isRangedGet(r) {
				return failForbd
			}
			return passOn
		}, fail: true, bound: 5 * time.Second, want: []string{"GET s3://" + bucket + "/w/sales/year=2024/"}, is: fs.ErrPermission},
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			settle(tr, px, math.MaxInt) // no connection open
			base := runtime.NumGoroutine()
			px.setFault(tc.fault)
			defer px.setFault(nil)
			fsys, err := Open("s3://"+bucket+"/w", testOptions(px.URL(), WithTransport(tr), WithRetries(4, 10*time.Millisecond),
				WithRequestTimeout(time.Second))...)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			res, err := projectedScan(context.Background(), fsys, "sales")
			took := time.Since(start)
			if took > tc.bound {
				t.Errorf("took %v, more than %v", took, tc.bound)
			}
			if tc.fail {
				if err == nil {
					t.Fatalf("scan succeeded (%d rows), want an error", res.rows)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not name %q", err, w)
					}
				}
				if !errors.Is(err, tc.is) {
					t.Errorf("error %v is not %v", err, tc.is)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if want := wantScan(); res.rows != want.rows || res.idSum != want.idSum {
					t.Fatalf("read %d rows (id sum %d), want %d (%d)", res.rows, res.idSum, want.rows, want.idSum)
				}
			}
			faults := 0
			for _, r := range px.take() {
				if r.fault != passOn {
					faults++
				}
			}
			if faults == 0 {
				t.Errorf("no fault was injected")
			}
			px.setFault(nil)
			if g, c := settle(tr, px, base); g > base || c != 0 {
				buf := make([]byte, 1<<16)
				t.Errorf("left %d goroutines (%d before) and %d connections:\n%s", g, base, c, buf[:runtime.Stack(buf, true)])
			}
			t.Logf("%v, %d faults; %v", took, faults, err)
		})
	}
}
