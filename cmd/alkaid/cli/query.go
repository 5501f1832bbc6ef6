package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	_ "time/tzdata" // time zones of expressions where the system has no zone database
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/expr"
)

// queryHelp documents -where and -select in the reading commands' help.
const queryHelp = `

-where keeps the rows where an expression is true and -select computes
the output columns, after -where: "EXPR [AS NAME], …" (a column without
AS is named after its field, or its expression's text). Expressions are
SQL-like, as package expr reads them: column names (case-sensitive,
"double quoted" for other names, a.b for a struct's field), literals
(42, 1.5, 'text', TRUE, NULL, DATE '2024-02-29', TIMESTAMP '…'),
+ - * / // % ||, = <> < <= > >=, AND OR NOT, IS [NOT] NULL, [NOT] IN
(…), [NOT] BETWEEN … AND …, [NOT] LIKE, CASE, CAST(x AS type) and
functions named as in DuckDB (lower, upper, length, trim, substr,
starts_with, contains, regexp_matches, regexp_replace, year, month, day,
hour, strftime, date_trunc, round, abs, coalesce, …). A syntax error is
shown under the offending character; a column that does not exist is
named. A dataset, or a Parquet file, is read through one scan: the files
whose partition values rule -where out are not opened, the Parquet row
groups and pages whose statistics, bloom filters or page index rule it
out are not read, and with -select only the columns the expressions of
-where and -select name are read. An IPC file, or a stream in a file (not
on a pipe), with -select is read for those columns only too (a file
reads only their bytes). For example:

  alkaid export -where "year = 2024 AND amount > 100" \
      -select "upper(city) AS city, amount * 1.2 AS gross" sales/ out.csv`

// queryFlags are the reading commands' -where and -select.
type queryFlags struct {
	where, sel string
}

func (q *queryFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&q.where, "where", "", "keep the rows where the expression `EXPR` is true")
	fs.StringVar(&q.sel, "select", "", "output the columns `EXPR [AS NAME], …` (after -where)")
}

// set reports whether a flag of q was given.
func (q *queryFlags) set() bool { return q.where != "" || q.sel != "" }

// apply parses the expressions and wraps in's records with them: the
// filter, then the projection. An input that can read fewer columns
// (projectScan) reads those the expressions name: of -select, and of
// -where unless the input filters itself (filterScan).
func (q *queryFlags) apply(in *input) error {
	var where *expr.Expr // the filter still to apply
	if q.where != "" {
		e, err := expr.Parse(q.where)
		if err != nil {
			return exprSyntax("-where", q.where, err)
		}
		if _, err := expr.Filter(in.RecordReader, e); err != nil { // checks e against the schema
			return usagef("-where: %v", err)
		}
		if in.filterScan != nil {
			in.filterScan(e) // the dataset prunes with it and filters
		} else {
			where = e
		}
	}
	if q.sel != "" {
		cols, err := expr.ParseSelect(q.sel)
		if err != nil {
			return exprSyntax("-select", q.sel, err)
		}
		if in.projectScan != nil {
			// The input reads only the columns the expressions read, once
			// they are known to bind against the whole schema.
			if _, err := expr.BindProjection(cols, in.Schema()); err != nil {
				return usagef("-select: %v", err)
			}
			exprs := make([]*expr.Expr, 0, len(cols)+1)
			for _, c := range cols {
				exprs = append(exprs, c.Expr)
			}
			if where != nil {
				exprs = append(exprs, where)
			}
			if err := in.projectScan(readColumns(in.Schema(), exprs...)); err != nil {
				return err
			}
		}
		if where != nil {
			if in.RecordReader, err = expr.Filter(in.RecordReader, where); err != nil {
				return usagef("-where: %v", err)
			}
			where = nil
		}
		r, err := expr.Project(in.RecordReader, cols)
		if err != nil {
			return usagef("-select: %v", err)
		}
		in.RecordReader = r
	}
	if where != nil {
		r, err := expr.Filter(in.RecordReader, where)
		if err != nil {
			return usagef("-where: %v", err)
		}
		in.RecordReader = r
	}
	return nil
}

// readColumns lists the columns of schema that exprs read, in the
// schema's order.
func readColumns(schema *alkaid.Schema, exprs ...*expr.Expr) []string {
	read := map[string]bool{}
	for _, e := range exprs {
		for _, name := range e.Columns() {
			read[name] = true
		}
	}
	var out []string
	for _, f := range schema.Fields() {
		if read[f.Name] {
			out = append(out, f.Name)
			delete(read, f.Name) // a name twice in the schema is read once
		}
	}
	return out
}

// exprSyntax is the error of flag's text: a syntax error shows the text
// with a caret under the offending byte.
func exprSyntax(flag, text string, err error) error {
	var se *expr.SyntaxError
	if !errors.As(err, &se) || se.Pos < 0 || se.Pos > len(text) || strings.ContainsAny(text, "\n\r\t") {
		return usagef("%s: %v", flag, err)
	}
	caret := strings.Repeat(" ", utf8.RuneCountInString(text[:se.Pos])) + "^"
	return &usageError{msg: fmt.Sprintf("%s: %v", flag, err), detail: fmt.Sprintf("  %s\n  %s\n", text, caret)}
}
