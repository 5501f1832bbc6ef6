package texttest_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/internal/texttest"
)

func ExampleCollect() {
	r, err := csv.NewReader(strings.NewReader("a,b\n1,x\n2,y\n"))
	if err != nil {
		panic(err)
	}
	recs, err := texttest.Collect(r.Records())
	fmt.Println(len(recs), recs[0].NumRows(), err)
	// Output:
	// 1 2 <nil>
}

func ExampleStream() {
	s := &texttest.Stream{Head: []byte("a\n"), Body: []byte("1\n"), N: 5, Tail: []byte("end\n")}
	b, err := io.ReadAll(s)
	fmt.Printf("%q %v\n", b, err)
	// Output:
	// "a\n1\n1\n1end\n" <nil>
}
