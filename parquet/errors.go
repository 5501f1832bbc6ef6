package parquet

import (
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
)

// Sentinel errors; every error of this package wraps at most one of them
// and starts with "parquet: ".
var (
	// ErrInvalid is datatype.ErrInvalid: the bytes are not a valid
	// Parquet file.
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: valid Parquet this
	// package does not read or write (encryption, LZO, a type without an
	// Alkaid or Parquet equivalent).
	ErrNotSupported = datatype.ErrNotSupported
	// ErrLimit is datatype.ErrLimit: a page or count exceeds a configured
	// limit.
	ErrLimit = datatype.ErrLimit
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("parquet: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("parquet: %w: "+format, append([]any{ErrNotSupported}, args...)...)
}

func limitf(format string, args ...any) error {
	return fmt.Errorf("parquet: %w: "+format, append([]any{ErrLimit}, args...)...)
}

// pathError is an error of this package about the file at path: its
// message names the path after the package prefix.
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string {
	return "parquet: " + e.path + ": " + strings.TrimPrefix(e.err.Error(), "parquet: ")
}

func (e *pathError) Unwrap() error { return e.err }
