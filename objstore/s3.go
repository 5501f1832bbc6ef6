package objstore

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/minio/minio-go/v7/pkg/s3utils"
)

// S3 is a Store of one bucket of an S3-compatible service.
type S3 struct {
	own      *http.Transport // the transport NewS3 made, nil for WithTransport's
	bucket   string
	core     minio.Core
	retry    retrier
	partSize int64
}

// NewS3 returns the Store of bucket. It sends no request: a bucket that
// does not exist or refuses the credentials shows in the first
// operation's error.
func NewS3(bucket string, opts ...Option) (*S3, error) {
	c, err := newConfig(opts, storeOptions)
	if err != nil {
		return nil, err
	}
	return newS3(bucket, c)
}

func newS3(bucket string, c *config) (*S3, error) {
	if err := s3utils.CheckValidBucketName(bucket); err != nil {
		return nil, fmt.Errorf("objstore: %w: bucket name %q: %v", ErrInvalid, bucket, err)
	}
	endpoint := c.endpoint
	if endpoint == "" {
		endpoint = "https://s3." + c.region + ".amazonaws.com"
	}
	host, secure, err := parseEndpoint(endpoint)
	if err != nil {
		return nil, fmt.Errorf("objstore: %w: %v", ErrInvalid, err)
	}
	transport := c.transport
	var own *http.Transport
	if transport == nil {
		own = http.DefaultTransport.(*http.Transport).Clone()
		own.MaxIdleConns = 256
		own.MaxIdleConnsPerHost = 256
		transport = own
	}
	lookup := [...]minio.BucketLookupType{minio.BucketLookupAuto, minio.BucketLookupPath, minio.BucketLookupDNS}[c.addressing]
	client, err := minio.New(host, &minio.Options{
		Creds:        credentials.NewStaticV4(c.access, c.secret, c.token),
		Secure:       secure,
		Transport:    transport,
		Region:       c.region,
		BucketLookup: lookup,
		MaxRetries:   1, // retries are ours: see retrier
	})
	if err != nil {
		return nil, fmt.Errorf("objstore: %w: %v", ErrInvalid, err)
	}
	return &S3{own: own, bucket: bucket, core: minio.Core{Client: client},
		retry: retrier{retries: c.retries, backoff: c.backoff, timeout: c.timeout}, partSize: c.partSize}, nil
}

// Close closes the idle connections of the transport NewS3 made (not
// of one WithTransport gave). The S3 stays usable.
func (s *S3) Close() error {
	if s.own != nil {
		s.own.CloseIdleConnections()
	}
	return nil
}

// String names the bucket, "s3://bucket".
func (s *S3) String() string { return "s3://" + s.bucket }

func (s *S3) url(key string) string { return "s3://" + s.bucket + "/" + key }

