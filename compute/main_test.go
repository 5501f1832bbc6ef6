package compute

import (
	"flag"
	"os"
	"testing"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// TestMain poisons the kernels' unzeroed output memory, so that a test
// fails when a kernel leaves a slot unwritten.
func TestMain(m *testing.M) {
	flag.Parse()
	rawmem.PoisonUnlessBenchmarking()
	os.Exit(m.Run())
}
