//go:build !linux

package simd

import "time"

// threadCPU is unavailable here; the cpuGB/s metric is then not reported.
func threadCPU() time.Duration { return 0 }
