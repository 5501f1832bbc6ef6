package gorecord_test

import (
	"bytes"
	"fmt"
	"log"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/gorecord"
	"github.com/alkaid-go/alkaid/ipc"
)

// Trade is a row: each exported field becomes a column.
type Trade struct {
	Symbol string    `alkaid:"symbol,dict"` // dictionary-encoded
	Price  float64   `alkaid:"price"`
	Qty    int64     `alkaid:"qty"`
	At     time.Time `alkaid:"at,unit=ms"` // timestamp[ms, tz=UTC]
	Venue  *string   `alkaid:"venue"`      // nil is null
	Fills  []int32   `alkaid:"fills"`      // list<int32>
	Secret string    `alkaid:"-"`          // not stored
}

// Build a record from a slice of structs, write it as an IPC stream, read
// it back and turn it into structs again.
func Example() {
	nyse := "NYSE"
	trades := []Trade{
		{Symbol: "ACME", Price: 12.5, Qty: 100, At: time.Date(2025, 1, 2, 9, 30, 0, 0, time.UTC), Venue: &nyse, Fills: []int32{60, 40}},
		{Symbol: "INIT", Price: 7.25, Qty: 10, At: time.Date(2025, 1, 2, 9, 31, 0, 0, time.UTC)},
	}

	rec, err := gorecord.FromSlice(trades)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec.Schema())

	var buf bytes.Buffer
	w, err := ipc.NewStreamWriter(&buf, rec.Schema())
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := ipc.NewStreamReader(&buf)
	if err != nil {
		log.Fatal(err)
	}
	for rec, err := range r.Records() {
		if err != nil {
			log.Fatal(err)
		}
		back, err := gorecord.ToSlice[Trade](rec)
		if err != nil {
			log.Fatal(err)
		}
		for _, t := range back {
			venue := "-"
			if t.Venue != nil {
				venue = *t.Venue
			}
			fmt.Println(t.Symbol, t.Price, t.Qty, t.At.Format(time.RFC3339), venue, t.Fills)
		}
	}
	// Output:
	// schema:
	//   symbol: dictionary<values=utf8, indices=int32> not null
	//   price: float64 not null
	//   qty: int64 not null
	//   at: timestamp[ms, tz=UTC] not null
	//   venue: utf8
	//   fills: list<item: int32 not null>
	// ACME 12.5 100 2025-01-02T09:30:00Z NYSE [60 40]
	// INIT 7.25 10 2025-01-02T09:31:00Z - []
}

// A Writer turns a stream of values into records of a fixed number of
// rows, here written straight to an IPC stream.
func ExampleWriter() {
	schema, err := gorecord.SchemaOf[Trade]()
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	sw, err := ipc.NewStreamWriter(&buf, schema)
	if err != nil {
		log.Fatal(err)
	}
	w, err := gorecord.NewWriter[Trade](sw, gorecord.WithBatchSize(1000))
	if err != nil {
		log.Fatal(err)
	}
	for i := range 2500 {
		if err := w.Append(Trade{Symbol: "ACME", Price: float64(i), Qty: 1}); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := sw.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := ipc.NewStreamReader(&buf)
	if err != nil {
		log.Fatal(err)
	}
	for rec, err := range r.Records() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rec.NumRows(), "rows")
	}
	// Output:
	// 1000 rows
	// 1000 rows
	// 500 rows
}

// Values from any Go iterator as an alkaid.RecordReader, copied into an
// IPC stream with alkaid.Copy.
func ExampleNewReader() {
	trades := func(yield func(Trade) bool) {
		for i := range 5 {
			if !yield(Trade{Symbol: "ACME", Price: float64(i), Qty: 1}) {
				return
			}
		}
	}
	rr, err := gorecord.NewReader(trades, gorecord.WithBatchSize(2))
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	sw, err := ipc.NewStreamWriter(&buf, rr.Schema())
	if err != nil {
		log.Fatal(err)
	}
	rows, err := alkaid.Copy(sw, rr)
	if err == nil {
		err = sw.Close()
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rows, "rows copied")
	// Output:
	// 5 rows copied
}
