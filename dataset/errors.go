package dataset

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
)

// The kinds of error of this package, re-exported from datatype, and the
// refinements a caller may branch on. Each refinement is also one of the
// base kinds: errors.Is(err, ErrInvalid) holds for a schema conflict.
var (
	ErrInvalid      = datatype.ErrInvalid
	ErrNotSupported = datatype.ErrNotSupported
	ErrLimit        = datatype.ErrLimit

	// ErrSymlinkLoop: a directory reached through a symbolic link is one
	// of its own ancestors, or links are nested deeper than maxLinkDepth.
	ErrSymlinkLoop = datatype.Refine(datatype.ErrInvalid, "dataset: symbolic link loop")
	// ErrPartitionValue: a directory name does not hold a value of its
	// partition key's type, or is not a well-formed key=value segment.
	ErrPartitionValue = datatype.Refine(datatype.ErrInvalid, "dataset: bad partition value")
	// ErrSchemaConflict: two files give one column types that do not widen
	// to a common type (see the package documentation for the rules).
	ErrSchemaConflict = datatype.Refine(datatype.ErrInvalid, "dataset: schema conflict")
	// ErrExists: a write found data where WithExisting(ExistingError) asks
	// for none.
	ErrExists = datatype.Refine(datatype.ErrInvalid, "dataset: existing data")
)

// FileError is an error reading or writing one file of a dataset: Path
// names it (relative to the dataset's file system) and Err says what went
// wrong. errors.Is and errors.As see through it to Err.
type FileError struct {
	Path string
	Err  error
}

// Error names the file and what went wrong.
func (e *FileError) Error() string { return fmt.Sprintf("dataset: %s: %v", e.Path, e.Err) }

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// fileErr wraps err as a FileError for path, leaving nil and errors that
// already name a file alone.
func fileErr(path string, err error) error {
	if err == nil {
		return nil
	}
	if fe, ok := err.(*FileError); ok {
		return fe
	}
	return &FileError{Path: path, Err: err}
}
