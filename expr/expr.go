package expr

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

type kind uint8

const (
	kindField kind = iota
	kindLiteral
	kindCall
)

// Expr is an unbound expression: a field reference, a literal or a call
// of a named function (operators are calls too: "add", "equal", "and",
// …). Build one with the functions of this package or with [Parse];
// evaluate it after [Bind]. An Expr is immutable and safe to share.
type Expr struct {
	kind kind
	path []string       // field: names from the top level down
	val  compute.Scalar // literal
	fn   string         // call: function name
	args []*Expr        // call: arguments
	typ  datatype.DataType
	pos  int // byte offset in the parsed text, -1 when built in Go
	// typed marks a literal that Simplify computed or substituted: its
	// type is fixed, it does not take the type of the other operand as a
	// written literal does.
	typed bool
}

// Field refers to a column by name, or to a field nested in struct
// columns by its path from the top level: Field("s", "x") is s.x.
func Field(path ...string) *Expr {
	return &Expr{kind: kindField, path: append([]string(nil), path...), pos: -1}
}

// Lit is a literal of the Go value v: int, int8…int64 (an int64 literal),
// uint…uint64 (uint64), float32 and float64 (float64), string (utf8),
// []byte (binary), bool, time.Time (timestamp[us, UTC]), nil (the null
// literal, whose type comes from where it is used), a compute.Scalar (a
// value of any type, e.g. a decimal or a date), or one of datatype's
// value types with a type of its own: Date32, Date64.
// Lit panics on another type: that is a programming error.
func Lit(v any) *Expr {
	s, err := scalarOfGo(v)
	if err != nil {
		panic(err)
	}
	return &Expr{kind: kindLiteral, val: s, pos: -1}
}

func scalarOfGo(v any) (compute.Scalar, error) {
	ok := func(t datatype.DataType, v any) (compute.Scalar, error) {
		return compute.Scalar{Type: t, Valid: true, Value: v}, nil
	}
	switch x := v.(type) {
	case nil:
		return compute.NullScalar(datatype.Null), nil
	case compute.Scalar:
		return x, nil
	case int:
		return ok(datatype.Int64, int64(x))
	case int8:
		return ok(datatype.Int64, int64(x))
	case int16:
		return ok(datatype.Int64, int64(x))
	case int32:
		return ok(datatype.Int64, int64(x))
	case int64:
		return ok(datatype.Int64, x)
	case uint:
		return ok(datatype.Uint64, uint64(x))
	case uint8:
		return ok(datatype.Uint64, uint64(x))
	case uint16:
		return ok(datatype.Uint64, uint64(x))
	case uint32:
		return ok(datatype.Uint64, uint64(x))
	case uint64:
		return ok(datatype.Uint64, x)
	case float32:
		return ok(datatype.Float64, float64(x))
	case float64:
		return ok(datatype.Float64, x)
	case string:
		return ok(datatype.String, x)
	case []byte:
		return ok(datatype.Binary, append([]byte(nil), x...))
	case bool:
		return ok(datatype.Bool, x)
	case time.Time:
		t, _ := datatype.NewTimestamp(datatype.Microsecond, "UTC")
		return ok(t, datatype.TimestampOf(x, datatype.Microsecond))
	case datatype.Date32:
		return ok(datatype.Date32Type, x)
	case datatype.Date64:
		return ok(datatype.Date64Type, x)
	}
	return compute.Scalar{}, fmt.Errorf("expr: Lit of %T: %w", v, datatype.ErrNotSupported)
}

// Call is the function name applied to args; the names are those of
// DuckDB (see the package documentation for the list), an alias standing
// for its function. An unknown name is an error of Bind.
func Call(name string, args ...*Expr) *Expr {
	fn := strings.ToLower(name)
	if alias, ok := aliases[fn]; ok {
		fn = alias
	}
	return &Expr{kind: kindCall, fn: fn, args: args, pos: -1}
}

// Add is a + b; integers wrap around on overflow.
func Add(a, b *Expr) *Expr { return Call("add", a, b) }

// AddChecked is a + b; integer overflow is an error.
func AddChecked(a, b *Expr) *Expr { return Call("add_checked", a, b) }

// Sub is a - b; integers wrap around on overflow.
func Sub(a, b *Expr) *Expr { return Call("subtract", a, b) }

// SubChecked is a - b; integer overflow is an error.
func SubChecked(a, b *Expr) *Expr { return Call("subtract_checked", a, b) }

// Mul is a * b; integers wrap around on overflow.
func Mul(a, b *Expr) *Expr { return Call("multiply", a, b) }

// MulChecked is a * b; integer overflow is an error.
func MulChecked(a, b *Expr) *Expr { return Call("multiply_checked", a, b) }

