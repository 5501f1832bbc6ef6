package bitutil

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time consumed so far by the calling OS thread
// (the benchmarks lock their goroutine to it). On a machine shared with
// other work, throughput over CPU time is much steadier than over wall
// time, which also counts the time the thread waited for a core.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
