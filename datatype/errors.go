package datatype

import (
	"errors"
	"fmt"
)

// The kinds of error a caller branches on, declared once for the whole
// library. Every package wraps one of them with its own context
// ("ipc: …", "csv: line 3: …") and re-exports them under its own names
// (ipc.ErrInvalid is ErrInvalid), so errors.Is(err, datatype.ErrInvalid)
// holds for an invalid-input error from any package. The texts are
// generic on purpose: the wrapping message says what was wrong and where.
var (
	// ErrInvalid: the input (bytes, a file, values, type parameters, a
	// C producer's structures) is malformed or inconsistent.
	ErrInvalid = errors.New("invalid")
	// ErrNotSupported: the input is valid, but this library does not
	// handle it (a type, a codec, an option combination).
	ErrNotSupported = errors.New("not supported")
	// ErrLimit: the input exceeds a configured or structural limit
	// (metadata size, nesting depth, an allocation, an index type).
	ErrLimit = errors.New("limit exceeded")
)

// Refine returns a new sentinel error with the given text that is also
// one of the base kinds: errors.Is(Refine(ErrInvalid, "overflow"),
// ErrInvalid) holds. Packages use it for the finer kinds a caller may
// branch on (an arithmetic overflow, a value out of range), so that a
// caller who only knows the base kinds still classifies them. base is
// typically [ErrInvalid], [ErrNotSupported] or [ErrLimit].
func Refine(base error, text string) error {
	return &refined{text: text, base: base}
}

type refined struct {
	text string
	base error
}

func (e *refined) Error() string { return e.text }
func (e *refined) Unwrap() error { return e.base }

func invalidf(format string, args ...any) error {
	return fmt.Errorf("datatype: %w: "+format, append([]any{ErrInvalid}, args...)...)
}
