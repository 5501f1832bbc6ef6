package parquet

import (
	"flag"
	"os"
	"testing"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// TestMain poisons the uncleared memory chunks are read into and values
// decoded into, so that a test fails when a byte is read before it is
// written.
func TestMain(m *testing.M) {
	flag.Parse()
	rawmem.PoisonUnlessBenchmarking()
	os.Exit(m.Run())
}
