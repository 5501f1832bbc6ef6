package bench

import (
	"os"
	"testing"
	"time"
)

// warmUp is how long each side of a pair runs before the pair's first
// sample: about one sample's worth of operations at -benchtime 0.5s.
const warmUp = 500 * time.Millisecond

// full are the inputs of the benchmarks, shared by all of them.
var full = NewInputs(Full)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "alkaid-bench-")
	if err != nil {
		panic(err)
	}
	SetFileDir(dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// warmed are the pairs already warmed up in this process.
var warmed = map[string]bool{}

// run benchmarks the pair named name: sub-benchmarks "alkaid" and
// "arrowgo", side by side. Before a pair's first sample each side runs
// for warmUp, and before every sample once, untimed: otherwise the side
// timed first pays alone for the memory the heap must take from the OS
// (page faults, costly on this VM) while it grows to what the row needs;
// after the mapped-file rows, ours' first Add sample took 6-20 ms per
// operation against 0.4-1.5 ms in the next ones.
func run(b *testing.B, name string) {
	p := full.Pair(name)
	p.Setup()
	for _, f := range []func() (any, error){p.Alkaid, p.ArrowGo} {
		for start := time.Now(); ; {
			if _, err := f(); err != nil {
				b.Fatal(err)
			}
			if warmed[name] || time.Since(start) >= warmUp {
				break
			}
		}
	}
	warmed[name] = true
	for _, side := range []struct {
		name string
		f    func() (any, error)
	}{{"alkaid", p.Alkaid}, {"arrowgo", p.ArrowGo}} {
		b.Run(side.name, func(b *testing.B) {
			if p.Bytes != nil {
				b.SetBytes(p.Bytes())
			}
			b.ReportAllocs()
			for range b.N {
				if _, err := side.f(); err != nil {
					b.Fatal(err)
				}
			}
			if p.Values > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(p.Values), "ns/value")
			}
		})
	}
}

// runGroup benchmarks every pair whose name starts with prefix+"/".
func runGroup(b *testing.B, prefix string) {
	for _, p := range full.Pairs() {
		if len(p.Name) > len(prefix) && p.Name[:len(prefix)+1] == prefix+"/" {
			b.Run(p.Name[len(prefix)+1:], func(b *testing.B) { run(b, p.Name) })
		}
	}
}

func BenchmarkBuilderInt64AppendValues(b *testing.B) { run(b, "BuilderInt64AppendValues") }
func BenchmarkBuilderInt64AppendValuesNulls10(b *testing.B) {
	run(b, "BuilderInt64AppendValuesNulls10")
}
func BenchmarkBuilderInt64Append(b *testing.B)         { run(b, "BuilderInt64Append") }
func BenchmarkBuilderInt64AppendReserved(b *testing.B) { run(b, "BuilderInt64AppendReserved") }
func BenchmarkBuilderInt64AppendNulls10(b *testing.B)  { run(b, "BuilderInt64AppendNulls10") }
func BenchmarkBuilderUtf8AppendValues(b *testing.B)    { run(b, "BuilderUtf8AppendValues") }
func BenchmarkBuilderUtf8Append(b *testing.B)          { run(b, "BuilderUtf8Append") }
func BenchmarkBuilderListInt32(b *testing.B)           { run(b, "BuilderListInt32") }
func BenchmarkBuilderDictUtf8(b *testing.B)            { run(b, "BuilderDictUtf8") }
func BenchmarkIPCStreamWrite(b *testing.B)             { runGroup(b, "IPCStreamWrite") }
func BenchmarkIPCStreamRead(b *testing.B)              { runGroup(b, "IPCStreamRead") }
func BenchmarkIPCFileMappedLastValue(b *testing.B)     { runGroup(b, "IPCFileMappedLastValue") }
func BenchmarkIPCSmallBatchesRead(b *testing.B)        { run(b, "IPCSmallBatchesRead") }
func BenchmarkValidateFull(b *testing.B)               { run(b, "ValidateFull") }
func BenchmarkBitmapAnd(b *testing.B)                  { runGroup(b, "BitmapAnd") }
func BenchmarkPopcount(b *testing.B)                   { run(b, "Popcount") }
func BenchmarkSum(b *testing.B)                        { runGroup(b, "Sum") }
func BenchmarkAdd(b *testing.B)                        { runGroup(b, "Add") }
func BenchmarkLess(b *testing.B)                       { runGroup(b, "Less") }
func BenchmarkFilter(b *testing.B)                     { runGroup(b, "Filter") }
func BenchmarkTake(b *testing.B)                       { runGroup(b, "Take") }
func BenchmarkIPCDictionaryDeltaRead(b *testing.B)     { run(b, "IPCDictionaryDeltaRead") }
