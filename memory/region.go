package memory

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

// Region is a read-only view of a whole file, memory-mapped where the
// platform allows it (read into Go memory elsewhere). A region is unmapped
// by the garbage collector once nothing references it any more: neither
// the *Region nor any [Buffer] made from it with [Region.Buffer]. There is
// deliberately no Close: arrays built over a mapping must never dangle.
type Region struct {
	data   []byte
	mapped bool
}

// MapFile maps the file at path read-only. An empty file gives an empty
// region.
// The file must not be truncated or rewritten in place while the region
// is alive: a shared mapping shows such changes, and reading a page past a
// shortened end raises SIGBUS, which the Go runtime turns into a crash
// that no validation can prevent. Read files that others may change with
// os.ReadFile (or ipc.NewFileReader over an *os.File) instead.
// Where files are mapped, opening a file that a still-alive region maps
// (same device and inode, size, modification and change times) returns that
// region: a shared mapping of the same file shows the same bytes, so a new
// one would only add the cost of mapping and later unmapping it.
func MapFile(path string) (*Region, error) {
	collectIfManyMappings()
	r, err := mapPath(path)
	if err != nil {
		return nil, fmt.Errorf("memory: map %s: %w", path, err)
	}
	return r, nil
}

// Mappings are unmapped by the garbage collector, which runs by heap
// growth, not by how many mappings wait for it: a process with a large
// heap opening many files could reach the kernel's limit on mappings
// (vm.max_map_count, 65530 by default) before a collection. So once
// gcMappings regions are alive, MapFile collects first, and the threshold
// then doubles with the number still alive.
var (
	liveMappings atomic.Int64
	gcMappings   atomic.Int64
)

// minGCMappings is the first threshold (a variable for tests).
var minGCMappings int64 = 4096

func collectIfManyMappings() {
	n := liveMappings.Load()
	at := gcMappings.Load()
	if at == 0 {
		at = minGCMappings
	}
	if n < at {
		return
	}
	runtime.GC()
	gcMappings.Store(max(minGCMappings, 2*n))
}

// checkSize refuses files larger than the address space.
func checkSize(size int64) error {
	if size != int64(int(size)) {
		return fmt.Errorf("file of %d bytes is too large", size)
	}
	return nil
}

// Bytes returns the mapped bytes. They stay valid while r is reachable; do
// not write to them (the mapping is read-only and writes fault).
func (r *Region) Bytes() []byte { return r.data }

// Len is the size of the region in bytes.
func (r *Region) Len() int { return len(r.data) }

// Mapped reports whether the region is a memory mapping (false where the
// platform has none and the file was read into memory).
func (r *Region) Mapped() bool { return r.mapped }

// Buffer returns bytes [off, off+n) of the region as a buffer that keeps
// the region mapped. It panics if the range is out of bounds.
func (r *Region) Buffer(off, n int) *Buffer {
	if off < 0 || n < 0 || off > len(r.data) || n > len(r.data)-off {
		panic(fmt.Sprintf("memory: region range [%d:%d] beyond %d bytes", off, off+n, len(r.data)))
	}
	return &Buffer{data: r.data[off : off+n : off+n], owner: r}
}
