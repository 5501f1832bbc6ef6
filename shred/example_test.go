package shred_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/shred"
)

// documentSchema is the spec's Document: required fields are not
// nullable, optional ones are, and repeated fields and groups are
// non-nullable lists of non-nullable values.
//
//	message Document {
//	  required int64 DocId;
//	  optional group Links {
//	    repeated int64 Backward;
//	    repeated int64 Forward; }
//	  repeated group Name {
//	    repeated group Language {
//	      required string Code;
//	      optional string Country; }
//	    optional string Url; }}
func documentSchema() *alkaid.Schema {
	repeated := func(t datatype.DataType) datatype.DataType {
		return datatype.ListOfField(datatype.Field{Name: "item", Type: t})
	}
	language := datatype.StructOf(
		datatype.Field{Name: "Code", Type: datatype.String},
		datatype.Field{Name: "Country", Type: datatype.String, Nullable: true},
	)
	name := datatype.StructOf(
		datatype.Field{Name: "Language", Type: repeated(language)},
		datatype.Field{Name: "Url", Type: datatype.String, Nullable: true},
	)
	links := datatype.StructOf(
		datatype.Field{Name: "Backward", Type: repeated(datatype.Int64)},
		datatype.Field{Name: "Forward", Type: repeated(datatype.Int64)},
	)
	return alkaid.NewSchema([]datatype.Field{
		{Name: "DocId", Type: datatype.Int64},
		{Name: "Links", Type: links, Nullable: true},
		{Name: "Name", Type: repeated(name)},
	}, datatype.Metadata{})
}

// r3 is the spec's record r3 (absent repeated fields are empty lists).
const r3 = `[{
  "DocId": 10,
  "Links": {"Backward": [], "Forward": [20, 40, 60]},
  "Name": [
    {"Language": [{"Code": "en-us", "Country": "us"}, {"Code": "en"}, {"Code": "zh-cn", "Country": "cn"}], "Url": "http://A"},
    {"Language": [], "Url": "http://B"},
    {"Language": [{"Code": "en-us", "Country": "gb"}]}
  ]
}]`

// documents builds a record of the given documents, one row each.
func documents(schema *alkaid.Schema, literal string) *alkaid.Record {
	st := arrayjson.MustParse(datatype.StructOf(schema.Fields()...), literal).(*array.Struct)
	cols := make([]array.Array, st.NumField())
	for i := range cols {
		cols[i] = st.Field(i)
	}
	rec, err := alkaid.NewRecord(schema, cols, -1)
	if err != nil {
		panic(err)
	}
	return rec
}

// printColumn prints a column as the spec's table: one row per entry,
// the value or NULL, and the levels.
func printColumn(c shred.Column) {
	fmt.Printf("%s (max r=%d, d=%d)\n", c.PathString(), c.MaxRep, c.MaxDef)
	fmt.Println("value  r  d")
	v := 0
	for k := range c.Len() {
		val := "NULL"
		if int(c.Def[k]) == c.MaxDef {
			val = array.FormatValue(c.Values, v)
			v++
		}
		fmt.Printf("%-6s %d  %d\n", val, c.Rep[k], c.Def[k])
	}
}

// The spec's worked example: record r3 shredded, its
// Name.Language.Country column printed, and the record assembled back.
func Example() {
	schema := documentSchema()
	rec := documents(schema, r3)

	cols, err := shred.ShredRecord(rec)
	if err != nil {
		panic(err)
	}
	for _, c := range cols {
		if c.PathString() == "Name.Language.Country" {
			printColumn(c)
		}
	}

	back, err := shred.AssembleRecord(schema, cols)
	if err != nil {
		panic(err)
	}
	equal := true
	for i := range rec.NumCols() {
		equal = equal && array.Equal(rec.Column(i), back.Column(i))
	}
	fmt.Println("assembled back equal:", equal)
	// Output:
	// Name.Language.Country (max r=2, d=3)
	// value  r  d
	// "us"   0  3
	// NULL   2  2
	// "cn"   2  3
	// NULL   1  1
	// "gb"   1  3
	// assembled back equal: true
}

// Every column of r3 with its maximum levels.
func ExampleLeaves() {
	for _, f := range documentSchema().Fields() {
		leaves, err := shred.Leaves(f)
		if err != nil {
			panic(err)
		}
		for _, l := range leaves {
			fmt.Printf("%-22s r≤%d d≤%d %s\n", shred.PathString(l.Path), l.MaxRep, l.MaxDef, l.Type)
		}
	}
	// Output:
	// DocId                  r≤0 d≤0 int64
	// Links.Backward         r≤1 d≤2 int64
	// Links.Forward          r≤1 d≤2 int64
	// Name.Language.Code     r≤2 d≤2 utf8
	// Name.Language.Country  r≤2 d≤3 utf8
	// Name.Url               r≤1 d≤2 utf8
}
