package main

import (
	"context"
	"fmt"
	"io/fs"
	"iter"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/objstore"
)

// front passes requests to an S3 server, noting the objects whose bytes
// other than the first and the last it was asked for (the column data
// of a Parquet file, not its magic or footer).
type front struct {
	h     http.Handler
	mu    sync.Mutex
	sizes map[string]int64
	data  map[string]bool
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s, ok := strings.CutPrefix(r.Header.Get("Range"), "bytes="); ok && r.Method == http.MethodGet {
		lo, hi, _ := strings.Cut(s, "-")
		a, _ := strconv.ParseInt(lo, 10, 64)
		b, _ := strconv.ParseInt(hi, 10, 64)
		f.mu.Lock()
		key := strings.TrimPrefix(r.URL.Path, "/")
		if size, ok := f.sizes[key]; ok && a > 0 && b+1 < size {
			f.data[key] = true
		}
		f.mu.Unlock()
	}
	f.h.ServeHTTP(w, r)
}

// ids is a RecordSource of rows ids 0..n-1 (and random values) in
// partitions k=0..parts-1.
type ids struct{ n, parts int }

func (s ids) Schema() *alkaid.Schema {
	return alkaid.NewSchema([]datatype.Field{{Name: "id", Type: datatype.Int64}, {Name: "v", Type: datatype.Int64}, {Name: "k", Type: datatype.Int64}}, datatype.Metadata{})
}

func (s ids) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		rng := rand.New(rand.NewPCG(1, 2))
		per := s.n / s.parts
		for p := range s.parts {
			id, v, k := array.NewPrimitiveBuilder[int64](datatype.Int64), array.NewPrimitiveBuilder[int64](datatype.Int64), array.NewPrimitiveBuilder[int64](datatype.Int64)
			for i := range per {
				id.Append(int64(p*per + i))
				v.Append(rng.Int64())
				k.Append(int64(p))
			}
			rec, err := alkaid.NewRecord(s.Schema(), []array.Array{id.Finish(), v.Finish(), k.Finish()}, per)
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// Two `serve s3://…` servers on one bucket: a client spreading the
// dataset flight's endpoints over both reads every row once, and each
// server reads the column data of its own files only.
func TestServeS3TwoServers(t *testing.T) {
	backend := s3mem.New()
	require.NoError(t, backend.CreateBucket("bkt"))
	h := gofakes3.New(backend).Server()
	var fronts []*front
	var endpoints []string
	for range 2 {
		f := &front{h: h, sizes: map[string]int64{}, data: map[string]bool{}}
		srv := httptest.NewServer(f)
		t.Cleanup(srv.Close)
		fronts, endpoints = append(fronts, f), append(endpoints, srv.URL)
	}
	creds := objstore.WithCredentials("key", "secret", "")
	fsys, err := objstore.Open("s3://bkt/w", objstore.WithEndpoint(endpoints[0]), creds, objstore.WithRegion("us-east-1"))
	require.NoError(t, err)
	const rows, parts = 160000, 4
	files, err := dataset.Write(context.Background(), fsys, "ds", ids{rows, parts}, dataset.WithPartitionBy("k"))
	require.NoError(t, err)
	require.Len(t, files, parts)
	for _, name := range files {
		st, err := fs.Stat(fsys, name)
		require.NoError(t, err)
		for _, f := range fronts {
			f.sizes["bkt/w/"+name] = st.Size()
		}
	}

	var urls []string
	var ctx context.Context
	for _, e := range endpoints {
		t.Setenv("AWS_ENDPOINT_URL", e)
		t.Setenv("AWS_ACCESS_KEY_ID", "key")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
		t.Setenv("AWS_REGION", "us-east-1")
		var url string
		ctx, url = serveDir(t, "s3://bkt/w")
		urls = append(urls, url)
	}
	c, err := flight.Dial(urls[0])
	require.NoError(t, err)
	defer c.Close()
	fi, err := c.GetFlightInfo(ctx, flight.PathDescriptor("ds"))
	require.NoError(t, err)
	require.Len(t, fi.Endpoint, parts)
	for i, ep := range fi.Endpoint {
		ep.Location = []*flight.Location{{Uri: urls[i%2]}}
	}
	var n, sum int64
	for rec, err := range flight.Fetch(ctx, nil, fi, flight.FetchOptions{}) {
		require.NoError(t, err)
		for _, v := range rec.Column(rec.Schema().FieldIndex("id")).(*array.Primitive[int64]).Values() {
			n, sum = n+1, sum+v
		}
	}
	require.Equal(t, int64(rows), n)
	require.Equal(t, int64(rows)*(rows-1)/2, sum)
	seen := map[string]int{}
	for i, f := range fronts {
		require.Len(t, f.data, parts/2, "server %d read the data of %v", i, f.data)
		for k := range f.data {
			seen[k]++
		}
	}
	require.Len(t, seen, parts, fmt.Sprint(seen))
}