// Div is a / b in float64, as SQL's / is (integers are converted first).
func Div(a, b *Expr) *Expr { return Call("divide", a, b) }

// IntDiv is a // b: integer division truncating toward zero; a zero
// divisor is an error.
func IntDiv(a, b *Expr) *Expr { return Call("integer_divide", a, b) }

// Neg is -a; -MinInt wraps around.
func Neg(a *Expr) *Expr { return Call("negate", a) }

// Eq is a = b.
func Eq(a, b *Expr) *Expr { return Call("equal", a, b) }

// Ne is a <> b.
func Ne(a, b *Expr) *Expr { return Call("not_equal", a, b) }

// Lt is a < b.
func Lt(a, b *Expr) *Expr { return Call("less", a, b) }

// Le is a <= b.
func Le(a, b *Expr) *Expr { return Call("less_equal", a, b) }

// Gt is a > b.
func Gt(a, b *Expr) *Expr { return Call("greater", a, b) }

// Ge is a >= b.
func Ge(a, b *Expr) *Expr { return Call("greater_equal", a, b) }

// And is the Kleene conjunction of its operands (false wins over null).
func And(a *Expr, more ...*Expr) *Expr { return fold("and", a, more) }

// Or is the Kleene disjunction of its operands (true wins over null).
func Or(a *Expr, more ...*Expr) *Expr { return fold("or", a, more) }

func fold(fn string, a *Expr, more []*Expr) *Expr {
	for _, b := range more {
		a = Call(fn, a, b)
	}
	return a
}

// Not is NOT a; null stays null.
func Not(a *Expr) *Expr { return Call("not", a) }

// IsNull is true where a is null, false elsewhere (never null).
func IsNull(a *Expr) *Expr { return Call("is_null", a) }

// IsValid is true where a is not null (IS NOT NULL).
func IsValid(a *Expr) *Expr { return Call("is_valid", a) }

// In is a IN (values…), with SQL's nulls: null where a is null, and
// where a matches nothing but the list holds a null.
func In(a *Expr, values ...*Expr) *Expr { return Call("is_in", append([]*Expr{a}, values...)...) }

// Between is lo <= a AND a <= hi.
func Between(a, lo, hi *Expr) *Expr { return Call("between", a, lo, hi) }

// Cast converts a to type t with compute.Cast (overflow and lost
// fractions are errors).
func Cast(a *Expr, t datatype.DataType) *Expr {
	e := Call("cast", a)
	e.typ = t
	return e
}

// IfElse is then where cond is true and otherwise where cond is false or
// null (SQL's CASE WHEN cond THEN then ELSE otherwise END).
func IfElse(cond, then, otherwise *Expr) *Expr { return Call("if_else", cond, then, otherwise) }

// CaseWhen is CASE WHEN conds[0] THEN thens[0] … ELSE otherwise END; a nil
// otherwise is ELSE NULL. It panics when conds and thens differ in length:
// that is a programming error.
func CaseWhen(conds, thens []*Expr, otherwise *Expr) *Expr {
	if len(conds) != len(thens) || len(conds) == 0 {
		panic("expr: CaseWhen needs as many conditions as results, at least one")
	}
	args := make([]*Expr, 0, 2*len(conds)+1)
	for i := range conds {
		args = append(args, conds[i], thens[i])
	}
	if otherwise == nil {
		otherwise = Lit(nil)
	}
	return Call("case_when", append(args, otherwise)...)
}

// Coalesce is the first of its arguments that is not null, row by row.
func Coalesce(args ...*Expr) *Expr { return Call("coalesce", args...) }

// IsField reports whether e is a field reference, and its path.
func (e *Expr) IsField() ([]string, bool) {
	if e.kind != kindField {
		return nil, false
	}
	return append([]string(nil), e.path...), true
}

// Columns lists the top-level columns e reads, each once, in the order
// they first appear: a field's first name (the struct column of a nested
// field). A scan that evaluates e needs to read only these columns.
func (e *Expr) Columns() []string {
	var out []string
	var walk func(e *Expr)
	walk = func(e *Expr) {
		switch e.kind {
		case kindField:
			if len(e.path) > 0 && !slices.Contains(out, e.path[0]) {
				out = append(out, e.path[0])
			}
		case kindCall:
			for _, a := range e.args {
				walk(a)
			}
		}
	}
	walk(e)
	return out
}

// IsLiteral reports whether e is a literal, and its value.
func (e *Expr) IsLiteral() (compute.Scalar, bool) {
	return e.val, e.kind == kindLiteral
}

// Func returns the function name and arguments of a call ("" for fields
// and literals).
func (e *Expr) Func() (string, []*Expr) {
	return e.fn, append([]*Expr(nil), e.args...)
}

// Pos is the byte offset of e in the text it was parsed from, or -1.
func (e *Expr) Pos() int { return e.pos }
