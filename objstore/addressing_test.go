package objstore

import (
	"bytes"
	"context"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// hostRecorder records the hosts requests are sent to.
type hostRecorder struct {
	rt    http.RoundTripper
	mu    sync.Mutex
	hosts map[string]bool
}

func (h *hostRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.hosts[r.URL.Host] = true
	h.mu.Unlock()
	return h.rt.RoundTrip(r)
}

// Path-style and virtual-host requests both reach the bucket: the
// bucket is in the path, or in the host name.
func TestAddressing(t *testing.T) {
	bucket := newBucket(t)
	port := server.endpoint[strings.LastIndex(server.endpoint, ":")+1:]
	dialer := &net.Dialer{}
	for _, tc := range []struct {
		name     string
		a        Addressing
		endpoint string
		host     string
	}{
		{"path", AddressingPath, server.endpoint, strings.TrimPrefix(server.endpoint, "http://")},
		{"virtual host", AddressingVirtualHost, "http://" + testDomain + ":" + port, bucket + "." + testDomain + ":" + port},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &hostRecorder{hosts: map[string]bool{}, rt: &http.Transport{
				DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
					return dialer.DialContext(ctx, network, "127.0.0.1:"+port)
				},
			}}
			fsys, err := Open("s3://"+bucket+"/"+tc.name, testOptions(tc.endpoint, WithAddressing(tc.a), WithTransport(rec))...)
			if err != nil {
				t.Fatal(err)
			}
			w, err := fsys.Create("x")
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte("hello"))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := fs.ReadFile(fsys, "x")
			if err != nil || !bytes.Equal(got, []byte("hello")) {
				t.Fatalf("read back %q, %v", got, err)
			}
			if len(rec.hosts) != 1 || !rec.hosts[tc.host] {
				t.Errorf("requests went to %v, want only %s", rec.hosts, tc.host)
			}
		})
	}
}
