//go:build !linux

package bitutil

import "time"

// threadCPU is unavailable here; the cpuGB/s metric is then not reported.
func threadCPU() time.Duration { return 0 }
