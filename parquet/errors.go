package parquet

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
)

// Sentinel errors; every error of this package wraps one of them (an
// authentication failure, [ErrAuthentication], wraps ErrInvalid) and its
// message starts with "parquet: ". Errors of the io.ReaderAt or io.Writer
// a caller passed, and of opening a path, are wrapped too, so that
// errors.Is finds them (a ReaderAt that ends before the size given is
// ErrInvalid as well).
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

// wrapf puts context before err, keeping one "parquet: " prefix; err
// keeps its kind, and one of none is wrapped as ErrInvalid too.
func wrapf(err error, format string, args ...any) error {
	return wrapKind(ErrInvalid, err, format, args...)
}

// wrapKind is wrapf for an err of no kind of this package's that is of
// kind (a sentinel).
func wrapKind(kind, err error, format string, args ...any) error {
	msg := "parquet: " + fmt.Sprintf(format, args...) + ": " + strings.TrimPrefix(err.Error(), "parquet: ")
	errs := []error{err}
	if !hasKind(err) {
		errs = append(errs, kind)
	}
	return &ctxError{msg: msg, errs: errs}
}

// hasKind reports whether err wraps one of the sentinels.
func hasKind(err error) bool {
	return errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotSupported) || errors.Is(err, ErrLimit)
}

// ioErr is an error reading the file: an end before the size given
// makes the file's size or offsets invalid; other errors of the reader
// are its own.
func ioErr(err error, format string, args ...any) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return wrapKind(ErrInvalid, err, format, args...)
	}
	return &ctxError{msg: "parquet: " + fmt.Sprintf(format, args...) + ": " + err.Error(), errs: []error{err}}
}

// ctxError is an error with context before the errors it wraps.
type ctxError struct {
	msg  string
	errs []error
}

func (e *ctxError) Error() string   { return e.msg }
func (e *ctxError) Unwrap() []error { return e.errs }
