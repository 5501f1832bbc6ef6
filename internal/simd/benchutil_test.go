package simd

import (
	"runtime"
	"testing"
	"time"
)

// cpuMeter adds a cpuGB/s metric to a benchmark: bytes per iteration over
// the CPU time of the (locked) thread running the loop.
type cpuMeter struct {
	b     *testing.B
	bytes int
	start time.Duration
}

// startMeter sets bytes per iteration (for the wall-clock MB/s), locks the
// goroutine to its thread and starts the CPU clock. Call stop after the
// b.N loop.
func startMeter(b *testing.B, bytes int) cpuMeter {
	runtime.LockOSThread()
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	return cpuMeter{b, bytes, threadCPU()}
}

func (m cpuMeter) stop() {
	cpu := threadCPU() - m.start
	m.b.StopTimer()
	runtime.UnlockOSThread()
	if cpu > 0 {
		m.b.ReportMetric(float64(m.bytes)*float64(m.b.N)/cpu.Seconds()/1e9, "cpuGB/s")
	}
}
