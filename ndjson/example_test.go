package ndjson_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/alkaid-go/alkaid/ndjson"
)

func ExampleReader() {
	in := `{"id":1,"tags":["a","b"],"pos":{"x":1.5}}
{"id":2,"tags":[],"pos":null}
`
	r, err := ndjson.NewReader(strings.NewReader(in))
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
	//   tags: list<item: utf8>
	//   pos: struct<x: float64>
	// record: 2 rows
	//   id: [1 2]
	//   tags: [["a" "b"] []]
	//   pos: [{x: 1.5} (null)]
}

func ExampleWriter() {
	r, _ := ndjson.NewReader(strings.NewReader(`{"a":1,"b":"x"}` + "\n" + `{"a":null,"b":"y\"z"}`))
	w := ndjson.NewWriter(os.Stdout)
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
	// {"a":1,"b":"x"}
	// {"a":null,"b":"y\"z"}
}

func ExampleWithMaxLineBytes() {
	in := `{"a":1}` + "\n" + `{"a":"` + strings.Repeat("x", 1000)
	_, err := ndjson.NewReader(strings.NewReader(in), ndjson.WithMaxLineBytes(100))
	fmt.Println(err)
	// Output:
	// ndjson: limit exceeded: line 2: longer than 100 bytes (WithMaxLineBytes raises the limit)
}
