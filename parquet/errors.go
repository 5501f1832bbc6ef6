package parquet

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error of this package wraps at most one of them.
var (
	// ErrInvalid: the bytes are not a valid Parquet file.
	ErrInvalid = errors.New("parquet: invalid data")
	// ErrNotSupported: valid Parquet this package does not read or write
	// (encryption, LZO, a type without an Alkaid or Parquet equivalent).
	ErrNotSupported = errors.New("parquet: not supported")
	// ErrLimit: a page or count exceeds a configured limit.
	ErrLimit = errors.New("parquet: limit exceeded")
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
