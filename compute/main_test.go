package compute

import (
	"os"
	"testing"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// TestMain poisons the kernels' unzeroed output memory, so that a test
// fails when a kernel leaves a slot unwritten.
func TestMain(m *testing.M) {
	rawmem.Poison(true)
	os.Exit(m.Run())
}
