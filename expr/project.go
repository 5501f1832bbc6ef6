package expr

import (
	"fmt"
	"iter"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Named is an expression and the name of the column it makes.
type Named struct {
	Name string
	Expr *Expr
}

// ParseSelect reads a comma-separated list of expressions, each with an
// optional name: "a, b + 1 AS c, lower(s) AS \"Lower S\"". An expression
// without a name is named after its field (the last name of its path) or,
// when it is not a field, its text as String prints it.
func ParseSelect(text string) ([]Named, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var out []Named
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		name := ""
		if p.accept("AS") {
			t := p.next()
			if t.kind != tIdent && t.kind != tQuoted || t.kind == tIdent && keywords[strings.ToUpper(t.text)] {
				return nil, p.fail(t, "expected a column name after AS, found %s", describe(t))
			}
			name = t.text
		} else if path, ok := e.IsField(); ok {
			name = path[len(path)-1]
		} else {
			name = e.String()
		}
		out = append(out, Named{Name: name, Expr: e})
		if !p.acceptOp(",") {
			break
		}
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.fail(t, "unexpected %s after the expression", describe(t))
	}
	return out, nil
}

// Projection is a list of named expressions bound to a schema: it makes
// a record of one column per expression from a record of that schema.
type Projection struct {
	out   *alkaid.Schema
	bound []*Bound
}

// BindProjection binds every expression of cols to schema (see [Bind]).
func BindProjection(cols []Named, schema *alkaid.Schema) (*Projection, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("expr: a projection of no columns: %w", datatype.ErrInvalid)
	}
	p := &Projection{}
	fields := make([]datatype.Field, len(cols))
	for i, c := range cols {
		b, err := Bind(c.Expr, schema)
		if err != nil {
			return nil, err
		}
		p.bound = append(p.bound, b)
		fields[i] = datatype.Field{Name: c.Name, Type: b.Type(), Nullable: true}
	}
	p.out = alkaid.NewSchema(fields, datatype.Metadata{})
	return p, nil
}

// Schema is the schema of the records Eval makes.
func (p *Projection) Schema() *alkaid.Schema { return p.out }

// Eval evaluates every expression over r.
func (p *Projection) Eval(r *alkaid.Record) (*alkaid.Record, error) {
	cols := make([]array.Array, len(p.bound))
	for i, b := range p.bound {
		a, err := b.Eval(r)
		if err != nil {
			return nil, err
		}
		cols[i] = a
	}
	return alkaid.NewRecord(p.out, cols, r.NumRows())
}

// Filter returns a reader of the rows of r where e (boolean) is true,
// batch by batch; Close closes r.
func Filter(r alkaid.RecordReader, e *Expr) (alkaid.RecordReader, error) {
	b, err := Bind(e, r.Schema())
	if err != nil {
		return nil, err
	}
	if b.Type().Kind() != datatype.KindBool {
		return nil, errAt(e, datatype.ErrInvalid, "a filter must be boolean, not %s", b.Type())
	}
	return alkaid.NewRecordReader(r.Schema(), mapRecords(r, b.Filter), r.Close), nil
}

// Project returns a reader of the columns cols computes from the
// records of r; Close closes r.
func Project(r alkaid.RecordReader, cols []Named) (alkaid.RecordReader, error) {
	p, err := BindProjection(cols, r.Schema())
	if err != nil {
		return nil, err
	}
	return alkaid.NewRecordReader(p.Schema(), mapRecords(r, p.Eval), r.Close), nil
}

func mapRecords(r alkaid.RecordReader, f func(*alkaid.Record) (*alkaid.Record, error)) iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		for rec, err := range r.Records() {
			if err != nil {
				yield(nil, err)
				return
			}
			out, err := f(rec)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(out, nil) {
				return
			}
		}
	}
}
