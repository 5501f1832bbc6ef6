package grammar

import "github.com/alkaid-go/alkaid/datatype"

// The ways a text is not a value; each is a [datatype.ErrInvalid].
var (
	// ErrSyntax: the text is not in the grammar of the type.
	ErrSyntax = datatype.Refine(datatype.ErrInvalid, "not in the text grammar")
	// ErrRange: the value is written correctly but its type cannot hold
	// it (too many digits, past the largest float, a nonzero float that
	// would round to zero, a date outside the type).
	ErrRange = datatype.Refine(datatype.ErrInvalid, "out of range")
	// ErrTruncation: the value has digits finer than its type holds (a
	// fraction for an integer, digits past a decimal's scale or a time
	// unit, a time of day for a date).
	ErrTruncation = datatype.Refine(datatype.ErrInvalid, "finer than the type holds")
)
