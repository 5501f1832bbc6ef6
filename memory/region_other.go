//go:build !unix

package memory

import (
	"io"
	"os"
)

// mapPath reads the file into aligned Go memory where mmap is unavailable.
func mapPath(path string) ([]byte, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if err := checkSize(st.Size()); err != nil {
		return nil, false, err
	}
	if st.Size() == 0 {
		return nil, false, nil
	}
	b := DefaultAllocator.Allocate(int(st.Size()))
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false, err
	}
	return b, false, nil
}

func unmap([]byte) error { return nil }

func adviseRandom([]byte) {}
