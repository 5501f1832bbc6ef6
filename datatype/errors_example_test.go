package datatype_test

import (
	"errors"
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// Every package wraps the same three kinds, so one errors.Is test
// classifies an error from any of them.
func Example_errorKinds() {
	_, err := ipc.NewStreamReaderBytes([]byte("id,name\n1,Ada\n"))
	fmt.Println(errors.Is(err, datatype.ErrInvalid), errors.Is(err, ipc.ErrInvalid))

	_, err = datatype.NewDecimal(128, 0, 0)
	fmt.Println(err)
	fmt.Println(errors.Is(err, datatype.ErrInvalid))
	// Output:
	// true true
	// datatype: invalid: decimal128 precision 0 out of range [1, 38]
	// true
}

// A package's finer kind is also one of the three.
func ExampleRefine() {
	errOverflow := datatype.Refine(datatype.ErrInvalid, "overflow")
	err := fmt.Errorf("mypkg: %w: slot %d", errOverflow, 3)
	fmt.Println(err)
	fmt.Println(errors.Is(err, errOverflow), errors.Is(err, datatype.ErrInvalid), errors.Is(err, datatype.ErrLimit))
	// Output:
	// mypkg: overflow: slot 3
	// true true false
}
