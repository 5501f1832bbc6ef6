package objstore

import (
	"context"
	"io/fs"
	"net"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/flight"
)

// Two Flight servers serve one bucket's dataset; flight.Fetch, given the
// endpoints spread over both, reads every file once, half from each,
// and the rows are the dataset's.
func TestTwoFlightServersOneBucket(t *testing.T) {
	bucket := newBucket(t)
	setup, err := Open("s3://"+bucket+"/w", testOptions(server.endpoint)...)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, setup, "sales")
	var uris []string
	var proxies []*proxy
	for range 2 {
		px := newProxy(t, server.endpoint)
		fsys, err := Open("s3://"+bucket+"/w", testOptions(px.URL())...)
		if err != nil {
			t.Fatal(err)
		}
		svc, err := flight.NewFSService(fsys)
		if err != nil {
			t.Fatal(err)
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := flight.NewServer(svc)
		done := make(chan struct{})
		go func() { defer close(done); srv.Serve(l) }()
		t.Cleanup(func() { srv.Stop(); <-done })
		uris = append(uris, "grpc://"+l.Addr().String())
		proxies = append(proxies, px)
	}
	c, err := flight.Dial(uris[0][len("grpc://"):])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	fi, err := c.GetFlightInfo(ctx, flight.PathDescriptor("sales"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fi.Endpoint) != len(years)*len(regions) {
		t.Fatalf("%d endpoints, want one per file", len(fi.Endpoint))
	}
	for i, ep := range fi.Endpoint {
		ep.Location = []*flight.Location{{Uri: uris[i%2]}}
	}
	proxies[0].take()
	proxies[1].take()
	var rows, idSum int64
	for rec, err := range flight.Fetch(ctx, nil, fi, flight.FetchOptions{Concurrency: 4}) {
		if err != nil {
			t.Fatal(err)
		}
		rows += int64(rec.NumRows())
		id := rec.Column(rec.Schema().FieldIndex("id")).(*array.Primitive[int64])
		for _, v := range id.Values() {
			idSum += v
		}
	}
	n := int64(len(years)*len(regions)) * rowsPerFile
	if rows != n || idSum != n*(n-1)/2 {
		t.Fatalf("fetched %d rows (id sum %d), want %d (%d)", rows, idSum, n, n*(n-1)/2)
	}
	// Each server read the column chunks of its own files (discovery, on
	// each, reads the footers of all).
	sizes := map[string]int64{}
	for _, name := range mustWalk(t, setup, "sales") {
		info, err := fs.Stat(setup, name)
		if err != nil {
			t.Fatal(err)
		}
		sizes[bucket+"/w/"+name] = info.Size()
	}
	read := map[string]int{}
	for i, px := range proxies {
		files := map[string]bool{}
		for _, r := range px.take() {
			size, ok := sizes[r.key]
			if r.method == "GET" && ok && r.rng != (span{0, headSize}) && r.rng != (span{size - tailSize, size}) {
				files[r.key] = true
				read[r.key]++
			}
		}
		if len(files) != len(fi.Endpoint)/2 {
			t.Errorf("server %d read the data of %d files, want %d: %v", i, len(files), len(fi.Endpoint)/2, files)
		}
	}
	if len(read) != len(fi.Endpoint) {
		t.Errorf("the data of %d files read, want all %d: %v", len(read), len(fi.Endpoint), read)
	}
}

// mustWalk lists the files under dir.
func mustWalk(t *testing.T, fsys fs.FS, dir string) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
