package objstore

import (
	"fmt"
	"net/url"
	"strings"
)

// IsURL reports whether s names a location of an object store
// ("s3://bucket/prefix") rather than a local path.
func IsURL(s string) bool { return strings.HasPrefix(s, "s3://") }

// ParseURL splits "s3://bucket/prefix" into the bucket and the prefix
// (without slashes at its ends; "" for the whole bucket).
func ParseURL(s string) (bucket, prefix string, err error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "s3" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("objstore: %w: %q is not of the form s3://bucket/prefix", ErrInvalid, s)
	}
	return u.Host, strings.Trim(u.Path, "/"), nil
}

// Open returns the FS of an "s3://bucket/prefix" URL, taking the options
// of both NewS3 and NewFS.
func Open(rawURL string, opts ...Option) (*FS, error) {
	bucket, prefix, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	c, err := newConfig(opts, storeOptions, fsOptions)
	if err != nil {
		return nil, err
	}
	s, err := newS3(bucket, c)
	if err != nil {
		return nil, err
	}
	return newFS(s, prefix, c)
}
