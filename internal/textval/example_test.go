package textval_test

import (
	"errors"
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

func ExampleNewAppender() {
	ts, _ := datatype.NewTimestamp(datatype.Microsecond, "+02:00")
	ap, _ := textval.NewAppender(ts, &textval.Options{})
	fmt.Println(ap.Append([]byte("2024-01-01T00:00:00.5Z")))
	err := ap.Append([]byte("2024-01-01T00:00:00.1234567Z"))
	fmt.Println(errors.Is(err, textval.ErrValue), errors.Is(err, grammar.ErrTruncation))
	a := ap.NewArray()
	f, _ := textval.NewFormatter(a, textval.FormatOptions{})
	fmt.Println(string(f(nil, 0)), array.Format(a))
	// Output:
	// <nil>
	// true true
	// 2024-01-01T02:00:00.5+02:00 [2024-01-01T02:00:00.5+02:00]
}
