//go:build unix

package memory

import (
	"golang.org/x/sys/unix"
)

// mapPath maps the file at path read-only and shared. It goes straight to
// the system calls: an os.File would also register the descriptor with the
// runtime poller and set a finalizer, which costs more than the mapping.
func mapPath(path string) ([]byte, bool, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, false, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, false, err
	}
	if err := checkSize(st.Size); err != nil {
		return nil, false, err
	}
	if st.Size == 0 {
		return nil, false, nil
	}
	b, err := unix.Mmap(fd, 0, int(st.Size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

func unmap(b []byte) error { return unix.Munmap(b) }

func adviseRandom(b []byte) {
	if len(b) > 0 {
		_ = unix.Madvise(b, unix.MADV_RANDOM)
	}
}
