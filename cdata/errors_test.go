package cdata

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

// TestSentinelsAreShared pins that this package's kinds are the library's
// (datatype's), and that ErrStream is none of them.
func TestSentinelsAreShared(t *testing.T) {
	if ErrInvalid != datatype.ErrInvalid {
		t.Errorf("cdata.ErrInvalid is %q, not datatype.ErrInvalid", ErrInvalid)
	}
	if ErrNotSupported != datatype.ErrNotSupported {
		t.Errorf("cdata.ErrNotSupported is %q, not datatype.ErrNotSupported", ErrNotSupported)
	}
	for _, kind := range []error{datatype.ErrInvalid, datatype.ErrNotSupported, datatype.ErrLimit} {
		if errors.Is(ErrStream, kind) {
			t.Errorf("cdata.ErrStream is %q", kind)
		}
	}
	if err := invalidf("slot %d", 3); err.Error() != "cdata: invalid: slot 3" || !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("invalidf gave %q", err)
	}
}
