package expr

import (
	"cmp"
	"slices"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Conjuncts splits e at its top-level ANDs: a AND (b AND c) is [a b c].
func Conjuncts(e *Expr) []*Expr {
	if e.kind == kindCall && e.fn == "and" && len(e.args) == 2 {
		return append(Conjuncts(e.args[0]), Conjuncts(e.args[1])...)
	}
	return []*Expr{e}
}

// Comparison is a condition on one field against a literal:
// Path Op Value, with Op one of = <> < <= > >=.
type Comparison struct {
	Path  []string
	Op    string
	Value compute.Scalar
}

var cmpByFn = map[string]string{"equal": "=", "not_equal": "<>", "less": "<", "less_equal": "<=",
	"greater": ">", "greater_equal": ">="}
var flipOp = map[string]string{"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// AsComparison reports whether e compares a field with a literal (in
// either order), and how: what a filter pushed into a file format with
// simple predicates (Parquet row-group statistics, say) can use.
func AsComparison(e *Expr) (Comparison, bool) {
	op, ok := cmpByFn[e.fn]
	if e.kind != kindCall || !ok || len(e.args) != 2 {
		return Comparison{}, false
	}
	a, b := e.args[0], e.args[1]
	if a.kind == kindLiteral && b.kind == kindField {
		a, b, op = b, a, flipOp[op]
	}
	if a.kind != kindField || b.kind != kindLiteral {
		return Comparison{}, false
	}
	return Comparison{Path: slices.Clone(a.path), Op: op, Value: b.val}, true
}

// Simplify rewrites e with what facts, a conjunction of
// "field = literal" and "field IS NULL" conditions (a file's partition
// values, say "year = 2024 AND country = 'DE'"), says is true of every
// row: each such field becomes its value (the literal of the fact, of its
// type, or a null), and parts without fields are computed, so that
// "year = 2024 AND amount > 10" simplifies to "amount > 10" and
// "year = 2023 AND amount > 10" to FALSE: nothing in that file can match.
// Values put in or computed keep their types (they print as
// CAST(2024 AS BIGINT)): unlike literals written in an expression, they
// do not take the type of the other operand, so the simplified
// expression computes what the original did. Facts should therefore
// carry the field's type (a partition value of an int32 column as an
// int32 compute.Scalar). Conditions of facts of another form are
// ignored. Parts whose
// computation fails (an overflow, say) are kept as they are, to fail
// where they are evaluated. e and facts are not changed.
func Simplify(e *Expr, facts *Expr) *Expr {
	known := map[string]*Expr{}
	if facts != nil {
		for _, c := range Conjuncts(facts) {
			if cmp, ok := AsComparison(c); ok && cmp.Op == "=" {
				known[pathKey(cmp.Path)] = &Expr{kind: kindLiteral, val: cmp.Value, pos: -1, typed: true}
			} else if c.kind == kindCall && c.fn == "is_null" && len(c.args) == 1 && c.args[0].kind == kindField {
				known[pathKey(c.args[0].path)] = &Expr{kind: kindLiteral, val: compute.NullScalar(datatype.Null), pos: -1}
			}
		}
	}
	return simplify(e, known)
}

func pathKey(p []string) string { return strings.Join(p, "\x00") }

var emptySchema = alkaid.NewSchema(nil, datatype.Metadata{})

func simplify(e *Expr, known map[string]*Expr) *Expr {
	switch e.kind {
	case kindField:
		if v, ok := known[pathKey(e.path)]; ok {
			return v
		}
		return e
	case kindLiteral:
		return e
	}
	args := make([]*Expr, len(e.args))
	allLit := true
	changed := false
	for i, a := range e.args {
		args[i] = simplify(a, known)
		allLit = allLit && args[i].kind == kindLiteral
		changed = changed || args[i] != a
	}
	out := e
	if changed {
		c := *e
		c.args = args
		out = &c
	}
	if allLit {
		if v, ok := foldLiterals(out); ok {
			return &Expr{kind: kindLiteral, val: v, pos: e.pos, typed: true}
		}
		if b, err := Bind(out, emptySchema); err == nil && b.root.lit != nil {
			return &Expr{kind: kindLiteral, val: *b.root.lit, pos: e.pos, typed: true}
		}
		return out
	}
	// AND and OR with one known side.
	if (e.fn == "and" || e.fn == "or") && len(args) == 2 {
		decider := e.fn == "or" // OR: true decides; AND: false decides
		for i, a := range args {
			v, ok := boolLit(a)
			if !ok {
				continue
			}
			if v == decider {
				return a
			}
			return args[1-i] // the neutral value: the other side decides
		}
	}
	return out
}

// boolLit is the value of a non-null boolean literal.
func boolLit(e *Expr) (bool, bool) {
	if e.kind != kindLiteral || !e.val.Valid {
		return false, false
	}
	v, ok := e.val.Value.(bool)
	return v, ok
}

// foldLiterals computes, without binding, the calls of literals that
// partition values make of a filter most often: a comparison of two
// non-null int64 or utf8 values of one type, AND, OR and NOT of non-null
// booleans. ok is false for any other call, which Bind then computes;
// both give the same value.
func foldLiterals(e *Expr) (compute.Scalar, bool) {
	out := func(v bool) (compute.Scalar, bool) {
		return compute.Scalar{Type: datatype.Bool, Valid: true, Value: v}, true
	}
	for _, a := range e.args {
		if !a.val.Valid {
			return compute.Scalar{}, false
		}
	}
	switch {
	case e.fn == "not" && len(e.args) == 1:
		if v, ok := boolLit(e.args[0]); ok {
			return out(!v)
		}
	case (e.fn == "and" || e.fn == "or") && len(e.args) == 2:
		a, ok1 := boolLit(e.args[0])
		b, ok2 := boolLit(e.args[1])
		if ok1 && ok2 {
			return out(e.fn == "and" && a && b || e.fn == "or" && (a || b))
		}
	case len(e.args) == 2 && cmpByFn[e.fn] != "":
		x, y := e.args[0].val, e.args[1].val
		if !datatype.Equal(x.Type, y.Type) {
			return compute.Scalar{}, false
		}
		var c int
		switch a := x.Value.(type) {
		case int64:
			b, ok := y.Value.(int64)
			if !ok || x.Type.Kind() != datatype.KindInt64 {
				return compute.Scalar{}, false
			}
			c = cmp.Compare(a, b)
		case string:
			b, ok := y.Value.(string)
			if !ok || x.Type.Kind() != datatype.KindString {
				return compute.Scalar{}, false
			}
			c = strings.Compare(a, b)
		default:
			return compute.Scalar{}, false
		}
		switch cmpByFn[e.fn] {
		case "=":
			return out(c == 0)
		case "<>":
			return out(c != 0)
		case "<":
			return out(c < 0)
		case "<=":
			return out(c <= 0)
		case ">":
			return out(c > 0)
		case ">=":
			return out(c >= 0)
		}
	}
	return compute.Scalar{}, false
}
