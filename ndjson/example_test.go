package ndjson_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
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
	in := `{"a":1,"b":"x"}` + "\n" + `{"a":null,"b":"y\"z"}`
	r, err := ndjson.NewReader(strings.NewReader(in))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	w, err := ndjson.NewWriter(os.Stdout, r.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := alkaid.Copy(w, r); err != nil {
		fmt.Println(err)
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"a":1,"b":"x"}
	// {"a":null,"b":"y\"z"}
}

func ExampleWithLimits() {
	in := `{"a":1}` + "\n" + `{"a":"` + strings.Repeat("x", 1000)
	_, err := ndjson.NewReader(strings.NewReader(in), ndjson.WithLimits(ndjson.Limits{MaxLineBytes: 100}))
	fmt.Println(err)
	// Output:
	// ndjson: limit exceeded: line 2: longer than 100 bytes (Limits.MaxLineBytes raises the limit)
}

func ExampleOption() {
	// One option type serves both; each option says which it is for, and
	// a bad value or one for the other side is an error naming it.
	_, err := ndjson.NewReader(strings.NewReader(`{"a":1}`), ndjson.WithUnionTypeCodes())
	fmt.Println(err)
	_, err = ndjson.NewReader(strings.NewReader(`{"a":1}`), ndjson.WithBatchSize(0))
	fmt.Println(err)
	// Output:
	// ndjson: invalid: WithUnionTypeCodes is an option of a Writer, not of a Reader
	// ndjson: invalid: WithBatchSize(0): the batch size must be positive
}
