//go:build unix

package memory

import (
	"runtime"
	"sync"
	"weak"

	"golang.org/x/sys/unix"
)

// fileKey identifies a file and the version of its contents that a
// mapping would show.
type fileKey struct {
	dev, ino         uint64
	size             int64
	mtimeNs, ctimeNs int64
}

// The regions alive, by file, so that opening a mapped file again shares
// the mapping (see [MapFile]). Entries go when their region is collected.
var (
	mappedMu    sync.Mutex
	mappedFiles = map[fileKey]weak.Pointer[Region]{}
)

// mapPath maps the file at path read-only and shared. It goes straight to
// the system calls: an os.File would also register the descriptor with the
// runtime poller and set a finalizer, which costs more than the mapping.
func mapPath(path string) (*Region, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if err := checkSize(st.Size); err != nil {
		return nil, err
	}
	if st.Size == 0 {
		return &Region{}, nil
	}
	key := fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size,
		mtimeNs: st.Mtim.Nano(), ctimeNs: st.Ctim.Nano()}
	mappedMu.Lock()
	wp, ok := mappedFiles[key]
	mappedMu.Unlock()
	if ok {
		if r := wp.Value(); r != nil {
			return r, nil
		}
	}
	b, err := unix.Mmap(fd, 0, int(st.Size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	r := &Region{data: b, mapped: true}
	wp = weak.Make(r)
	liveMappings.Add(1)
	runtime.AddCleanup(r, func(b []byte) {
		_ = unix.Munmap(b)
		liveMappings.Add(-1)
		mappedMu.Lock()
		if cur, ok := mappedFiles[key]; ok && cur == wp {
			delete(mappedFiles, key)
		}
		mappedMu.Unlock()
	}, b)
	mappedMu.Lock()
	mappedFiles[key] = wp
	mappedMu.Unlock()
	return r, nil
}
