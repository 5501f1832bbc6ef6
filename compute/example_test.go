package compute_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

func Example() {
	prices := arrayjson.MustParse(datatype.Float64, `[12.5, null, 7.25, 30, 4]`)
	qty := arrayjson.MustParse(datatype.Float64, `[2, 1, null, 1, 10]`)

	// Null-aware arithmetic: a null on either side gives a null.
	total, _ := compute.Mul(prices, qty)
	fmt.Println("total:", total)

	// Aggregates skip nulls.
	sum, _ := compute.Sum(total)
	mean, _ := compute.Mean(prices)
	lo, hi, _ := compute.MinMax(prices)
	fmt.Println("sum:", sum, "mean:", mean, "min:", lo, "max:", hi)

	// Compare with a scalar, then keep the matching rows.
	cheap, _ := compute.CompareScalar(compute.Lt, prices, 10)
	fmt.Println("cheap:", cheap)
	kept, _ := compute.Filter(prices, cheap)
	fmt.Println("kept:", kept)

	// Take rows by index; a null index gives a null row.
	names := arrayjson.MustParse(datatype.String, `["ant", "bee", "cat", "dog", "eel"]`)
	picked, _ := compute.Take(names, arrayjson.MustParse(datatype.Int32, `[4, 0, null, 0]`))
	fmt.Println("picked:", picked)

	// Integer overflow: wrapped by default, an error when checked.
	big := arrayjson.MustParse(datatype.Int8, `[100, 100]`)
	wrapped, _ := compute.Add(big, big)
	_, err := compute.AddChecked(big, big)
	fmt.Println("wrapped:", wrapped, "checked:", err)
	// Output:
	// total: [25 (null) (null) 30 40]
	// sum: 95 mean: 13.4375 min: 4 max: 30
	// cheap: [false (null) true false true]
	// kept: [7.25 4]
	// picked: ["eel" "ant" (null) "ant"]
	// wrapped: [-56 -56] checked: compute: overflow: add: slot 0: 100 and 100
}

// Sums of money kept as decimals are exact, in a wider decimal; their
// mean keeps the input's type, rounded half away from zero.
func ExampleSum_decimal() {
	t, _ := datatype.NewDecimal(64, 12, 2)
	prices := arrayjson.MustParse(t, `["19.99", "0.01", null, "5.00"]`)
	sum, _ := compute.Sum(prices)
	mean, _ := compute.Mean(prices)
	fmt.Println(sum.Type, sum)
	fmt.Println(mean.Type, mean)
	// Output:
	// decimal128(38, 2) 25.00
	// decimal64(12, 2) 8.33
}

// Options end the parameters of the functions that may split their work
// across goroutines; a serial run gives the same result.
func ExampleWithConcurrency() {
	xs := arrayjson.MustParse(datatype.Int64, `[3, 1, null, 2]`)
	idx, _ := compute.SortIndices(xs, compute.Order{Descending: true}, compute.WithConcurrency(1))
	fmt.Println(idx)
	_, err := compute.SortIndices(xs, compute.Order{}, compute.WithConcurrency(-1))
	fmt.Println(err)
	_, err = compute.Unique(xs, compute.AllowOverflow())
	fmt.Println(err)
	// Output:
	// [0 3 1 2]
	// compute: invalid: SortIndices: WithConcurrency(-1): concurrency must not be negative
	// compute: invalid: Unique: AllowOverflow() applies to Cast only
}

// A table's rows in order, the first k only: the table form counts rows
// across chunks.
func ExampleTopKIndicesTable() {
	xs := arrayjson.MustParse(datatype.Int64, `[5, 9, 1, 7]`)
	schema := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{xs}, xs.Len())
	tbl, _ := alkaid.TableFromRecords(schema, []*alkaid.Record{rec.Slice(0, 2), rec.Slice(2, 4)})
	top, _ := compute.TopKIndicesTable(tbl, 2, []compute.SortKey{{Column: "x", Order: compute.Order{Descending: true}}})
	fmt.Println(top)
	// Output:
	// [1 3]
}
