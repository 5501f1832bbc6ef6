package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
)

// maxDepth bounds the nesting of a parsed expression.
const maxDepth = 200

// Parse reads an expression in the SQL-like text syntax of the package
// documentation. An error is a *SyntaxError with the byte offset of the
// offending token.
func Parse(text string) (*Expr, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.fail(t, "unexpected %s after the expression", describe(t))
	}
	return e, nil
}

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(t token, format string, args ...any) error {
	return &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf(format, args...), err: datatype.ErrInvalid}
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of text"
	case tString:
		return "string " + quoteString(t.text)
	case tQuoted:
		return "identifier " + strconv.Quote(t.text)
	}
	return strconv.Quote(t.text)
}

// isKw reports whether t is the keyword kw (case-insensitive).
func isKw(t token, kw string) bool { return t.kind == tIdent && strings.EqualFold(t.text, kw) }

func (p *parser) accept(kw string) bool {
	if isKw(p.peek(), kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) acceptOp(op string) bool {
	if t := p.peek(); t.kind == tOp && t.text == op {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectOp(op string) error {
	if !p.acceptOp(op) {
		t := p.peek()
		return p.fail(t, "expected %q, found %s", op, describe(t))
	}
	return nil
}

func (p *parser) expectKw(kw string) error {
	if !p.accept(kw) {
		t := p.peek()
		return p.fail(t, "expected %s, found %s", kw, describe(t))
	}
	return nil
}

func at(e *Expr, pos int) *Expr {
	e.pos = pos
	return e
}

func (p *parser) expr() (*Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		t := p.peek()
		return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("expression nested more than %d deep", maxDepth), err: datatype.ErrLimit}
	}
	return p.or()
}

func (p *parser) or() (*Expr, error) {
	a, err := p.and()
	for err == nil {
		t := p.peek()
		if !p.accept("OR") {
			break
		}
		var b *Expr
		if b, err = p.and(); err == nil {
			a = at(Call("or", a, b), t.pos)
		}
	}
	return a, err
}

func (p *parser) and() (*Expr, error) {
	a, err := p.not()
	for err == nil {
		t := p.peek()
		if !p.accept("AND") {
			break
		}
		var b *Expr
		if b, err = p.not(); err == nil {
			a = at(Call("and", a, b), t.pos)
		}
	}
	return a, err
}

func (p *parser) not() (*Expr, error) {
	t := p.peek()
	if p.accept("NOT") {
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("expression nested more than %d deep", maxDepth), err: datatype.ErrLimit}
		}
		a, err := p.not()
		if err != nil {
			return nil, err
		}
		return at(Call("not", a), t.pos), nil
	}
	return p.comparison()
}

var cmpOps = map[string]string{"=": "equal", "==": "equal", "<>": "not_equal", "!=": "not_equal",
	"<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal"}

