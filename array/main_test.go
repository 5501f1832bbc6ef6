package array

import (
	"flag"
	"os"
	"testing"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// TestMain poisons the uncleared memory the builders grow into, so that
// a test fails when a slot is left unwritten.
func TestMain(m *testing.M) {
	flag.Parse()
	rawmem.PoisonUnlessBenchmarking()
	os.Exit(m.Run())
}
