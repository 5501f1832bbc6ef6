package datatype_test

import (
	"fmt"
	"time"

	"github.com/alkaid-go/alkaid/datatype"
)

// Dates are the calendar day of a time.Time in its location.
func ExampleDate32Of() {
	t := time.Date(2024, time.March, 1, 23, 30, 0, 0, time.FixedZone("UTC-5", -5*3600))
	d := datatype.Date32Of(t)
	fmt.Println(int32(d), d.Time().Format(time.DateOnly))
	fmt.Println(datatype.Date32Of(t.UTC()).Time().Format(time.DateOnly)) // the day in UTC
	fmt.Println(int64(datatype.Date64Of(t)))
	// Output:
	// 19783 2024-03-01
	// 2024-03-02
	// 1709251200000
}

// Timestamps count the instant in the type's unit, whatever t's location.
func ExampleTimestampOf() {
	t := time.Date(2024, time.March, 1, 12, 0, 0, 500_000_000, time.UTC)
	ms := datatype.TimestampOf(t, datatype.Millisecond)
	fmt.Println(int64(ms), ms.Time(datatype.Millisecond).Format(time.RFC3339Nano))
	fmt.Println(int64(datatype.TimestampOf(t.In(time.FixedZone("UTC+9", 9*3600)), datatype.Second)))
	// Output:
	// 1709294400500 2024-03-01T12:00:00.5Z
	// 1709294400
}