func (p *parser) comparison() (*Expr, error) {
	a, err := p.concat()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind == tOp {
		if fn, ok := cmpOps[t.text]; ok {
			p.i++
			b, err := p.concat()
			if err != nil {
				return nil, err
			}
			return at(Call(fn, a, b), t.pos), nil
		}
	}
	if p.accept("IS") {
		neg := p.accept("NOT")
		if err := p.expectKw("NULL"); err != nil {
			return nil, err
		}
		if neg {
			return at(Call("is_valid", a), t.pos), nil
		}
		return at(Call("is_null", a), t.pos), nil
	}
	neg := false
	if next := p.toks[min(p.i+1, len(p.toks)-1)]; isKw(t, "NOT") &&
		(isKw(next, "IN") || isKw(next, "BETWEEN") || isKw(next, "LIKE") || isKw(next, "ILIKE")) {
		p.i++
		neg = true
	}
	var e *Expr
	switch {
	case p.accept("IN"):
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		args := []*Expr{a}
		for {
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			args = append(args, v)
			if !p.acceptOp(",") {
				break
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		e = at(Call("is_in", args...), t.pos)
	case p.accept("BETWEEN"):
		lo, err := p.concat()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("AND"); err != nil {
			return nil, err
		}
		hi, err := p.concat()
		if err != nil {
			return nil, err
		}
		e = at(Call("between", a, lo, hi), t.pos)
	case isKw(p.peek(), "LIKE") || isKw(p.peek(), "ILIKE"):
		fn := strings.ToLower(p.next().text)
		pat, err := p.concat()
		if err != nil {
			return nil, err
		}
		args := []*Expr{a, pat}
		if p.accept("ESCAPE") {
			esc, err := p.concat()
			if err != nil {
				return nil, err
			}
			args = append(args, esc)
		}
		e = at(Call(fn, args...), t.pos)
	default:
		return a, nil
	}
	if neg {
		e = at(Call("not", e), t.pos)
	}
	return e, nil
}

func (p *parser) concat() (*Expr, error) {
	a, err := p.additive()
	for err == nil {
		t := p.peek()
		if !p.acceptOp("||") {
			break
		}
		var b *Expr
		if b, err = p.additive(); err == nil {
			a = at(Call("string_concat", a, b), t.pos)
		}
	}
	return a, err
}

func (p *parser) additive() (*Expr, error) {
	a, err := p.multiplicative()
	for err == nil {
		t := p.peek()
		fn := ""
		switch {
		case p.acceptOp("+"):
			fn = "add_checked"
		case p.acceptOp("-"):
			fn = "subtract_checked"
		default:
			return a, nil
		}
		var b *Expr
		if b, err = p.multiplicative(); err == nil {
			a = at(Call(fn, a, b), t.pos)
		}
	}
	return a, err
}

func (p *parser) multiplicative() (*Expr, error) {
	a, err := p.unary()
	for err == nil {
		t := p.peek()
		fn := ""
		switch {
		case p.acceptOp("*"):
			fn = "multiply_checked"
		case p.acceptOp("/"):
			fn = "divide"
		case p.acceptOp("//"):
			fn = "integer_divide"
		case p.acceptOp("%"):
			fn = "modulo"
		default:
			return a, nil
		}
		var b *Expr
		if b, err = p.unary(); err == nil {
			a = at(Call(fn, a, b), t.pos)
		}
	}
	return a, err
}

func (p *parser) unary() (*Expr, error) {
	t := p.peek()
	if p.acceptOp("-") || p.acceptOp("+") {
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("expression nested more than %d deep", maxDepth), err: datatype.ErrLimit}
		}
		if t.text == "-" {
			if n := p.peek(); n.kind == tInt || n.kind == tFloat {
				// A negative number is one literal (so that -9223372036854775808 is).
				p.i++
				lit, err := p.number(n, "-")
				if err != nil {
					return nil, err
				}
				return p.casts(lit)
			}
		}
		a, err := p.unary()
		if err != nil || t.text == "+" {
			return a, err
		}
		return at(Call("negate_checked", a), t.pos), nil
	}
	return p.postfix()
}

func (p *parser) postfix() (*Expr, error) {
	a, err := p.primary()
	if err != nil {
		return nil, err
	}
	return p.casts(a)
}

// casts applies the ::type casts that follow a.
func (p *parser) casts(a *Expr) (*Expr, error) {
	var err error
	for err == nil {
		t := p.peek()
		if !p.acceptOp("::") {
			break
		}
		var typ datatype.DataType
		if typ, err = p.typ(); err == nil {
			a = at(Cast(a, typ), t.pos)
		}
	}
	return a, err
}

func (p *parser) number(t token, sign string) (*Expr, error) {
	text := sign + t.text
	if t.kind == tInt {
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return at(Lit(v), t.pos), nil
		}
		if v, err := strconv.ParseUint(text, 10, 64); err == nil {
			return at(Lit(v), t.pos), nil
		}
		return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("integer %s does not fit 64 bits", text), err: datatype.ErrLimit}
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("number %s is out of range", text), err: datatype.ErrLimit}
	}
	return at(Lit(v), t.pos), nil
}

