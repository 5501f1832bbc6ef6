package csv_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/alkaid-go/alkaid/csv"
)

func ExampleReader() {
	in := "id,name,price,day\n1,ann,2.50,2024-01-02\n2,\"bob, jr\",,2024-01-03\n"
	r, err := csv.NewReader(strings.NewReader(in), csv.WithBatchSize(1000))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Schema())
	for rec, err := range r.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(rec)
	}
	// Output:
	// schema:
	//   id: int64
	//   name: utf8
	//   price: float64
	//   day: date32
	// record: 2 rows
	//   id: [1 2]
	//   name: ["ann" "bob, jr"]
	//   price: [2.5 (null)]
	//   day: [2024-01-02 2024-01-03]
}

func ExampleReader_errors() {
	in := "id\n1\n99999999999999999999999999999999999999999\n"
	_, err := csv.NewReader(strings.NewReader(in), csv.WithInferRows(1))
	fmt.Println(err)
	r, _ := csv.NewReader(strings.NewReader(in), csv.WithInferRows(1))
	for _, err := range r.Records() {
		fmt.Println(err)
	}
	// Output:
	// <nil>
	// csv: invalid input: line 3, column 1 ("id"): invalid value "99999999999999999999999999999999999999999" for int64: not an integer in range
}

func ExampleWriter() {
	r, _ := csv.NewReader(strings.NewReader("a,b\n1,x\n2,\"\"\n3,\n"))
	w := csv.NewWriter(os.Stdout, csv.WriteDelimiter(';'))
	for rec, err := range r.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := w.Write(rec); err != nil {
			fmt.Println(err)
		}
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// a;b
	// 1;x
	// 2;""
	// 3;
}
