package datatype

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/internal/quote"
)

// ParseType reads a type in the syntax [DataType.String] writes, so that
// ParseType(t.String()) is a type equal to t. What String leaves out
// cannot come back: the metadata of child fields, the names of a map's
// entries, key and value fields, and, for an extension type written as
// "extension<name, storage>", its serialized parameters (it is rebuilt
// from the storage and empty parameters). Extension types must be
// registered; one whose String carries parameters in brackets
// ("extension<name[k=v, …]>") must implement [ExtensionParser].
//
// A few spellings are accepted beside String's: string, large_string,
// string_view, boolean, and decimal(p, s) for decimal128(p, s).
//
// Errors wrap [ErrInvalid] and name the column where reading stopped.
func ParseType(s string) (DataType, error) {
	p := &typeParser{s: s}
	t, err := p.typ(0)
	if err == nil {
		p.space()
		if p.pos != len(p.s) {
			err = p.errf("unexpected text after the type")
		}
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ParseField reads a field in the syntax [Field.String] writes:
// "name: type", with " not null" for a field that is not nullable. The
// name runs to the first ": ".
func ParseField(s string) (Field, error) {
	p := &typeParser{s: s}
	f, err := p.field(0)
	if err == nil {
		p.space()
		if p.pos != len(p.s) {
			err = p.errf("unexpected text after the field")
		}
	}
	if err != nil {
		return Field{}, err
	}
	return f, nil
}

// maxParseDepth bounds the nesting ParseType follows, so that hostile text
// cannot exhaust the stack.
const maxParseDepth = 64

type typeParser struct {
	s   string
	pos int
}

// errf reports a fault at the current column. The text is quoted with a
// bound (see package quote), with the part at the column when the start
// shown does not reach it.
func (p *typeParser) errf(format string, args ...any) error {
	near := ""
	if len(p.s) > quote.Max && p.pos > quote.Max/2 {
		near = " (at " + quote.String(p.s[p.pos:]) + ")"
	}
	return fmt.Errorf("datatype: %w: type %s at column %d%s: %s", ErrInvalid, quote.String(p.s), p.pos+1, near, fmt.Sprintf(format, args...))
}

func (p *typeParser) space() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

// accept consumes tok (after spaces) if it comes next.
func (p *typeParser) accept(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *typeParser) expect(tok string) error {
	if !p.accept(tok) {
		return p.errf("want %s", quote.String(tok))
	}
	return nil
}

// word reads letters, digits, underscores and dots.
func (p *typeParser) word() string {
	p.space()
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '_' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *typeParser) number() (int, error) {
	w := p.word()
	n, err := strconv.ParseInt(w, 10, 32)
	if err != nil {
		return 0, p.errf("want a number, got %s", quote.String(w))
	}
	return int(n), nil
}

// bracketed reads "open number close", as in "[16]" or "(38".
func (p *typeParser) bracketed(open, close string) (int, error) {
	if err := p.expect(open); err != nil {
		return 0, err
	}
	n, err := p.number()
	if err != nil {
		return 0, err
	}
	return n, p.expect(close)
}

// field is "name: type [not null]"; the name runs to the first colon
// followed by a space (the first colon if none is).
func (p *typeParser) field(depth int) (Field, error) {
	p.space()
	i := strings.Index(p.s[p.pos:], ": ")
	if i < 0 {
		i = strings.IndexByte(p.s[p.pos:], ':')
	}
	if i < 0 {
		return Field{}, p.errf("want \"name: type\"")
	}
	name := p.s[p.pos : p.pos+i]
	p.pos += i + 1
	t, err := p.typ(depth)
	if err != nil {
		return Field{}, err
	}
	return Field{Name: name, Type: t, Nullable: !p.accept("not null")}, nil
}

// fields reads "field, field, …" up to and including the closing ">".
func (p *typeParser) fields(depth int, code bool) ([]Field, []int8, error) {
	var fields []Field
	var codes []int8
	for !p.accept(">") {
		if len(fields) > 0 {
			if err := p.expect(","); err != nil {
				return nil, nil, err
			}
		}
		f, err := p.field(depth)
		if err != nil {
			return nil, nil, err
		}
		fields = append(fields, f)
		if code {
			if err := p.expect("="); err != nil {
				return nil, nil, err
			}
			n, err := p.number()
			if err != nil {
				return nil, nil, err
			}
			if n < -128 || n > 127 {
				return nil, nil, p.errf("type code %d out of range", n)
			}
			codes = append(codes, int8(n))
		}
	}
	return fields, codes, nil
}

var parseNames = map[string]DataType{
	"null": Null, "bool": Bool, "boolean": Bool,
	"int8": Int8, "int16": Int16, "int32": Int32, "int64": Int64,
	"uint8": Uint8, "uint16": Uint16, "uint32": Uint32, "uint64": Uint64,
	"float16": Float16Type, "float32": Float32, "float64": Float64,
	"utf8": String, "string": String, "large_utf8": LargeString, "large_string": LargeString,
	"utf8_view": StringView, "string_view": StringView,
	"binary": Binary, "large_binary": LargeBinary, "binary_view": BinaryView,
	"date32": Date32Type, "date64": Date64Type,
	"month_interval": MonthIntervalType, "day_time_interval": DayTimeIntervalType,
	"month_day_nano_interval": MonthDayNanoIntervalType,
}

var parseUnits = map[string]TimeUnit{"s": Second, "ms": Millisecond, "us": Microsecond, "ns": Nanosecond}

func (p *typeParser) unit() (TimeUnit, error) {
	w := p.word()
	u, ok := parseUnits[w]
	if !ok {
		return 0, p.errf("unknown time unit %s (want s, ms, us or ns)", quote.String(w))
	}
	return u, nil
}

// check turns the error of a constructor into one that says where.
func (p *typeParser) check(t DataType, err error) (DataType, error) {
	if err != nil {
		return nil, p.errf("%v", err)
	}
	return t, nil
}

func (p *typeParser) typ(depth int) (DataType, error) {
	if depth > maxParseDepth {
		return nil, p.errf("nested deeper than %d", maxParseDepth)
	}
	p.space()
	start := p.pos
	name := p.word()
	if t, ok := parseNames[name]; ok {
		return t, nil
	}
	switch name {
	case "time32", "time64", "timestamp", "duration":
		return p.temporal(name)
	case "decimal", "decimal32", "decimal64", "decimal128", "decimal256":
		bits := 128
		if name != "decimal" {
			bits, _ = strconv.Atoi(strings.TrimPrefix(name, "decimal"))
		}
		prec, err := p.bracketed("(", ",")
		if err != nil {
			return nil, err
		}
		scale, err := p.number()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return p.check(NewDecimal(bits, int32(prec), int32(scale)))
	case "fixed_size_binary":
		n, err := p.bracketed("[", "]")
		if err != nil {
			return nil, err
		}
		return p.check(NewFixedSizeBinary(n))
	case "list", "large_list", "list_view", "large_list_view", "fixed_size_list":
		return p.list(name, depth)
	case "struct":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		fields, _, err := p.fields(depth+1, false)
		if err != nil {
			return nil, err
		}
		return StructOf(fields...), nil
	case "sparse_union", "dense_union":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		fields, codes, err := p.fields(depth+1, true)
		if err != nil {
			return nil, err
		}
		mode := Sparse
		if name == "dense_union" {
			mode = Dense
		}
		return p.check(NewUnion(mode, fields, codes))
	case "map", "dictionary", "run_end_encoded":
		return p.pair(name, depth)
	case "extension":
		return p.extension(depth)
	case "":
		return nil, p.errf("want a type")
	}
	p.pos = start
	return nil, p.errf("unknown type %s", quote.String(name))
}

// temporal reads the bracketed unit (and time zone) of a time, timestamp
// or duration type.
func (p *typeParser) temporal(name string) (DataType, error) {
	if err := p.expect("["); err != nil {
		return nil, err
	}
	u, err := p.unit()
	if err != nil {
		return nil, err
	}
	tz := ""
	if name == "timestamp" && p.accept(",") {
		if err := p.expect("tz="); err != nil {
			return nil, err
		}
		end := strings.IndexByte(p.s[p.pos:], ']')
		if end < 0 {
			return nil, p.errf("want \"]\"")
		}
		tz = p.s[p.pos : p.pos+end]
		p.pos += end
	}
	if err := p.expect("]"); err != nil {
		return nil, err
	}
	switch name {
	case "timestamp":
		return p.check(NewTimestamp(u, tz))
	case "duration":
		return p.check(NewDuration(u))
	}
	t, err := NewTime(u)
	if err == nil && (t.Kind() == KindTime32) != (name == "time32") {
		return nil, p.errf("%s cannot have unit %s", name, u)
	}
	return p.check(t, err)
}

// list reads the element of a list type: "name: type" as String writes
// it, or a bare type (an element named "item").
func (p *typeParser) list(name string, depth int) (DataType, error) {
	if err := p.expect("<"); err != nil {
		return nil, err
	}
	var f Field
	var err error
	if i := strings.IndexAny(p.s[p.pos:], ":<[(,>"); i >= 0 && p.s[p.pos+i] == ':' {
		f, err = p.field(depth + 1)
	} else {
		var t DataType
		t, err = p.typ(depth + 1)
		f = Field{Name: "item", Type: t, Nullable: !p.accept("not null")}
	}
	if err != nil {
		return nil, err
	}
	if err := p.expect(">"); err != nil {
		return nil, err
	}
	switch name {
	case "list":
		return ListOfField(f), nil
	case "large_list":
		return LargeListOfField(f), nil
	case "list_view":
		return ListViewOfField(f), nil
	case "large_list_view":
		return LargeListViewOfField(f), nil
	}
	n, err := p.bracketed("[", "]")
	if err != nil {
		return nil, err
	}
	return p.check(FixedSizeListOfField(f, int32(n)))
}

// pair reads the two-type forms: map<K, V[, keys_sorted]>,
// dictionary<values=V, indices=I[, ordered]> and
// run_end_encoded<run_ends: R, values: V>.
func (p *typeParser) pair(name string, depth int) (DataType, error) {
	first, second, flag := "", ",", ""
	switch name {
	case "map":
		flag = "keys_sorted"
	case "dictionary":
		first, second, flag = "values=", ", indices=", "ordered"
	case "run_end_encoded":
		first, second = "run_ends:", ", values:"
	}
	if err := p.expect("<" + first); err != nil {
		return nil, err
	}
	a, err := p.typ(depth + 1)
	if err != nil {
		return nil, err
	}
	if err := p.expect(second); err != nil {
		return nil, err
	}
	b, err := p.typ(depth + 1)
	if err != nil {
		return nil, err
	}
	set := flag != "" && p.accept(",")
	if set {
		if err := p.expect(flag); err != nil {
			return nil, err
		}
	}
	if err := p.expect(">"); err != nil {
		return nil, err
	}
	switch name {
	case "map":
		return MapOf(a, b, set), nil
	case "dictionary":
		return p.check(NewDictionary(b, a, set))
	}
	return p.check(NewRunEndEncoded(a, b))
}
