package arrowbridge_test

import (
	"testing"

	"github.com/alkaid-go/alkaid/arrowbridge"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestSentinelIsShared pins that the bridge's kind is the library's.
func TestSentinelIsShared(t *testing.T) {
	if arrowbridge.ErrNotSupported != datatype.ErrNotSupported {
		t.Errorf("arrowbridge.ErrNotSupported is %q, not datatype.ErrNotSupported", arrowbridge.ErrNotSupported)
	}
}
