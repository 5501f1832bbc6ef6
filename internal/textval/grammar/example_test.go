package grammar_test

import (
	"errors"
	"fmt"

	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

func ExampleParseTimestamp() {
	us := int64(1e6)
	v, err := grammar.ParseTimestamp([]byte("2024-01-01T02:00:00.5+02:00"), us, grammar.Options{})
	fmt.Println(v, err)
	z, _ := grammar.ParseZone("+02:00")
	fmt.Println(string(grammar.AppendTimestamp(nil, v, us, z)))
	_, err = grammar.ParseTimestamp([]byte("2024-01-01T00:00:00.1234567"), us, grammar.Options{})
	fmt.Println(errors.Is(err, grammar.ErrTruncation))
	// Output:
	// 1704067200500000 <nil>
	// 2024-01-01T02:00:00.5+02:00
	// true
}

func ExampleParseDecimal() {
	for _, s := range []string{"1.5e2", "0x10", "1.255", " 7"} {
		v, _, err := grammar.ParseDecimal([]byte(s), 10, 2, grammar.Options{})
		fmt.Println(s, v, err)
	}
	// Output:
	// 1.5e2 15000 <nil>
	// 0x10 0 not in the text grammar
	// 1.255 0 finer than the type holds
	//  7 0 not in the text grammar
}
