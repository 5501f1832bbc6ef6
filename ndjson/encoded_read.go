package ndjson

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// xcol reads the JSON forms of dictionaries, run-end encoded arrays,
// unions, maps and intervals into their builders (see the package doc).
type xcol struct {
	// dictionaries: each value is read into scratch, then encoded.
	scratch    array.Builder
	scratchCol *col
	dict       interface{ AppendArray(array.Array) error }
	// run-end encoded arrays
	ree    *array.RunEndEncodedBuilder
	reeVal *col
	// unions: the children, their type codes and JSON kinds, and
	// appenders to try a scalar text on without touching the builders.
	ub     *array.UnionBuilder
	codes  []int8
	kids   []*col
	kinds  []string
	probes []*textval.Appender
	// maps
	mb         *array.MapBuilder
	key, item  *col
	entries    *col
	stringKeys bool
	// intervals
	interval datatype.Kind
}

// supportedEncoded reports whether t is one of the types xcol reads
// (handled) and, if so, whether its parts have a JSON form.
func supportedEncoded(t datatype.DataType) (handled bool, err error) {
	switch tt := t.(type) {
	case *datatype.DictionaryType:
		return true, supported(tt.Value)
	case *datatype.RunEndEncodedType:
		return true, supported(tt.Values().Type)
	case *datatype.UnionType:
		for _, f := range tt.Fields() {
			if err := supported(f.Type); err != nil {
				return true, err
			}
		}
		return true, nil
	case *datatype.MapType:
		if err := supported(tt.Key().Type); err != nil {
			return true, err
		}
		return true, supported(tt.Item().Type)
	}
	switch t.Kind() {
	case datatype.KindMonthInterval, datatype.KindDayTimeInterval, datatype.KindMonthDayNanoInterval:
		return true, nil
	}
	return false, nil
}

// newXCol binds a column of one of the types xcol reads to b; ok is
// false for other types.
func newXCol(c *col, o *textval.Options) (ok bool, err error) {
	b, path := c.b, c.path
	if handled, _ := supportedEncoded(b.Type()); !handled {
		return false, nil
	}
	x := &xcol{}
	switch bb := b.(type) {
	case *array.RunEndEncodedBuilder:
		x.ree = bb
		if x.reeVal, err = newCol(bb.ValueBuilder(), path, true, o); err != nil {
			return true, err
		}
	case *array.UnionBuilder:
		x.ub = bb
		ut := bb.Type().(*datatype.UnionType)
		x.codes = ut.TypeCodes()
		for k := range bb.NumChildren() {
			f := ut.Field(k)
			kid, err := newCol(bb.ChildBuilder(k), path+"."+f.Name, true, o)
			if err != nil {
				return true, err
			}
			x.kids = append(x.kids, kid)
			x.kinds = append(x.kinds, jsonKinds(f.Type))
			var probe *textval.Appender
			if kid.leaf != nil {
				if probe, err = textval.NewAppender(f.Type, o); err != nil {
					return true, err
				}
			}
			x.probes = append(x.probes, probe)
		}
	case *array.MapBuilder:
		mt := bb.Type().(*datatype.MapType)
		x.mb = bb
		if x.key, err = newCol(bb.KeyBuilder(), path+".key", false, o); err != nil {
			return true, err
		}
		if x.item, err = newCol(bb.ItemBuilder(), path+".value", mt.Item().Nullable, o); err != nil {
			return true, err
		}
		x.stringKeys = isStringKey(mt.Key().Type) && x.key.leaf != nil
		x.entries = &col{path: path, kids: []*col{x.key, x.item}, names: []string{"key", "value"}}
	default:
		switch t := b.Type().(type) {
		case *datatype.DictionaryType:
			d, ok := b.(interface{ AppendArray(array.Array) error })
			if !ok {
				return false, nil
			}
			x.dict = d
			if x.scratch, err = array.TryNewBuilder(t.Value); err != nil {
				return true, err
			}
			if x.scratchCol, err = newCol(x.scratch, path, true, o); err != nil {
				return true, err
			}
		default:
			switch k := t.Kind(); k {
			case datatype.KindMonthInterval, datatype.KindDayTimeInterval, datatype.KindMonthDayNanoInterval:
				x.interval = k
			default:
				return false, nil
			}
		}
	}
	c.x = x
	return true, nil
}

