//go:build !unix

package memory

import (
	"io"
	"os"
)

// mapFile reads the file into aligned Go memory where mmap is unavailable.
func mapFile(f *os.File, size int) ([]byte, bool, error) {
	b := DefaultAllocator.Allocate(size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false, err
	}
	return b, false, nil
}

func unmap([]byte) error { return nil }

func adviseRandom([]byte) {}
