package texttest_test

import (
	"fmt"
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
