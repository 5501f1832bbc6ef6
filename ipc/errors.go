package ipc

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
)

// Sentinel errors; every error of this package wraps at most one of them,
// starts with "ipc: ", and callers branch with errors.Is.
var (
	// ErrInvalid is datatype.ErrInvalid: the bytes are not valid IPC data
	// (corrupt, truncated inside a message, inconsistent with the schema).
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: valid data this library
	// does not read (tensors, an unknown codec, big-endian data when
	// swapping was refused).
	ErrNotSupported = datatype.ErrNotSupported
	// ErrLimit is datatype.ErrLimit: the data exceeds a configured limit
	// (metadata size, nesting depth, allocation size).
	ErrLimit = datatype.ErrLimit
	// ErrNeedMore: the Decoder needs more bytes before it can go on. It is
	// none of the three kinds above: the input is not wrong, only short.
	ErrNeedMore = errors.New("ipc: need more bytes")
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("ipc: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("ipc: %w: "+format, append([]any{ErrNotSupported}, args...)...)
}

func limitf(format string, args ...any) error {
	return fmt.Errorf("ipc: %w: "+format, append([]any{ErrLimit}, args...)...)
}

// fmtWrap puts context (where in the data) before the message of err,
// after the package prefix, keeping err unwrappable: "ipc: record batch
// 3: buffer 1: invalid: …", not "record batch 3: buffer 1: ipc: …".
func fmtWrap(err error, format string, args ...any) error {
	where := fmt.Sprintf(format, args...)
	if rest, ok := strings.CutPrefix(err.Error(), "ipc: "); ok {
		return &contextError{msg: "ipc: " + where + ": " + rest, err: err}
	}
	return fmt.Errorf("ipc: %s: %w", where, err)
}

// contextError is an error of this package with the place it occurred
// added to its message.
type contextError struct {
	msg string
	err error
}

func (e *contextError) Error() string { return e.msg }
func (e *contextError) Unwrap() error { return e.err }