// jsonKinds lists the JSON kinds a value of type t is written as: n
// number, s string, b boolean, a array, o object.
func jsonKinds(t datatype.DataType) string {
	switch tt := t.(type) {
	case *datatype.DictionaryType:
		return jsonKinds(tt.Value)
	case *datatype.RunEndEncodedType:
		return jsonKinds(tt.Values().Type)
	case *datatype.MapType:
		if isStringKey(tt.Key().Type) {
			return "o"
		}
		return "a"
	case *datatype.UnionType:
		return "nsbao"
	}
	switch k := t.Kind(); {
	case k == datatype.KindBool:
		return "b"
	case k == datatype.KindFloat16 || k == datatype.KindFloat32 || k == datatype.KindFloat64:
		return "ns" // NaN and the infinities are strings
	case k >= datatype.KindInt8 && k <= datatype.KindUint64, k == datatype.KindDuration,
		k == datatype.KindDecimal32, k == datatype.KindDecimal64, k == datatype.KindDecimal128, k == datatype.KindDecimal256:
		return "n"
	case k.IsListLike():
		return "a"
	case k == datatype.KindStruct, k == datatype.KindMonthInterval, k == datatype.KindDayTimeInterval, k == datatype.KindMonthDayNanoInterval:
		return "o"
	case k == datatype.KindNull:
		return ""
	}
	return "s"
}

// value reads a non-null value at the lexer's position.
func (x *xcol) value(c *col, l *lexer, depth int) error {
	switch {
	case x.dict != nil:
		if err := x.scratchCol.value(l, depth+1); err != nil {
			return err
		}
		if err := x.dict.AppendArray(x.scratch.NewArray()); err != nil {
			return c.fail(err)
		}
		return nil
	case x.ree != nil:
		if err := x.reeVal.value(l, depth+1); err != nil {
			return err
		}
		x.ree.Append()
		return nil
	case x.ub != nil:
		return x.union(c, l, depth)
	case x.mb != nil:
		return x.mapValue(c, l, depth)
	}
	return x.intervalValue(c, l)
}

// union appends the value to the first child that takes its JSON kind
// (and, for a scalar child, its text).
func (x *xcol) union(c *col, l *lexer, depth int) error {
	if l.peek() == '{' {
		if ok, err := x.taggedUnion(c, l, depth); ok || err != nil {
			return err
		}
	}
	kind := byte('n')
	switch l.peek() {
	case '"':
		kind = 's'
	case 't', 'f':
		kind = 'b'
	case '[':
		kind = 'a'
	case '{':
		kind = 'o'
	}
	start := l.pos
	var text []byte
	for k, kid := range x.kids {
		if strings.IndexByte(x.kinds[k], kind) < 0 {
			continue
		}
		if p := x.probes[k]; p != nil {
			if text == nil {
				var err error
				if text, err = scalarText(l); err != nil {
					return c.fail(err)
				}
			}
			if p.Append(text) != nil {
				continue
			}
			if p.Len() >= 1024 {
				p.NewArray() // the probes keep nothing
			}
			l.pos = start
		}
		x.ub.Append(x.codes[k])
		return kid.value(l, depth+1)
	}
	return c.fail(l.errf("no child of %s takes this value", x.ub.Type()))
}

// taggedUnion reads {"type_code": code, "value": v} (WithUnionTypeCodes)
// when the object at the lexer starts with the key type_code; ok is false
// (and the lexer where it was) otherwise.
func (x *xcol) taggedUnion(c *col, l *lexer, depth int) (ok bool, err error) {
	start := l.pos
	l.pos++
	if l.peek() != '"' {
		l.pos = start
		return false, nil
	}
	if key, err := l.str(); err != nil || string(key) != "type_code" {
		l.pos = start
		return false, nil
	}
	if err := l.expect(':'); err != nil {
		return true, c.fail(err)
	}
	num, err := l.number()
	if err != nil {
		return true, c.fail(err)
	}
	code, err := grammar.ParseInt(num, grammar.Options{})
	k := slices.Index(x.codes, int8(code))
	if err != nil || code != int64(int8(code)) || k < 0 {
		return true, c.fail(fmt.Errorf("type code %s is not one of %s", num, x.ub.Type()))
	}
	if err := l.expect(','); err != nil {
		return true, c.fail(err)
	}
	if key, err := l.str(); err != nil || string(key) != "value" {
		return true, c.fail(l.errf(`want the key "value"`))
	}
	if err := l.expect(':'); err != nil {
		return true, c.fail(err)
	}
	child := x.ub.Append(x.codes[k])
	if l.peek() == 'n' {
		if err := l.literal("null"); err != nil {
			return true, c.fail(err)
		}
		child.AppendNull()
	} else if err := x.kids[k].value(l, depth+1); err != nil {
		return true, err
	}
	return true, c.fail0(l.expect('}'))
}

