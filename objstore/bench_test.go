package objstore

import (
	"context"

	"github.com/minio/minio-go/v7"
	"io/fs"
	"sync"
	"testing"
	"testing/fstest"
)

// benchData writes the test dataset to a bucket once per benchmark and
// returns its FS location and the column chunks a projected scan
// decodes, with each file's size.
func benchData(b *testing.B) (url string, chunks map[string][]span, sizes map[string]int64) {
	b.Helper()
	if server.endpoint == "" {
		b.Skipf("no S3 server: %s", server.skip)
	}
	c, err := testClient(server.endpoint)
	if err != nil {
		b.Fatal(err)
	}
	bucket := "bench"
	if ok, _ := c.BucketExists(context.Background(), bucket); !ok {
		if err := c.MakeBucket(context.Background(), bucket, minio.MakeBucketOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	url = "s3://" + bucket + "/w"
	fsys, err := Open(url, testOptions(server.endpoint)...)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := fs.Stat(fsys, "sales"); err != nil {
		if _, err := writeDatasetErr(fsys, "sales"); err != nil {
			b.Fatal(err)
		}
	}
	mem := &recordingFS{MapFS: fstest.MapFS{}, chunks: map[string][]span{}}
	sizes = map[string]int64{}
	err = fs.WalkDir(fsys, "sales", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		mem.MapFS[p] = &fstest.MapFile{Data: data}
		sizes[p] = int64(len(data))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := projectedScan(context.Background(), mem, "sales"); err != nil {
		b.Fatal(err)
	}
	return url, mem.chunks, sizes
}

// BenchmarkProjectedScan scans columns id and a of one partition of six
// through a new FS each time: listings, footers, coalesced chunks.
func BenchmarkProjectedScan(b *testing.B) {
	url, chunks, _ := benchData(b)
	var bytes int64
	for _, c := range chunks {
		for _, s := range c {
			bytes += s.end - s.off
		}
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		fsys, err := Open(url, testOptions(server.endpoint)...)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := projectedScan(context.Background(), fsys, "sales"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlainGets fetches the bytes the projected scan needs (each
// file's footer block and every column chunk it decodes) with one GET
// each, 16 at once, decoding nothing: the floor of the scan's I/O.
func BenchmarkPlainGets(b *testing.B) {
	url, chunks, sizes := benchData(b)
	bucket, prefix, _ := ParseURL(url)
	s, err := NewS3(bucket, testOptions(server.endpoint)...)
	if err != nil {
		b.Fatal(err)
	}
	type get struct {
		key string
		s   span
	}
	var gets []get
	var bytes int64
	for name, c := range chunks {
		key := prefix + "/" + name
		gets = append(gets, get{key, span{sizes[name] - tailSize, sizes[name]}})
		for _, sp := range c {
			gets = append(gets, get{key, sp})
			bytes += sp.end - sp.off
		}
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		sem := make(chan struct{}, 16)
		var wg sync.WaitGroup
		for _, g := range gets {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				if err := s.ReadRange(context.Background(), g.key, g.s.off, make([]byte, g.s.end-g.s.off)); err != nil {
					b.Error(err)
				}
			}()
		}
		wg.Wait()
	}
}

// BenchmarkWholeFiles reads every byte of the files a naive reader
// would (those of the partition scanned), then scans them in memory.
func BenchmarkWholeFiles(b *testing.B) {
	url, chunks, _ := benchData(b)
	var bytes int64
	for _, c := range chunks {
		for _, s := range c {
			bytes += s.end - s.off
		}
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		fsys, err := Open(url, testOptions(server.endpoint)...)
		if err != nil {
			b.Fatal(err)
		}
		mem := fstest.MapFS{}
		for name := range chunks {
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				b.Fatal(err)
			}
			mem[name] = &fstest.MapFile{Data: data}
		}
		if _, err := projectedScan(context.Background(), mem, "sales"); err != nil {
			b.Fatal(err)
		}
	}
}
