package alkaid_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

func ExampleConcatTables() {
	s := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int32}}, datatype.Metadata{})
	batch := func(js string) *alkaid.Record {
		r, err := alkaid.NewRecord(s, []array.Array{arrayjson.MustParse(datatype.Int32, js)}, -1)
		if err != nil {
			panic(err)
		}
		return r
	}
	t1, _ := alkaid.TableFromRecords(s, []*alkaid.Record{batch(`[1, 2]`), batch(`[3]`)})
	t2, _ := alkaid.TableFromRecords(s, []*alkaid.Record{batch(`[4, 5]`)})
	both, err := alkaid.ConcatTables(t1, t2)
	if err != nil {
		panic(err)
	}
	fmt.Print(both)
	for rec, err := range both.Records() {
		if err != nil {
			panic(err)
		}
		fmt.Println(rec.NumRows(), rec.Column(0))
	}
	// Output:
	// table: 5 rows
	//   n: [1 2 3 4 5]
	// 2 [1 2]
	// 1 [3]
	// 2 [4 5]
}
