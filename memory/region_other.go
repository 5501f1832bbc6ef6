//go:build !unix

package memory

import (
	"io"
	"os"
)

// mapPath reads the file into aligned Go memory where mmap is unavailable.
func mapPath(path string) (*Region, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkSize(st.Size()); err != nil {
		return nil, err
	}
	b := DefaultAllocator.Allocate(int(st.Size()))
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return &Region{data: b}, nil
}
