package csv_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
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
	// csv: invalid: line 3, column 1 ("id"): invalid value "99999999999999999999999999999999999999999" for int64: out of range
}

func ExampleWriter() {
	r, err := csv.NewReader(strings.NewReader("a,b\n1,x\n2,\"\"\n3,\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	w, err := csv.NewWriter(os.Stdout, r.Schema(), csv.WithDelimiter(';'))
	if err != nil {
		fmt.Println(err)
		return
	}
	rows, err := alkaid.Copy(w, r)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(rows, "rows")
	// Output:
	// a;b
	// 1;x
	// 2;""
	// 3;
	// 3 rows
}

func ExampleOption() {
	// One option type serves both; each option says which it is for, and
	// a bad value or one for the other side is an error naming it.
	_, err := csv.NewReader(strings.NewReader("a\n1\n"), csv.WithCRLF())
	fmt.Println(err)
	_, err = csv.NewReader(strings.NewReader("a\n1\n"), csv.WithConcurrency(-1))
	fmt.Println(err)
	// Output:
	// csv: invalid: WithCRLF is an option of a Writer, not of a Reader
	// csv: invalid: WithConcurrency(-1): must not be negative
}

func ExampleWithSchema() {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "last", Type: datatype.String, Nullable: true},
		{Name: "born", Type: datatype.Int16, Nullable: true},
	}, datatype.Metadata{})
	// The columns are matched by name, whatever their order in the file.
	in := "born,last\n1815,Lovelace\n1906,Hopper\n"
	r, err := csv.NewReader(strings.NewReader(in), csv.WithSchema(schema))
	if err != nil {
		fmt.Println(err)
		return
	}
	for rec, err := range r.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(rec)
	}
	// A header that does not match is an error naming the columns.
	_, err = csv.NewReader(strings.NewReader("born,first\n1815,Ada\n"), csv.WithSchema(schema))
	fmt.Println(err)
	// Output:
	// record: 2 rows
	//   last: ["Lovelace" "Hopper"]
	//   born: [1815 1906]
	// csv: invalid: schema fields missing from the header: "last"; header columns not in the schema: "first"
}

func ExampleReader_LineBreak() {
	// Old Mac spreadsheets end lines with "\r"; inside quotes it is data.
	in := "a,b\r1,\"x\ry\"\r2,z\r"
	r, err := csv.NewReader(strings.NewReader(in))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", r.LineBreak())
	for rec, err := range r.Records() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d rows, b: %v\n", rec.NumRows(), rec.Column(1))
	}
	// Output:
	// "\r"
	// 2 rows, b: ["x\ry" "z"]
}

func ExampleWithLimits() {
	// A quote left open runs on to the end; the limit stops it early.
	in := "a,b\n1,2\n3,\"" + strings.Repeat("x", 1000)
	_, err := csv.NewReader(strings.NewReader(in), csv.WithLimits(csv.Limits{MaxRecordBytes: 100}))
	fmt.Println(err)
	// Output:
	// csv: limit exceeded: line 3: a record longer than 100 bytes (an unclosed quote? Limits.MaxRecordBytes raises the limit)
}