// fail0 is fail for a possibly nil error.
func (c *col) fail0(err error) error {
	if err == nil {
		return nil
	}
	return c.fail(err)
}

// scalarText reads a JSON string, number or boolean as the leaf
// appenders take it.
func scalarText(l *lexer) ([]byte, error) {
	switch l.peek() {
	case '"':
		return l.str()
	case 't':
		return trueText, l.literal("true")
	case 'f':
		return falseText, l.literal("false")
	}
	return l.number()
}

func (x *xcol) mapValue(c *col, l *lexer, depth int) error {
	if !x.stringKeys {
		if l.peek() != '[' {
			return c.fail(l.errf("want an array of {\"key\": …, \"value\": …} objects"))
		}
		l.pos++
		x.mb.Append(true)
		if l.peek() == ']' {
			l.pos++
			return nil
		}
		for {
			if err := x.entries.object(l, depth+1, false); err != nil {
				return err
			}
			switch l.peek() {
			case ',':
				l.pos++
				continue
			case ']':
				l.pos++
				return nil
			}
			return c.fail(l.errf("want ',' or ']'"))
		}
	}
	if err := l.expect('{'); err != nil {
		return c.fail(l.errf("want an object"))
	}
	x.mb.Append(true)
	if l.peek() == '}' {
		l.pos++
		return nil
	}
	for {
		if l.peek() != '"' {
			return c.fail(l.errf("want a key"))
		}
		key, err := l.str()
		if err != nil {
			return c.fail(err)
		}
		if err := x.key.leaf.Append(key); err != nil {
			return x.key.fail(err)
		}
		if err := l.expect(':'); err != nil {
			return c.fail(err)
		}
		if err := x.item.value(l, depth+1); err != nil {
			return err
		}
		switch l.peek() {
		case ',':
			l.pos++
			continue
		case '}':
			l.pos++
			return nil
		}
		return c.fail(l.errf("want ',' or '}'"))
	}
}

// intervalParts are the keys of each interval type's object.
var intervalParts = map[datatype.Kind][]string{
	datatype.KindMonthInterval:        {"months"},
	datatype.KindDayTimeInterval:      {"days", "milliseconds"},
	datatype.KindMonthDayNanoInterval: {"months", "days", "nanoseconds"},
}

func (x *xcol) intervalValue(c *col, l *lexer) error {
	if err := l.expect('{'); err != nil {
		return c.fail(l.errf("want an object"))
	}
	names := intervalParts[x.interval]
	var parts [3]int64
	if l.peek() == '}' {
		l.pos++
	} else {
		for {
			key, err := l.str()
			if err != nil {
				return c.fail(err)
			}
			k := slices.Index(names, string(key))
			if k < 0 {
				return c.fail(fmt.Errorf("key %s is not a part of %s (%s)", quote.Bytes(key), c.b.Type(), strings.Join(names, ", ")))
			}
			if err := l.expect(':'); err != nil {
				return c.fail(err)
			}
			num, err := l.number()
			if err != nil {
				return c.fail(err)
			}
			v, err := grammar.ParseInt(num, grammar.Options{})
			if err == nil && key[0] != 'n' && int64(int32(v)) != v {
				err = grammar.ErrRange // every part but nanoseconds is 32 bits
			}
			if err != nil {
				return c.fail(fmt.Errorf("%s %s: %w", key, num, err))
			}
			parts[k] = v
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
	switch b := c.b.(type) {
	case *array.PrimitiveBuilder[datatype.MonthInterval]:
		b.Append(datatype.MonthInterval(parts[0]))
	case *array.PrimitiveBuilder[datatype.DayTimeInterval]:
		b.Append(datatype.DayTimeInterval{Days: int32(parts[0]), Milliseconds: int32(parts[1])})
	case *array.PrimitiveBuilder[datatype.MonthDayNanoInterval]:
		b.Append(datatype.MonthDayNanoInterval{Months: int32(parts[0]), Days: int32(parts[1]), Nanoseconds: parts[2]})
	}
	return nil
}
