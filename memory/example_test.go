package memory_test

import (
	"fmt"

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
