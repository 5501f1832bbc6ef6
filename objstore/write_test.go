package objstore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"testing"

	"github.com/minio/minio-go/v7"
)

// incomplete counts the incomplete multipart uploads of bucket.
func incomplete(t *testing.T, bucket string) int {
	t.Helper()
	c, err := testClient(server.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	res, err := minio.Core{Client: c}.ListMultipartUploads(context.Background(), bucket, "", "", "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Uploads)
}

// Objects written through the FS read back the same, small ones in one
// PUT and large ones in parts; listing, stat, rename and remove work on
// the server, and missing objects are fs.ErrNotExist.
func TestS3ReadWrite(t *testing.T) {
	bucket := newBucket(t)
	px := newProxy(t, server.endpoint)
	fsys, err := Open("s3://"+bucket+"/p", testOptions(px.URL(), WithPartSize(MinPartSize))...)
	if err != nil {
		t.Fatal(err)
	}
	small, large := randomBytes(1000, 1), randomBytes(2*MinPartSize+12345, 2)
	for name, data := range map[string][]byte{"d/small": small, "d/large": large} {
		w, err := fsys.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	puts := 0
	for _, r := range px.settled() {
		if r.method == http.MethodPut {
			puts++
		}
	}
	if puts != 4 { // small: 1; large: 3 parts (and POSTs to start and complete)
		t.Errorf("%d PUT requests, want 4", puts)
	}
	for name, data := range map[string][]byte{"d/small": small, "d/large": large} {
		got, err := fs.ReadFile(fsys, name)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s read back: %d bytes, %v", name, len(got), err)
		}
	}
	ents, err := fs.ReadDir(fsys, "d")
	if err != nil || len(ents) != 2 || ents[0].Name() != "large" || ents[1].Name() != "small" {
		t.Fatalf("ReadDir: %v, %v", ents, err)
	}
	if err := fsys.Rename("d/small", "e/moved"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(fsys, "d/small"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("renamed file still there: %v", err)
	}
	if got, err := fs.ReadFile(fsys, "e/moved"); err != nil || !bytes.Equal(got, small) {
		t.Errorf("renamed file: %v", err)
	}
	if err := fsys.Remove("e/moved"); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Open("e/moved"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removed file: %v, want fs.ErrNotExist", err)
	}
	file, err := fsys.Open("d/large")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.(*File).ReadAt(make([]byte, 10), int64(len(large))); err != io.EOF {
		t.Errorf("ReadAt at the end: %v, want io.EOF", err)
	}
}

// A write that fails leaves no object and no incomplete upload: parts
// refused by the server, and an upload aborted by its writer.
func TestS3FailedWriteLeavesNothing(t *testing.T) {
	bucket := newBucket(t)
	px := newProxy(t, server.endpoint)
	fsys, err := Open("s3://"+bucket, testOptions(px.URL(), WithPartSize(MinPartSize))...)
	if err != nil {
		t.Fatal(err)
	}
	// The third part is refused.
	px.setFault(func(n int, r *http.Request) fault {
		if r.Method == http.MethodPut && r.URL.Query().Get("partNumber") == "3" {
			return failForbd
		}
		return passOn
	})
	w, err := fsys.Create("x")
	if err != nil {
		t.Fatal(err)
	}
	_, werr := w.Write(randomBytes(3*MinPartSize, 3))
	cerr := w.Close()
	if !errors.Is(werr, fs.ErrPermission) || cerr == nil {
		t.Fatalf("write: %v, close: %v; want fs.ErrPermission and an error", werr, cerr)
	}
	px.setFault(nil)
	if _, err := fs.Stat(fsys, "x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("failed write left an object: %v", err)
	}
	if n := incomplete(t, bucket); n != 0 {
		t.Errorf("failed write left %d incomplete uploads", n)
	}

	// Aborted by the writer after two parts.
	s, err := NewS3(bucket, testOptions(server.endpoint, WithPartSize(MinPartSize))...)
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.Create(context.Background(), "y")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := u.Write(randomBytes(2*MinPartSize+1, 4)); err != nil {
		t.Fatal(err)
	}
	if n := incomplete(t, bucket); n != 1 {
		t.Errorf("%d incomplete uploads while writing, want 1", n)
	}
	if err := u.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := u.Commit(); err == nil {
		t.Errorf("Commit after Abort succeeded")
	}
	if _, err := s.Stat(context.Background(), "y"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("aborted write left an object: %v", err)
	}
	if n := incomplete(t, bucket); n != 0 {
		t.Errorf("aborted write left %d incomplete uploads", n)
	}
}
