package ipc

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error of this package wraps at most one of them,
// so callers can branch with errors.Is.
var (
	// ErrInvalid: the bytes are not valid IPC data (corrupt, truncated
	// inside a message, inconsistent with the schema).
	ErrInvalid = errors.New("ipc: invalid data")
	// ErrNotSupported: valid data this library does not read (tensors,
	// an unknown codec, big-endian data when swapping was refused).
	ErrNotSupported = errors.New("ipc: not supported")
	// ErrLimit: the data exceeds a configured limit (metadata size,
	// nesting depth, allocation size).
	ErrLimit = errors.New("ipc: limit exceeded")
	// ErrNeedMore: the Decoder needs more bytes before it can go on.
	ErrNeedMore = errors.New("ipc: need more bytes")
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrNotSupported}, args...)...)
}

func limitf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrLimit}, args...)...)
}

// fmtWrap prefixes err with context, keeping it unwrappable.
func fmtWrap(err error, format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, err)...)
}
