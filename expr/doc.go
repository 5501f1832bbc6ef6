// Package expr holds expressions over records: field references (nested
// paths through structs), literals, arithmetic, comparisons, Kleene
// logic, null tests, IN, BETWEEN, casts, conditionals and functions;
// built in Go or parsed from a SQL-like text, bound to a schema, and
// evaluated over record batches a column at a time.
package expr
