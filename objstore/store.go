package objstore

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/alkaid-go/alkaid/datatype"
)

// The kinds of error of this package, re-exported from datatype (bad
// options, names and URLs are ErrInvalid), and the kind of an I/O
// failure.
var (
	ErrInvalid      = datatype.ErrInvalid
	ErrNotSupported = datatype.ErrNotSupported
	ErrLimit        = datatype.ErrLimit

	// ErrRequest: a request to the store failed after its retries (or
	// with an error not worth retrying). It is an I/O failure, as the
	// errors of package os are, not a kind of ErrInvalid: the message
	// names the operation, the object and, for a read, the byte range,
	// and the error also wraps the last failure (a net.Error,
	// context.DeadlineExceeded, the server's error). A missing object is
	// fs.ErrNotExist and a refused one fs.ErrPermission instead.
	ErrRequest = errors.New("objstore: request failed")
)

// Entry is an object, or a prefix ending in "/" (Dir), of a listing.
type Entry struct {
	Key     string // the full key; a prefix ends in "/"
	Size    int64
	ModTime time.Time
	ETag    string
	Dir     bool
}

// Store is the operations a dataset needs of a bucket. Keys are
// slash-separated; a prefix is "" or ends in "/". Errors of a missing
// object wrap fs.ErrNotExist.
type Store interface {
	// List lists the objects and the prefixes directly under prefix, in
	// lexical order of their keys.
	List(ctx context.Context, prefix string) ([]Entry, error)
	// Stat describes the object key.
	Stat(ctx context.Context, key string) (Entry, error)
	// ReadRange fills p with the bytes of object key from offset off;
	// fewer bytes than len(p) is an error. p's contents on entry are
	// undefined: an FS passes memory it did not clear.
	ReadRange(ctx context.Context, key string, off int64, p []byte) error
	// Create starts writing object key, which appears, whole, when the
	// Upload is committed, and not at all when it is aborted.
	Create(ctx context.Context, key string) (Upload, error)
	// Copy copies object src to dst (in the store, without reading it).
	Copy(ctx context.Context, src, dst string) error
	// Delete deletes object key; deleting a missing object is no error.
	Delete(ctx context.Context, key string) error
	// String names the store, e.g. "s3://bucket".
	String() string
}

// Upload is an object being written: Commit makes it appear whole, Abort
// discards it. After either, the Upload is done and Write fails.
type Upload interface {
	io.Writer
	Commit() error
	Abort() error
}
