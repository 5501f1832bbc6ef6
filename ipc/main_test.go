package ipc

import (
	"flag"
	"os"
	"testing"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// TestMain poisons the unzeroed memory that bodies are read and buffers
// decompressed into, so that a test fails when a byte is left unwritten.
func TestMain(m *testing.M) {
	flag.Parse()
	rawmem.PoisonUnlessBenchmarking()
	os.Exit(m.Run())
}
