package array

import "fmt"

// ValidationLevel is how much of an array's data is checked: by
// [Validate] and [MakeWith] here, and by every reader of untrusted input
// (ipc, cdata) through its WithValidation option. The levels are ordered;
// each makes the checks of the one before it.
type ValidationLevel uint8

const (
	// ValidateNone checks nothing. [Validate] returns nil at once; a
	// reader or [MakeWith], which need a structurally valid Data to make
	// an array at all, still make the checks of ValidateStructure.
	ValidateNone ValidationLevel = iota
	// ValidateStructure makes the cheap structural checks, O(1) per array:
	// a well-formed type, length, offset and null count in range, buffer
	// and child counts, buffers large enough for offset+length slots. It
	// does not read offsets, indices or other values, so an accessor of an
	// array checked only this far can panic on corrupt values: use it only
	// for input this process produced itself (trusted input).
	ValidateStructure
	// ValidateSafe adds, in O(n), recursively over children and
	// dictionaries, the values that accessors trust, so that no accessor
	// of the array can panic or read out of bounds. It is the readers'
	// default.
	//
	//   - binary and list offsets: the first ≥ 0, never decreasing, the
	//     last within the data buffer or child;
	//   - list views: every offset and size ≥ 0, offset+size within the
	//     child;
	//   - binary views: every length ≥ 0; long views name an existing
	//     data buffer and lie inside it;
	//   - unions: every type code declared by the type; dense offsets
	//     inside the child the code names;
	//   - dictionaries: the index of every non-null slot inside the
	//     dictionary;
	//   - run-end encoding: run ends ≥ 1, strictly increasing, the last ≥
	//     offset+length.
	//
	// Every slot is checked, null or not, where an accessor reads it
	// without looking at validity (offsets, views, type codes); dictionary
	// indices are checked for non-null slots only.
	ValidateSafe
	// ValidateFull adds what the spec requires of values that accessors do
	// not depend on, and the value rules of extension types (see
	// [ValueValidator]):
	//
	//   - null counts: equal to the validity bitmap's zeros; equal to the
	//     length for null arrays; zero for run-end encoded arrays (which
	//     have no bitmap); a union's count is not checked (it has no
	//     bitmap and the count carries no meaning: see [Union]);
	//   - UTF-8: every non-null value of utf8, large_utf8 and utf8_view;
	//   - binary views: the prefix of a long view equals the value's first
	//     four bytes;
	//   - maps: no key of a non-null map slot is null;
	//   - decimals: every non-null value has at most precision digits;
	//   - date64: every non-null value is a whole number of days;
	//   - time32, time64: every non-null value is in [0, one day).
	//
	// [ValidationOptions].Skip can leave out the last three (see
	// [ValueChecks]). Not checked: that the unused bytes of inline views
	// are zero, that dense union offsets increase per child, or that
	// dictionary values are distinct (the spec allows duplicates).
	ValidateFull
)

// String returns the level's name: "none", "structure", "safe" or "full".
func (l ValidationLevel) String() string {
	switch l {
	case ValidateNone:
		return "none"
	case ValidateStructure:
		return "structure"
	case ValidateSafe:
		return "safe"
	case ValidateFull:
		return "full"
	}
	return fmt.Sprintf("ValidationLevel(%d)", uint8(l))
}

// Validate checks d, its children and dictionary, recursively, at the
// given level; it never panics, whatever d holds. The error is a
// *[ValidationError] naming the path and, where one slot is at fault, the
// slot; it wraps [ErrInvalid]. A level above ValidateFull is an error.
func Validate(d *Data, level ValidationLevel) error {
	return ValidateWith(d, ValidationOptions{Level: level})
}
