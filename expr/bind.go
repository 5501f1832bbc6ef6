package expr

import (
	"errors"
	"fmt"
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Bound is an expression bound to a schema: every field resolved, every
// function chosen for its argument types, implicit casts inserted. It is
// immutable and safe to evaluate from several goroutines at once.
type Bound struct {
	root   *node
	schema *alkaid.Schema
	src    *Expr
}

// node is one bound expression. A constant node has lit set and no
// eval; any other evaluates over a batch.
type node struct {
	typ  datatype.DataType
	src  *Expr
	cols []int // the top-level columns read, sorted
	lit  *compute.Scalar
	eval func(c *batch) (array.Array, error)
}

// batch is what a node evaluates over: the columns of a record (nil for
// those not needed) and the row count.
type batch struct {
	cols []array.Array
	n    int
	// utf8ok holds the string arrays already found valid UTF-8.
	utf8ok map[array.Array]bool
}

// errAt is an error about e, naming it and where it is.
func errAt(e *Expr, kind error, format string, args ...any) error {
	where := ""
	if e.pos >= 0 {
		where = fmt.Sprintf(" at byte %d", e.pos)
	}
	return fmt.Errorf("expr: %s%s: %s: %w", e, where, fmt.Sprintf(format, args...), kind)
}

// Bind resolves e against schema. A field that is not in the schema, a
// function that does not exist or arguments of types it does not take
// are errors naming the expression and its byte position (for parsed
// expressions) and wrapping datatype.ErrInvalid (or ErrNotSupported).
// Arguments of different types are brought to a common type first, by
// the promotion rules of the package documentation. Parts without
// fields are evaluated once, here.
func Bind(e *Expr, schema *alkaid.Schema) (*Bound, error) {
	if e == nil || schema == nil {
		return nil, fmt.Errorf("expr: Bind of a nil expression or schema: %w", datatype.ErrInvalid)
	}
	n, err := bind(e, schema)
	if err != nil {
		return nil, err
	}
	return &Bound{root: n, schema: schema, src: e}, nil
}

// Type is the type of the values the expression evaluates to.
func (b *Bound) Type() datatype.DataType { return b.root.typ }

// String prints the expression (see [Expr.String]).
func (b *Bound) String() string { return b.src.String() }

// Expr is the expression that was bound.
func (b *Bound) Expr() *Expr { return b.src }

// Eval evaluates the expression over the rows of r, whose schema must
// have the fields (names and types) of the schema it was bound to. The
// result has r.NumRows() slots. Errors of evaluation (integer overflow
// in checked arithmetic, a cast that does not fit, invalid UTF-8 in a
// string function, …) name the expression and the row.
func (b *Bound) Eval(r *alkaid.Record) (array.Array, error) {
	bt, err := b.batchOf(r)
	if err != nil {
		return nil, err
	}
	return b.root.array(bt)
}

func (b *Bound) batchOf(r *alkaid.Record) (*batch, error) {
	if r == nil {
		return nil, fmt.Errorf("expr: Eval of a nil record: %w", datatype.ErrInvalid)
	}
	if r.NumCols() != b.schema.NumFields() {
		return nil, fmt.Errorf("expr: record has %d columns, the expression was bound to %d: %w",
			r.NumCols(), b.schema.NumFields(), datatype.ErrInvalid)
	}
	for _, i := range b.root.cols {
		f, g := r.Schema().Field(i), b.schema.Field(i)
		if f.Name != g.Name || !datatype.Equal(f.Type, g.Type, datatype.IgnoreMetadata()) {
			return nil, fmt.Errorf("expr: record column %d is %s %s, the expression was bound to %s %s: %w",
				i, f.Name, f.Type, g.Name, g.Type, datatype.ErrInvalid)
		}
	}
	return &batch{cols: r.Columns(), n: r.NumRows()}, nil
}

// Filter returns the rows of r where the expression, which must be
// boolean, is true (null counts as false).
func (b *Bound) Filter(r *alkaid.Record) (*alkaid.Record, error) {
	if b.root.typ.Kind() != datatype.KindBool {
		return nil, errAt(b.src, datatype.ErrInvalid, "filter needs a boolean expression, not %s", b.root.typ)
	}
	m, err := b.Eval(r)
	if err != nil {
		return nil, err
	}
	return compute.FilterRecord(r, m.(*array.Boolean))
}

// array evaluates n over c, a constant repeated.
func (n *node) array(c *batch) (array.Array, error) {
	if n.lit != nil {
		return scalarArray(*n.lit, c.n)
	}
	return n.eval(c)
}

func constant(e *Expr, s compute.Scalar) *node {
	return &node{typ: s.Type, src: e, lit: &s}
}

func unionCols(args []*node) []int {
	var cols []int
	for _, a := range args {
		cols = append(cols, a.cols...)
	}
	slices.Sort(cols)
	return slices.Compact(cols)
}

func bind(e *Expr, schema *alkaid.Schema) (*node, error) {
	switch e.kind {
	case kindLiteral:
		if e.val.Type == nil {
			return nil, errAt(e, datatype.ErrInvalid, "literal without a type")
		}
		return constant(e, e.val), nil
	case kindField:
		return bindField(e, schema)
	}
	f, ok := functions[e.fn]
	if !ok {
		return nil, errAt(e, datatype.ErrInvalid, "no function %q", e.fn)
	}
	if len(e.args) < f.min || f.max >= 0 && len(e.args) > f.max {
		return nil, errAt(e, datatype.ErrInvalid, "%s takes %s arguments, not %d", e.fn, f.arity(), len(e.args))
	}
	args := make([]*node, len(e.args))
	for i, a := range e.args {
		var err error
		if args[i], err = bind(a, schema); err != nil {
			return nil, err
		}
	}
	n, err := f.bind(e, args)
	if err != nil {
		return nil, err
	}
	if n.lit == nil && n.cols == nil {
		n.cols = unionCols(args)
	}
	if n.lit == nil && len(n.cols) == 0 {
		// No field below: evaluate once.
		a, err := n.eval(&batch{n: 1})
		if err != nil {
			return nil, err
		}
		v := valueAt(a, 0)
		if v == nil && a.IsValid(0) {
			return n, nil // no scalar form (a list): evaluated with each batch
		}
		s := compute.Scalar{Type: n.typ, Valid: v != nil, Value: v}
		return constant(e, s), nil
	}
	return n, nil
}

func bindField(e *Expr, schema *alkaid.Schema) (*node, error) {
	if len(e.path) == 0 {
		return nil, errAt(e, datatype.ErrInvalid, "empty field path")
	}
	idx := schema.FieldIndices(e.path[0])
	switch len(idx) {
	case 0:
		return nil, errAt(e, datatype.ErrInvalid, "no field %q in the schema", e.path[0])
	case 1:
	default:
		return nil, errAt(e, datatype.ErrInvalid, "field name %q is ambiguous (%d fields)", e.path[0], len(idx))
	}
	col := idx[0]
	typ := schema.Field(col).Type
	var steps []int
	for _, name := range e.path[1:] {
		st, ok := typ.(*datatype.StructType)
		if !ok {
			return nil, errAt(e, datatype.ErrInvalid, "%q is a field of %s, not of a struct", name, typ)
		}
		k := -1
		for i, f := range datatype.Children(st) {
			if f.Name == name {
				if k >= 0 {
					return nil, errAt(e, datatype.ErrInvalid, "field name %q is ambiguous", name)
				}
				k = i
			}
		}
		if k < 0 {
			return nil, errAt(e, datatype.ErrInvalid, "no field %q in %s", name, typ)
		}
		steps = append(steps, k)
		typ = datatype.Children(st)[k].Type
	}
	decode := typ.Kind() == datatype.KindDictionary
	if decode {
		typ = typ.(*datatype.DictionaryType).Value
	}
	return &node{typ: typ, src: e, cols: []int{col}, eval: func(c *batch) (array.Array, error) {
		a := c.cols[col]
		for _, k := range steps {
			s := a.(*array.Struct)
			child := s.Field(k)
			if s.NullN() > 0 {
				var err error
				if child, err = nullWhere(child, s); err != nil {
					return nil, err
				}
			}
			a = child
		}
		if decode {
			return compute.Cast(a, typ)
		}
		return a, nil
	}}, nil
}

// fn describes a function: its arity and how to bind it.
type fn struct {
	min, max int // max < 0: any number
	bind     func(e *Expr, args []*node) (*node, error)
}

func (f fn) arity() string {
	switch {
	case f.max < 0:
		return fmt.Sprintf("%d or more", f.min)
	case f.min == f.max:
		return fmt.Sprint(f.min)
	}
	return fmt.Sprintf("%d to %d", f.min, f.max)
}

// functions is every function by name; filled by init functions of the
// files that define them.
var functions = map[string]fn{}

func register(name string, min, max int, bind func(e *Expr, args []*node) (*node, error)) {
	functions[name] = fn{min: min, max: max, bind: bind}
}

// evalErr wraps an error of evaluation with the expression.
func evalErr(e *Expr, err error) error {
	var already *exprError
	if errors.As(err, &already) {
		return err
	}
	return &exprError{e: e, err: err}
}

type exprError struct {
	e   *Expr
	err error
}

func (x *exprError) Error() string {
	where := ""
	if x.e.pos >= 0 {
		where = fmt.Sprintf(" at byte %d", x.e.pos)
	}
	return fmt.Sprintf("expr: %s%s: %v", x.e, where, x.err)
}

func (x *exprError) Unwrap() error { return x.err }
