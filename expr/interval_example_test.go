package expr_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// Example_intervalsAndBinaries computes with interval columns (the time
// between two timestamps, a deadline), binary columns (bytes counted,
// cut and shown in hexadecimal) and trunc to digits.
func Example_intervalsAndBinaries() {
	ts, _ := datatype.NewTimestamp(datatype.Microsecond, "Europe/Paris")
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "start", Type: ts},
		{Name: "stop", Type: ts},
		{Name: "payload", Type: datatype.Binary},
		{Name: "price", Type: datatype.Float64},
	}, datatype.Metadata{})
	payload := array.NewBinaryBuilder[int32](datatype.Binary)
	payload.Append([]byte{0x00, 0xff, 'a'})
	payload.Append([]byte{0xff, 0xfe, 0xff}) // not UTF-8: binary functions never read it as text
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(ts, `["2024-03-30T09:00:00Z", "2024-01-31T12:00:00Z"]`),
		arrayjson.MustParse(ts, `["2024-03-31T08:30:00Z", "2024-02-01T12:00:00.5Z"]`),
		payload.NewArray(),
		arrayjson.MustParse(datatype.Float64, `[12.3456, -7.891]`),
	}, 2)
	for _, text := range []string{
		"CAST(stop - start AS VARCHAR)",
		"strftime(start + INTERVAL '1 month' + (stop - start), '%Y-%m-%d %H:%M:%S %Z')",
		"stop - start > INTERVAL '1 day'",
		"hex(reverse(payload)) || ' ' || length(payload)",
		"hex(substr(payload, 2) || unhex('00'))",
		"trunc(price, 2)",
	} {
		e, err := expr.Parse(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, err := expr.Bind(e, rec.Schema())
		if err != nil {
			fmt.Println(err)
			return
		}
		out, err := b.Eval(rec)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(out)
	}
	// Output:
	// ["1 day 00:30:00" "1 day 00:00:00.5"]
	// ["2024-05-01 10:30:00 CEST" "2024-03-01 13:00:00 CET"]
	// [true true]
	// ["61FF00 3" "FFFEFF 3"]
	// ["FF6100" "FEFF00"]
	// [12.34 -7.89]
}
