package memory_test

import (
	"fmt"
	"unsafe"

	"github.com/alkaid-go/alkaid/memory"
)

func ExampleView() {
	buf := memory.Allocate(nil, 4*8)
	vals := memory.View[int64](buf)
	for i := range vals {
		vals[i] = int64(i * i)
	}
	fmt.Println(vals, buf.Len())
	// Output: [0 1 4 9] 32
}

// Memory another allocator owns (a C library's, say) wrapped in buffers:
// the release function runs once, after the last buffer is unreachable.
func ExampleNewForeign() {
	lent := []byte("bytes lent by a producer") // stands in for C memory
	owner := memory.NewForeign("lent bytes", int64(len(lent)), func() {
		// give the memory back to its owner (free, release callback, …)
	})
	buf := owner.Buffer(unsafe.Pointer(&lent[0]), 5)
	fmt.Println(string(buf.Bytes()), buf.Owner() == owner)
	// Output: bytes true
}
