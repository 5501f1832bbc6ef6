package ndjson

import (
	"errors"
	"fmt"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// col appends JSON values to a builder of one field, recursively.
type col struct {
	path     string // for errors: a.b[]
	nullable bool
	b        array.Builder
	leaf     *textval.Appender
	// structs
	kids  []*col
	names []string
	index map[string]int // name → kid, for structs of many fields
	dups  bool           // a name is repeated
	sb    *array.StructBuilder
	// lists
	elem  *col
	start func(valid bool)
	size  int // fixed-size lists
	// dictionaries, run-end encoded arrays, unions, maps, intervals
	x *xcol
}

// supported reports whether t has a JSON form here (nil) or why not.
func supported(t datatype.DataType) error {
	if handled, err := supportedEncoded(t); handled {
		return err
	}
	switch tt := t.(type) {
	case *datatype.StructType:
		for _, f := range tt.Fields() {
			if err := supported(f.Type); err != nil {
				return err
			}
		}
		return nil
	case *datatype.ListType:
		switch tt.Kind() {
		case datatype.KindList, datatype.KindLargeList, datatype.KindFixedSizeList, datatype.KindListView, datatype.KindLargeListView:
			return supported(tt.Elem().Type)
		}
		return fmt.Errorf("%s has no JSON form here", t)
	}
	if err := textval.Supported(t); err != nil {
		return fmt.Errorf("%s has no JSON form here", t)
	}
	return nil
}

// newCol binds a column tree to b.
func newCol(b array.Builder, path string, nullable bool, o *textval.Options) (*col, error) {
	c := &col{path: path, nullable: nullable, b: b}
	if ok, err := newXCol(c, o); ok || err != nil {
		return c, err
	}
	switch t := b.Type().(type) {
	case *datatype.StructType:
		sb := b.(*array.StructBuilder)
		c.sb = sb
		for i, f := range t.Fields() {
			k, err := newCol(sb.FieldBuilder(i), path+"."+f.Name, f.Nullable, o)
			if err != nil {
				return nil, err
			}
			c.kids = append(c.kids, k)
			c.names = append(c.names, f.Name)
		}
		c.indexNames()
		return c, nil
	case *datatype.ListType:
		var vb array.Builder
		switch lb := b.(type) {
		case *array.ListBuilder[int32]:
			vb, c.start = lb.ValueBuilder(), lb.Append
		case *array.ListBuilder[int64]:
			vb, c.start = lb.ValueBuilder(), lb.Append
		case *array.ListViewBuilder[int32]:
			vb, c.start = lb.ValueBuilder(), lb.Append
		case *array.ListViewBuilder[int64]:
			vb, c.start = lb.ValueBuilder(), lb.Append
		case *array.FixedSizeListBuilder:
			vb, c.start, c.size = lb.ValueBuilder(), lb.Append, lb.Size()
		default:
			return nil, fmt.Errorf("ndjson: %w: %s: %s has no JSON form here", ErrNotSupported, path, t)
		}
		e, err := newCol(vb, path+"[]", t.Elem().Nullable, o)
		if err != nil {
			return nil, err
		}
		c.elem = e
		return c, nil
	}
	leaf, err := textval.Bind(b, o)
	if err != nil {
		return nil, fmt.Errorf("ndjson: %w: %s: %v", ErrNotSupported, path, err)
	}
	c.leaf = leaf
	return c, nil
}

// The texts of the JSON booleans, as the leaf appenders read them.
var trueText, falseText = []byte("true"), []byte("false")

// errAt is an error about a value of a field; the reader adds the line.
type errAt struct {
	path string
	err  error
}

func (e *errAt) Error() string {
	if e.path == "" {
		return e.err.Error() // the row object itself
	}
	return fmt.Sprintf("field %s: %v", showPath(e.path), e.err)
}

// showPath is a field's path as errors name it: as it is, or quoted and
// cut when it is long (its names are keys read from the input).
func showPath(path string) string {
	if len(path) > quote.Max {
		return quote.String(path)
	}
	return path
}
func (e *errAt) Unwrap() error { return e.err }

func (c *col) fail(err error) error {
	var ea *errAt
	if errors.As(err, &ea) {
		return err
	}
	return &errAt{path: c.path, err: err}
}

func (c *col) appendNull() error {
	if !c.nullable {
		return c.fail(errors.New("null (or missing) in a non-nullable field"))
	}
	if c.size > 0 {
		// A null fixed-size list still holds size child slots.
		c.start(false)
		c.elem.b.AppendEmptyValues(c.size)
		return nil
	}
	c.b.AppendNull()
	return nil
}

// value appends the value at the lexer's position.
func (c *col) value(l *lexer, depth int) error {
	if depth > maxDepth {
		return c.fail(l.errf("nested deeper than %d", maxDepth))
	}
	switch ch := l.peek(); {
	case ch == 'n':
		if err := l.literal("null"); err != nil {
			return c.fail(err)
		}
		return c.appendNull()
	case c.x != nil:
		return c.x.value(c, l, depth)
	case c.sb != nil:
		if ch != '{' {
			return c.fail(l.errf("want an object"))
		}
		c.sb.Append(true)
		return c.object(l, depth, false)
	case c.elem != nil:
		if ch != '[' {
			return c.fail(l.errf("want an array"))
		}
		return c.array(l, depth)
	}
	var text []byte
	var err error
	switch ch := l.peek(); ch {
	case '"':
		text, err = l.str()
	case 't':
		err = l.literal("true")
		text = trueText
	case 'f':
		err = l.literal("false")
		text = falseText
	case '{', '[':
		return c.fail(l.errf("want a scalar, got an object or array"))
	case 0:
		return c.fail(l.errf("want a value"))
	default:
		text, err = l.number()
	}
	if err != nil {
		return c.fail(err)
	}
	if err := c.leaf.Append(text); err != nil {
		return c.fail(err)
	}
	return nil
}

func (c *col) array(l *lexer, depth int) error {
	l.pos++
	c.start(true)
	n := 0
	if l.peek() == ']' {
		l.pos++
	} else {
		for {
			if err := c.elem.value(l, depth+1); err != nil {
				return err
			}
			n++
			switch l.peek() {
			case ',':
				l.pos++
				continue
			case ']':
				l.pos++
			default:
				return c.fail(l.errf("want ',' or ']'"))
			}
			break
		}
	}
	if c.size > 0 && n != c.size {
		return c.fail(fmt.Errorf("%d elements, want %d", n, c.size))
	}
	return nil
}

// scanNames is the most fields of a struct whose keys are looked up by
// scanning the names; more are looked up in a map.
const scanNames = 16

// indexNames maps the names to their first index, if there are more than
// scanNames, and notes whether a name is repeated.
func (c *col) indexNames() {
	seen := make(map[string]int, len(c.names))
	for i, n := range c.names {
		if _, dup := seen[n]; dup {
			c.dups = true
			continue
		}
		seen[n] = i
	}
	if len(c.names) > scanNames {
		c.index = seen
	}
}

// kid returns the index of the first field named key, -1 if none. Lines
// usually hold the keys in the same order, so the field at hint (the one
// after the previous key's) is tried first.
func (c *col) kid(key []byte, hint int) int {
	if hint < len(c.names) && !c.dups && c.names[hint] == string(key) {
		return hint
	}
	if c.index != nil {
		if i, ok := c.index[string(key)]; ok {
			return i
		}
		return -1
	}
	for i, n := range c.names {
		if n == string(key) {
			return i
		}
	}
	return -1
}

// object reads an object into the kids (top is the row object: unknown
// keys are skipped when skipUnknown, else an error).
func (c *col) object(l *lexer, depth int, skipUnknown bool) error {
	if err := l.expect('{'); err != nil {
		return c.fail(err)
	}
	var seenSmall [64]bool
	seen := seenSmall[:0]
	if len(c.kids) > 64 {
		seen = make([]bool, len(c.kids))
	} else {
		seen = seenSmall[:len(c.kids)]
	}
	if l.peek() == '}' {
		l.pos++
	} else {
		hint := 0
		for {
			if l.peek() != '"' {
				return c.fail(l.errf("want a key"))
			}
			key, err := l.str()
			if err != nil {
				return c.fail(err)
			}
			k := c.kid(key, hint)
			hint = k + 1
			if err := l.expect(':'); err != nil {
				return c.fail(err)
			}
			switch {
			case k >= 0 && seen[k]:
				return c.fail(fmt.Errorf("key %s twice", quote.Bytes(key)))
			case k >= 0:
				seen[k] = true
				if err := c.kids[k].value(l, depth+1); err != nil {
					return err
				}
			case skipUnknown:
				if err := l.skip(depth + 1); err != nil {
					return c.fail(err)
				}
			default:
				return c.fail(fmt.Errorf("key %s is not in the schema", quote.Bytes(key)))
			}
			switch l.peek() {
			case ',':
				l.pos++
				continue
			case '}':
				l.pos++
			default:
				return c.fail(l.errf("want ',' or '}'"))
			}
			break
		}
	}
	for i, s := range seen {
		if !s {
			if err := c.kids[i].appendNull(); err != nil {
				return err
			}
		}
	}
	return nil
}
