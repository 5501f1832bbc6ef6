package ipc

import (
	"flag"
	"os"
	"testing"

	"github.com/alkaid-go/alkaid/internal/rawmem"
)

// TestMain poisons the unzeroed memory that bodies are read and buffers
// decompressed into, so that a test fails when a byte is left unwritten.
// Benchmarks run without the poison, which would cost a pass over every
// output.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		rawmem.Poison(true)
	}
	os.Exit(m.Run())
}
