package objstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/minio/minio-go/v7"
)

// retrier runs requests with a timeout each and retries the transient
// failures with exponential backoff.
type retrier struct {
	retries int
	backoff time.Duration
	timeout time.Duration
}

// do runs fn, giving each attempt a context that ends after the request
// timeout, until it succeeds, fails for good or the retries are spent.
// what names the request in the error ("GET s3://b/k bytes 0-99").
func (r retrier) do(ctx context.Context, what string, fn func(ctx context.Context) error) error {
	var err error
	for attempt := 0; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, r.timeout)
		err = fn(actx)
		stalled := actx.Err() == context.DeadlineExceeded
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("objstore: %s: %w", what, ctx.Err())
		}
		if stalled {
			err = fmt.Errorf("no response within the request timeout %v: %w", r.timeout, context.DeadlineExceeded)
		}
		if final := classify(err); final != nil {
			return fmt.Errorf("objstore: %s: %w", what, final)
		}
		if attempt >= r.retries {
			break
		}
		wait := r.backoff << min(attempt, 6)
		wait = wait/2 + rand.N(wait/2+1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("objstore: %s: %w", what, ctx.Err())
		case <-t.C:
		}
	}
	return fmt.Errorf("objstore: %s: %w after %d attempts: %w", what, ErrRequest, r.retries+1, err)
}

// classify returns nil for a failure worth retrying, else the error to
// return: a missing object as fs.ErrNotExist, a refused one as
// fs.ErrPermission, other errors of the server as ErrRequest.
func classify(err error) error {
	var resp minio.ErrorResponse
	if !errors.As(err, &resp) {
		// Transport failures: resets, refused or dropped connections,
		// truncated bodies, timeouts.
		return nil
	}
	switch {
	case resp.StatusCode >= 500, resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode == http.StatusRequestTimeout,
		resp.Code == "SlowDown", resp.Code == "RequestTimeout", resp.Code == "InternalError", resp.Code == "ServiceUnavailable":
		return nil
	case resp.StatusCode == http.StatusNotFound || resp.Code == "NoSuchKey" || resp.Code == "NoSuchBucket":
		return fmt.Errorf("%w: %s", fs.ErrNotExist, resp.Message)
	case resp.StatusCode == http.StatusForbidden || resp.Code == "AccessDenied":
		return fmt.Errorf("%w: %s", fs.ErrPermission, resp.Message)
	}
	return fmt.Errorf("%w: %d %s: %s", ErrRequest, resp.StatusCode, resp.Code, resp.Message)
}