// List lists the objects and prefixes directly under prefix, one request
// per 1000 entries. A failure restarts the listing; the request timeout
// bounds the whole listing.
func (s *S3) List(ctx context.Context, prefix string) ([]Entry, error) {
	var out []Entry
	err := s.retry.do(ctx, "LIST "+s.url(prefix), func(ctx context.Context) error {
		out = out[:0]
		for o := range s.core.ListObjectsIter(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, MaxKeys: 1000}) {
			switch {
			case o.Err != nil:
				return o.Err
			case o.Key == prefix: // a "directory marker" object
			case strings.HasSuffix(o.Key, "/"):
				out = append(out, Entry{Key: o.Key, Dir: true})
			default:
				out = append(out, Entry{Key: o.Key, Size: o.Size, ModTime: o.LastModified, ETag: o.ETag})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sortEntries(out)
	return out, nil
}

// Stat describes object key (a HEAD request).
func (s *S3) Stat(ctx context.Context, key string) (Entry, error) {
	var info minio.ObjectInfo
	err := s.retry.do(ctx, "HEAD "+s.url(key), func(ctx context.Context) error {
		var err error
		info, err = s.core.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
		return err
	})
	if err != nil {
		return Entry{}, err
	}
	return Entry{Key: key, Size: info.Size, ModTime: info.LastModified, ETag: info.ETag}, nil
}

// ReadRange reads len(p) bytes of object key at off (a ranged GET).
func (s *S3) ReadRange(ctx context.Context, key string, off int64, p []byte) error {
	if len(p) == 0 {
		return nil
	}
	what := fmt.Sprintf("GET %s bytes %d-%d", s.url(key), off, off+int64(len(p))-1)
	return s.retry.do(ctx, what, func(ctx context.Context) error {
		var opts minio.GetObjectOptions
		if err := opts.SetRange(off, off+int64(len(p))-1); err != nil {
			return err
		}
		body, _, _, err := s.core.GetObject(ctx, s.bucket, key, opts)
		if err != nil {
			return err
		}
		defer body.Close()
		if _, err := io.ReadFull(body, p); err != nil {
			return fmt.Errorf("reading the response: %w", err)
		}
		return nil
	})
}

// Copy copies src to dst on the server: one CopyObject request, or, for
// a source over 5 GiB (which S3 copies only in parts), a multipart copy.
func (s *S3) Copy(ctx context.Context, src, dst string) error {
	err := s.retry.do(ctx, "COPY "+s.url(src)+" to "+dst, func(ctx context.Context) error {
		_, err := s.core.CopyObject(ctx, s.bucket, src, s.bucket, dst, nil, minio.CopySrcOptions{}, minio.PutObjectOptions{})
		return err
	})
	var resp minio.ErrorResponse
	if !errors.As(err, &resp) || resp.Code != "EntityTooLarge" && resp.Code != "InvalidRequest" {
		return err
	}
	return s.retry.do(ctx, "COPY "+s.url(src)+" to "+dst+" in parts", func(ctx context.Context) error {
		_, err := s.core.ComposeObject(ctx, minio.CopyDestOptions{Bucket: s.bucket, Object: dst},
			minio.CopySrcOptions{Bucket: s.bucket, Object: src})
		return err
	})
}

// Delete deletes object key.
func (s *S3) Delete(ctx context.Context, key string) error {
	return s.retry.do(ctx, "DELETE "+s.url(key), func(ctx context.Context) error {
		return s.core.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{})
	})
}

// Create starts writing object key in parts of the part size; nothing is
// sent before the first part is full or the Upload is committed.
func (s *S3) Create(ctx context.Context, key string) (Upload, error) {
	return &s3Upload{s: s, ctx: ctx, key: key}, nil
}

// s3Upload is an object being written: one PUT when it fits one part,
// else a multipart upload.
type s3Upload struct {
	s     *S3
	ctx   context.Context
	key   string
	buf   []byte
	id    string // the multipart upload's, once started
	parts []minio.CompletePart
	done  bool
	err   error
}

func (u *s3Upload) Write(p []byte) (int, error) {
	if u.done {
		return 0, fmt.Errorf("objstore: write to %s: %w: the upload is done", u.s.url(u.key), ErrInvalid)
	}
	if u.err != nil {
		return 0, u.err
	}
	n := len(p)
	for len(p) > 0 {
		if u.buf == nil {
			u.buf = make([]byte, 0, u.s.partSize)
		}
		k := min(len(p), cap(u.buf)-len(u.buf))
		u.buf = append(u.buf, p[:k]...)
		p = p[k:]
		if len(u.buf) == cap(u.buf) {
			if err := u.flush(); err != nil {
				u.err = err
				u.Abort()
				return n - len(p), err
			}
		}
	}
	return n, nil
}

// flush uploads the buffer as the next part, starting the multipart
// upload at the first.
func (u *s3Upload) flush() error {
	if u.id == "" {
		err := u.s.retry.do(u.ctx, "CREATE UPLOAD "+u.s.url(u.key), func(ctx context.Context) error {
			var err error
			u.id, err = u.s.core.NewMultipartUpload(ctx, u.s.bucket, u.key, minio.PutObjectOptions{})
			return err
		})
		if err != nil {
			return err
		}
	}
	num := len(u.parts) + 1
	md5sum, sha := sums(u.buf)
	what := fmt.Sprintf("PUT %s part %d (%d bytes)", u.s.url(u.key), num, len(u.buf))
	err := u.s.retry.do(u.ctx, what, func(ctx context.Context) error {
		p, err := u.s.core.PutObjectPart(ctx, u.s.bucket, u.key, u.id, num, bytes.NewReader(u.buf), int64(len(u.buf)),
			minio.PutObjectPartOptions{Md5Base64: md5sum, Sha256Hex: sha, DisableContentSha256: true})
		if err == nil {
			u.parts = append(u.parts, minio.CompletePart{PartNumber: num, ETag: p.ETag})
		}
		return err
	})
	u.buf = u.buf[:0]
	return err
}

// Commit uploads what is buffered and makes the object appear; on
// failure the upload is aborted.
func (u *s3Upload) Commit() error {
	if u.done {
		return u.err
	}
	if u.err != nil {
		u.Abort()
		return u.err
	}
	var err error
	if u.id == "" {
		md5sum, sha := sums(u.buf)
		err = u.s.retry.do(u.ctx, "PUT "+u.s.url(u.key), func(ctx context.Context) error {
			_, err := u.s.core.PutObject(ctx, u.s.bucket, u.key, bytes.NewReader(u.buf), int64(len(u.buf)), md5sum, sha, minio.PutObjectOptions{})
			return err
		})
	} else {
		if len(u.buf) > 0 {
			err = u.flush()
		}
		if err == nil {
			err = u.s.retry.do(u.ctx, "COMPLETE UPLOAD "+u.s.url(u.key), func(ctx context.Context) error {
				_, err := u.s.core.CompleteMultipartUpload(ctx, u.s.bucket, u.key, u.id, u.parts, minio.PutObjectOptions{})
				return err
			})
		}
	}
	if err != nil {
		u.err = err
		u.Abort()
		return err
	}
	u.done, u.buf = true, nil
	return nil
}

// Abort discards the upload: the object does not appear and the parts
// stored are deleted.
func (u *s3Upload) Abort() error {
	if u.done {
		return nil
	}
	u.done, u.buf = true, nil
	if u.err == nil {
		u.err = fmt.Errorf("objstore: %s: %w: the upload was aborted", u.s.url(u.key), ErrInvalid)
	}
	if u.id == "" {
		return nil
	}
	// The abort is sent even when the write's context ended.
	ctx := context.WithoutCancel(u.ctx)
	return u.s.retry.do(ctx, "ABORT UPLOAD "+u.s.url(u.key), func(ctx context.Context) error {
		return u.s.core.AbortMultipartUpload(ctx, u.s.bucket, u.key, u.id)
	})
}

// sums are the base64 MD5 and hex SHA-256 of a body: sent with it, the
// request is signed with its payload (not the aws-chunked streaming
// signature, which some S3-compatible servers store undecoded) and
// checked by the server.
func sums(b []byte) (md5sum, sha string) {
	m := md5.Sum(b)
	h := sha256.Sum256(b)
	return base64.StdEncoding.EncodeToString(m[:]), hex.EncodeToString(h[:])
}
