package cdata

import (
	"errors"
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
)

// Sentinel errors; every error of this package wraps at most one of them
// (and, for arrays that fail validation, the array package's error too),
// so callers can branch with errors.Is.
var (
	// ErrInvalid is datatype.ErrInvalid: a C struct that breaks the
	// interface's rules (a wrong buffer or child count, a negative length,
	// a malformed format string, an already released struct) or data that
	// fails validation.
	ErrInvalid = datatype.ErrInvalid
	// ErrNotSupported is datatype.ErrNotSupported: valid C data this
	// library does not handle (an unknown format string), or Alkaid data
	// the interface cannot carry.
	ErrNotSupported = datatype.ErrNotSupported
	// ErrLimit is datatype.ErrLimit: a C struct that asks for more work
	// than the import's limits allow (see [WithMaxNodes]).
	ErrLimit = datatype.ErrLimit
	// ErrStream: a C stream's callback returned an error code. It is none
	// of the datatype kinds: the producer's own error is in its text.
	ErrStream = errors.New("cdata: stream error")
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("cdata: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

func limitf(format string, args ...any) error {
	return fmt.Errorf("cdata: %w: "+format, append([]any{ErrLimit}, args...)...)
}

// Flags of ArrowSchema.
const (
	flagDictionaryOrdered = 1
	flagNullable          = 2
	flagMapKeysSorted     = 4
)

// The metadata keys that mark an extension type, in Arrow's namespace
// (written on export: every C Data consumer knows them) and in Alkaid's
// (also read on import).
const (
	extensionNameKey       = "ARROW:extension:name"
	extensionMetadataKey   = "ARROW:extension:metadata"
	alkaidExtensionNameKey = "ALKAID:extension:name"
	alkaidExtensionMetaKey = "ALKAID:extension:metadata"
)

// maxDepth bounds the nesting of imported schemas and arrays, so that a
// cyclic or absurdly deep producer is an error rather than a stack
// overflow.
const maxDepth = 64

// maxChildren bounds the child count of one imported schema node.
const maxChildren = 1 << 20
