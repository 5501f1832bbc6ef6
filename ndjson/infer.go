package ndjson

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// inode gathers what the sample says about one field.
type inode struct {
	path                        string
	scalar                      textval.Inferrer
	objLine, arrLine, scalarLne int // first line seen as each kind (0: never)
	names                       []string
	kids                        map[string]*inode
	elem                        *inode
	keep                        func(key string) bool // root only: keys to infer (nil: all)
	fields                      *fieldCount           // shared by the tree
}

// fieldCount counts the fields of an inferred tree against the limit.
type fieldCount struct{ n, max int }

func (c *fieldCount) add() error {
	if c.n++; c.n > c.max {
		return fieldLimitError{c.max}
	}
	return nil
}

// fieldLimitError is the error of a tree past the limit; the reader
// wraps it in ErrLimit.
type fieldLimitError struct{ max int }

func (e fieldLimitError) Error() string {
	return fmt.Sprintf("more than %d fields (Limits.MaxFields raises the limit)", e.max)
}

func newInode(path string, like *textval.Inferrer, fields *fieldCount) *inode {
	return &inode{path: path, scalar: textval.Inferrer{Layouts: like.Layouts, TrimSpace: like.TrimSpace}, fields: fields}
}

func (n *inode) kid(name string) (*inode, error) {
	if k, ok := n.kids[name]; ok {
		return k, nil
	}
	if err := n.fields.add(); err != nil {
		return nil, err
	}
	if n.kids == nil {
		n.kids = map[string]*inode{}
	}
	p := name
	if n.path != "" {
		p = n.path + "." + name
	}
	k := newInode(p, &n.scalar, n.fields)
	n.kids[name] = k
	n.names = append(n.names, name)
	return k, nil
}

// observe reads one value at the lexer into the statistics.
func (n *inode) observe(l *lexer, line, depth int) error {
	if depth > maxDepth {
		return l.errf("nested deeper than %d", maxDepth)
	}
	switch c := l.peek(); c {
	case 'n':
		return l.literal("null")
	case '{':
		if n.objLine == 0 {
			n.objLine = line
		}
		l.pos++
		if l.peek() == '}' {
			l.pos++
			return nil
		}
		for {
			if l.peek() != '"' {
				return l.errf("want a key")
			}
			key, err := l.str()
			if err != nil {
				return err
			}
			if err := l.expect(':'); err != nil {
				return err
			}
			if n.keep != nil && !n.keep(string(key)) {
				if err := l.skip(depth + 1); err != nil {
					return err
				}
			} else {
				k, err := n.kid(string(key))
				if err != nil {
					return err
				}
				if err := k.observe(l, line, depth+1); err != nil {
					return err
				}
			}
			switch l.peek() {
			case ',':
				l.pos++
			case '}':
				l.pos++
				return nil
			default:
				return l.errf("want ',' or '}'")
			}
		}
	case '[':
		if n.arrLine == 0 {
			n.arrLine = line
		}
		if n.elem == nil {
			if err := n.fields.add(); err != nil {
				return err
			}
			n.elem = newInode(n.path+"[]", &n.scalar, n.fields)
		}
		l.pos++
		if l.peek() == ']' {
			l.pos++
			return nil
		}
		for {
			if err := n.elem.observe(l, line, depth+1); err != nil {
				return err
			}
			switch l.peek() {
			case ',':
				l.pos++
			case ']':
				l.pos++
				return nil
			default:
				return l.errf("want ',' or ']'")
			}
		}
	case '"':
		s, err := l.str()
		if err != nil {
			return err
		}
		n.scalarSeen(line)
		n.scalar.ObserveString(s)
	case 't', 'f':
		word := "true"
		if c == 'f' {
			word = "false"
		}
		if err := l.literal(word); err != nil {
			return err
		}
		n.scalarSeen(line)
		n.scalar.ObserveBool()
	case 0:
		return l.errf("want a value")
	default:
		num, err := l.number()
		if err != nil {
			return err
		}
		n.scalarSeen(line)
		n.scalar.ObserveNumber(num)
	}
	return nil
}

func (n *inode) scalarSeen(line int) {
	if n.scalarLne == 0 {
		n.scalarLne = line
	}
}

// typ returns the inferred type, or an error when the field's values are
// of kinds no one type holds.
func (n *inode) typ() (datatype.DataType, error) {
	kinds := 0
	var desc []string
	for _, k := range []struct {
		line int
		what string
	}{{n.objLine, "an object"}, {n.arrLine, "an array"}, {n.scalarLne, "a scalar"}} {
		if k.line > 0 {
			kinds++
			desc = append(desc, fmt.Sprintf("%s on line %d", k.what, k.line))
		}
	}
	if kinds > 1 {
		return nil, fmt.Errorf("ndjson: %w: field %s is %s and %s: no type holds both", ErrInvalid, showPath(n.path), desc[0], desc[1])
	}
	switch {
	case n.objLine > 0:
		fields := make([]datatype.Field, len(n.names))
		for i, name := range n.names {
			t, err := n.kids[name].typ()
			if err != nil {
				return nil, err
			}
			fields[i] = datatype.Field{Name: name, Type: t, Nullable: true}
		}
		return datatype.StructOf(fields...), nil
	case n.arrLine > 0:
		t, err := n.elem.typ()
		if err != nil {
			return nil, err
		}
		return datatype.ListOf(t), nil
	}
	return n.scalar.Type(), nil
}
