package bench

import (
	"runtime"
	"testing"
)

// runFlight benchmarks a Flight pair as run does, and reports the heap
// allocations per batch moved (client and server together: both run in
// this process).
func runFlight(b *testing.B, name string, batches int) {
	p := full.Pair(name)
	p.Setup()
	for _, f := range []func() (any, error){p.Alkaid, p.ArrowGo} {
		if _, err := f(); err != nil { // warm up: connections, buffers, heap
			b.Fatal(err)
		}
	}
	for _, side := range []struct {
		name string
		f    func() (any, error)
	}{{"alkaid", p.Alkaid}, {"arrowgo", p.ArrowGo}} {
		b.Run(side.name, func(b *testing.B) {
			b.SetBytes(p.Bytes())
			b.ReportAllocs()
			start := mallocs()
			for range b.N {
				if _, err := side.f(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(mallocs()-start)/float64(b.N*batches), "allocs/batch")
		})
	}
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// BenchmarkFlightDoGet: DoGet of 1 GiB as 8 batches of 1M rows.
func BenchmarkFlightDoGet(b *testing.B) { runFlight(b, "FlightDoGet", full.FlightBatches()) }

// BenchmarkFlightDoPut: DoPut of 1 GiB as 8 batches of 1M rows.
func BenchmarkFlightDoPut(b *testing.B) { runFlight(b, "FlightDoPut", full.FlightBatches()) }

// BenchmarkFlightSQLExecute: a Flight SQL query (Execute, then DoGet of
// its ticket) whose result is 1M rows of 16 int64 columns.
func BenchmarkFlightSQLExecute(b *testing.B) { runFlight(b, "FlightSQLExecute", 1) }
