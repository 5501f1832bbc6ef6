package expr_test

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

func sales() *alkaid.Record {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "amount", Type: datatype.Int64, Nullable: true},
		{Name: "country", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, `[50, 150, 300, null, 120]`),
		arrayjson.MustParse(datatype.String, `["DE", "DE", "US", "FR", "fr"]`),
	}, 5)
	return rec
}

func ExampleParse() {
	rec := sales()
	e, err := expr.Parse("amount > 100 AND upper(country) IN ('DE', 'FR')")
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := expr.Bind(e, rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	mask, _ := b.Eval(rec)
	fmt.Println(mask)
	kept, _ := b.Filter(rec)
	fmt.Println(kept.Column(0), kept.Column(1))
	// Output:
	// [false true false (null) true]
	// [150 120] ["DE" "fr"]
}

func ExampleParse_error() {
	_, err := expr.Parse("amount > AND country = 'DE'")
	fmt.Println(err)
	e, _ := expr.Parse("amount > 100 AND contry = 'DE'")
	_, err = expr.Bind(e, sales().Schema())
	fmt.Println(err)
	// Output:
	// expr: syntax error at byte 9: unexpected keyword AND
	// expr: contry at byte 17: no field "contry" in the schema: invalid
}

func ExampleBind() {
	rec := sales()
	e := expr.CaseWhen(
		[]*expr.Expr{expr.Ge(expr.Field("amount"), expr.Lit(200))},
		[]*expr.Expr{expr.Lit("large")},
		expr.Lit("small"))
	b, _ := expr.Bind(e, rec.Schema())
	out, _ := b.Eval(rec)
	fmt.Println(e)
	fmt.Println(b.Type(), out)
	// Output:
	// CASE WHEN (amount >= 200) THEN 'large' ELSE 'small' END
	// utf8 ["small" "small" "large" "small" "small"]
}

func ExampleSimplify() {
	filter, _ := expr.Parse("year = 2024 AND amount > 100")
	facts, _ := expr.Parse("year = 2023") // e.g. a partition directory year=2023
	fmt.Println(expr.Simplify(filter, facts))
	facts, _ = expr.Parse("year = 2024")
	fmt.Println(expr.Simplify(filter, facts))
	// Output:
	// FALSE
	// (amount > 100)
}

func ExampleMayMatch() {
	filter, _ := expr.Parse("amount > 1000 OR country = 'JP'")
	stats := map[string]expr.Stats{
		"amount":  {Min: scalar(datatype.Int64, int64(5)), Max: scalar(datatype.Int64, int64(900)), NullCount: 0, Rows: 10},
		"country": {Min: scalar(datatype.String, "DE"), Max: scalar(datatype.String, "FR"), NullCount: 0, Rows: 10},
	}
	fmt.Println(expr.MayMatch(filter, func(path []string) (expr.Stats, bool) {
		s, ok := stats[path[0]]
		return s, ok
	}))
	// Output:
	// false
}

func scalar(t datatype.DataType, v any) compute.Scalar {
	return compute.Scalar{Type: t, Valid: true, Value: v}
}

func ExampleExpr_Columns() {
	e, _ := expr.Parse("upper(city) || '-' || s.zone = 'X' AND amount > 100 OR city IS NULL")
	fmt.Println(e.Columns())
	// Output:
	// [city s amount]
}
