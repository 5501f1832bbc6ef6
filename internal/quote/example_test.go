package quote_test

import (
	"fmt"
	"strings"

	"github.com/alkaid-go/alkaid/internal/quote"
)

// An error message quotes a short input whole and a long one cut, at a
// character boundary, with its full length.
func ExampleString() {
	fmt.Println(quote.String("a,b"))
	long := quote.String(strings.Repeat("é", 300))
	fmt.Println(len(long) < 2*quote.Max, strings.HasSuffix(long, `é"… (600 bytes)`))
	// Output:
	// "a,b"
	// true true
}