func (p *parser) primary() (*Expr, error) {
	t := p.next()
	switch t.kind {
	case tInt, tFloat:
		return p.number(t, "")
	case tString:
		return at(Lit(t.text), t.pos), nil
	case tQuoted:
		return p.path(t)
	case tOp:
		if t.text == "(" {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			return e, p.expectOp(")")
		}
		return nil, p.fail(t, "unexpected %s", describe(t))
	case tEOF:
		return nil, p.fail(t, "unexpected end of text")
	}
	up := strings.ToUpper(t.text)
	switch up {
	case "NULL":
		return at(Lit(nil), t.pos), nil
	case "TRUE", "FALSE":
		return at(Lit(up == "TRUE"), t.pos), nil
	case "CASE":
		return p.caseExpr(t)
	case "CAST", "TRY_CAST":
		if up == "TRY_CAST" {
			return nil, p.fail(t, "TRY_CAST is not supported")
		}
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("AS"); err != nil {
			return nil, err
		}
		typ, err := p.typ()
		if err != nil {
			return nil, err
		}
		return at(Cast(a, typ), t.pos), p.expectOp(")")
	case "INTERVAL":
		// INTERVAL '3 days' or INTERVAL 3 DAY: the function interval.
		if s := p.peek(); s.kind == tString {
			p.i++
			return at(Call("interval", at(Lit(s.text), s.pos)), t.pos), nil
		}
		if n := p.peek(); n.kind == tInt && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tIdent {
			p.i += 2
			return at(Call("interval", at(Lit(n.text+" "+p.toks[p.i-1].text), n.pos)), t.pos), nil
		}
	case "EXTRACT":
		// EXTRACT(part FROM x): date_part('part', x).
		if p.peek().kind == tOp && p.peek().text == "(" && p.i+2 < len(p.toks) && isKw(p.toks[p.i+2], "FROM") {
			p.i++
			part := p.next()
			if part.kind != tIdent && part.kind != tString {
				return nil, p.fail(part, "expected a part such as year, found %s", describe(part))
			}
			p.i++ // FROM
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			return at(Call("date_part", at(Lit(strings.ToLower(part.text)), part.pos), x), t.pos), p.expectOp(")")
		}
	case "POSITION":
		// POSITION(needle IN haystack): strpos(haystack, needle).
		if p.peek().kind == tOp && p.peek().text == "(" {
			start := p.i
			p.i++
			needle, err := p.concat()
			if err == nil && p.accept("IN") {
				haystack, err := p.expr()
				if err != nil {
					return nil, err
				}
				return at(Call("strpos", haystack, needle), t.pos), p.expectOp(")")
			}
			p.i = start // not this form: a call of a function position
		}
	case "DATE", "TIMESTAMP", "TIMESTAMPTZ":
		if s := p.peek(); s.kind == tString {
			// A typed literal: DATE '2024-01-01'.
			p.i++
			return at(Cast(at(Lit(s.text), s.pos), duckNames[up]), t.pos), nil
		}
	}
	if keywords[up] {
		return nil, p.fail(t, "unexpected keyword %s", up)
	}
	if p.acceptOp("(") {
		return p.call(t)
	}
	return p.path(t)
}

func (p *parser) path(first token) (*Expr, error) {
	path := []string{first.text}
	for p.acceptOp(".") {
		t := p.next()
		if t.kind != tIdent && t.kind != tQuoted {
			return nil, p.fail(t, "expected a field name after '.', found %s", describe(t))
		}
		path = append(path, t.text)
	}
	return at(Field(path...), first.pos), nil
}

func (p *parser) call(name token) (*Expr, error) {
	var args []*Expr
	if !p.acceptOp(")") {
		for {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if !p.acceptOp(",") {
				break
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	return at(Call(name.text, args...), name.pos), nil
}

func (p *parser) caseExpr(t token) (*Expr, error) {
	var subject *Expr
	if !isKw(p.peek(), "WHEN") {
		var err error
		if subject, err = p.expr(); err != nil {
			return nil, err
		}
	}
	var conds, thens []*Expr
	for {
		w := p.peek()
		if !p.accept("WHEN") {
			break
		}
		c, err := p.expr()
		if err != nil {
			return nil, err
		}
		if subject != nil {
			c = at(Call("equal", subject, c), w.pos)
		}
		if err := p.expectKw("THEN"); err != nil {
			return nil, err
		}
		r, err := p.expr()
		if err != nil {
			return nil, err
		}
		conds, thens = append(conds, c), append(thens, r)
	}
	if len(conds) == 0 {
		nt := p.peek()
		return nil, p.fail(nt, "expected WHEN, found %s", describe(nt))
	}
	var otherwise *Expr
	if p.accept("ELSE") {
		var err error
		if otherwise, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if err := p.expectKw("END"); err != nil {
		return nil, err
	}
	return at(CaseWhen(conds, thens, otherwise), t.pos), nil
}
