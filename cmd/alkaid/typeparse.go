package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// parseSchemaText reads a schema written one field per line as
// "name: type", with " not null" for a non-nullable field, in the syntax
// "alkaid schema" prints (its output is accepted as it is: the count line,
// metadata lines and the sections after the fields are skipped). Blank
// lines and lines starting with # are ignored. Types:
//
//	null bool int8 … uint64 float16 float32 float64 (string = utf8)
//	utf8 large_utf8 utf8_view binary large_binary binary_view
//	date32 date64 month_interval day_time_interval month_day_nano_interval
//	time32[s] time64[us] timestamp[ms] timestamp[us, tz=UTC] duration[ns]
//	decimal128(38, 10) (also decimal32/64/256; decimal(p, s) is decimal128)
//	fixed_size_binary[16]
//	list<item: T> large_list<…> list_view<…> large_list_view<…> fixed_size_list<item: T>[3]
//	struct<a: T, b: T not null>  map<K, V>  map<K, V, keys_sorted>
//	dictionary<values=T, indices=int32> (", ordered" optional)
//	run_end_encoded<run_ends: int32, values: T>
func parseSchemaText(text string) (*alkaid.Schema, error) {
	var fields []datatype.Field
	for n, line := range strings.Split(text, "\n") {
		s := strings.TrimSpace(line)
		switch {
		case s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, `"`):
			continue
		case s == "schema metadata:" || s == "dictionaries:":
			return alkaid.NewSchema(fields, datatype.Metadata{}), nil
		case isFieldCountLine(s):
			continue
		}
		name, rest, ok := strings.Cut(s, ": ")
		if !ok {
			return nil, fmt.Errorf("schema line %d: want \"name: type\", got %q", n+1, s)
		}
		p := &typeParser{s: rest}
		t, nullable, err := p.fieldType()
		if err == nil && p.pos != len(p.s) {
			err = p.errf("unexpected text")
		}
		if err != nil {
			return nil, fmt.Errorf("schema line %d: %w", n+1, err)
		}
		fields = append(fields, datatype.Field{Name: name, Type: t, Nullable: nullable})
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("schema: no fields")
	}
	return alkaid.NewSchema(fields, datatype.Metadata{}), nil
}

// isFieldCountLine matches the first line "alkaid schema" prints, such as
// "3 fields" or "3 fields, big".
func isFieldCountLine(s string) bool {
	num, rest, ok := strings.Cut(s, " ")
	if _, err := strconv.Atoi(num); err != nil || !ok {
		return false
	}
	return rest == "fields" || rest == "field" || strings.HasPrefix(rest, "fields, ")
}

type typeParser struct {
	s   string
	pos int
}

func (p *typeParser) errf(format string, args ...any) error {
	return fmt.Errorf("at column %d of %q: %s", p.pos+1, p.s, fmt.Sprintf(format, args...))
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
		return p.errf("want %q", tok)
	}
	return nil
}

// word reads letters, digits and underscores.
func (p *typeParser) word() string {
	p.space()
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *typeParser) number() (int, error) {
	w := p.word()
	n, err := strconv.Atoi(w)
	if err != nil {
		return 0, p.errf("want a number, got %q", w)
	}
	return n, nil
}

// fieldType is a type followed by an optional "not null".
func (p *typeParser) fieldType() (datatype.DataType, bool, error) {
	t, err := p.typ()
	if err != nil {
		return nil, false, err
	}
	if p.accept("not null") {
		return t, false, nil
	}
	return t, true, nil
}

// field is "name: type [not null]"; the name runs to the colon.
func (p *typeParser) field() (datatype.Field, error) {
	p.space()
	i := strings.IndexByte(p.s[p.pos:], ':')
	if i < 0 {
		return datatype.Field{}, p.errf("want \"name: type\"")
	}
	name := p.s[p.pos : p.pos+i]
	p.pos += i + 1
	t, nullable, err := p.fieldType()
	return datatype.Field{Name: name, Type: t, Nullable: nullable}, err
}

// elem is a list element: "name: type" or just a type (named item).
func (p *typeParser) elem() (datatype.Field, error) {
	save := p.pos
	w := p.word()
	if p.accept(":") {
		p.pos = save
		return p.field()
	}
	_ = w
	p.pos = save
	t, nullable, err := p.fieldType()
	return datatype.Field{Name: "item", Type: t, Nullable: nullable}, err
}

var primitiveNames = map[string]datatype.DataType{
	"null": datatype.Null, "bool": datatype.Bool, "boolean": datatype.Bool,
	"int8": datatype.Int8, "int16": datatype.Int16, "int32": datatype.Int32, "int64": datatype.Int64,
	"uint8": datatype.Uint8, "uint16": datatype.Uint16, "uint32": datatype.Uint32, "uint64": datatype.Uint64,
	"float16": datatype.Float16Type, "float32": datatype.Float32, "float64": datatype.Float64,
	"utf8": datatype.String, "string": datatype.String, "large_utf8": datatype.LargeString,
	"large_string": datatype.LargeString, "utf8_view": datatype.StringView, "string_view": datatype.StringView,
	"binary": datatype.Binary, "large_binary": datatype.LargeBinary, "binary_view": datatype.BinaryView,
	"date32": datatype.Date32Type, "date64": datatype.Date64Type,
	"month_interval": datatype.MonthIntervalType, "day_time_interval": datatype.DayTimeIntervalType,
	"month_day_nano_interval": datatype.MonthDayNanoIntervalType,
}

var unitNames = map[string]datatype.TimeUnit{
	"s": datatype.Second, "ms": datatype.Millisecond, "us": datatype.Microsecond, "ns": datatype.Nanosecond,
}

func (p *typeParser) unit() (datatype.TimeUnit, error) {
	w := p.word()
	u, ok := unitNames[w]
	if !ok {
		return 0, p.errf("unknown time unit %q (want s, ms, us or ns)", w)
	}
	return u, nil
}

func (p *typeParser) typ() (datatype.DataType, error) {
	start := p.pos
	name := p.word()
	if t, ok := primitiveNames[name]; ok {
		return t, nil
	}
	wrap := func(t datatype.DataType, err error) (datatype.DataType, error) {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.s[start:p.pos], err)
		}
		return t, nil
	}
	switch name {
	case "time32", "time64", "timestamp", "duration":
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
			tz = strings.TrimSpace(p.s[p.pos : p.pos+end])
			p.pos += end
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		switch name {
		case "timestamp":
			return wrap(datatype.NewTimestamp(u, tz))
		case "duration":
			return wrap(datatype.NewDuration(u))
		}
		t, err := datatype.NewTime(u)
		if err == nil && (t.Kind() == datatype.KindTime32) != (name == "time32") {
			return nil, p.errf("%s cannot have unit %s", name, u)
		}
		return wrap(t, err)
	case "decimal", "decimal32", "decimal64", "decimal128", "decimal256":
		bits := 128
		if name != "decimal" {
			bits, _ = strconv.Atoi(strings.TrimPrefix(name, "decimal"))
		}
		if err := p.expect("("); err != nil {
			return nil, err
		}
		prec, err := p.number()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		scale, err := p.number()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return wrap(datatype.NewDecimal(bits, int32(prec), int32(scale)))
	case "fixed_size_binary":
		if err := p.expect("["); err != nil {
			return nil, err
		}
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return wrap(datatype.NewFixedSizeBinary(n))
	case "list", "large_list", "list_view", "large_list_view", "fixed_size_list":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		f, err := p.elem()
		if err != nil {
			return nil, err
		}
		if err := p.expect(">"); err != nil {
			return nil, err
		}
		switch name {
		case "list":
			return datatype.ListOfField(f), nil
		case "large_list":
			return datatype.LargeListOfField(f), nil
		case "list_view":
			return datatype.ListViewOfField(f), nil
		case "large_list_view":
			return datatype.LargeListViewOfField(f), nil
		}
		if err := p.expect("["); err != nil {
			return nil, err
		}
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return wrap(datatype.FixedSizeListOfField(f, int32(n)))
	case "struct":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		var fields []datatype.Field
		for !p.accept(">") {
			if len(fields) > 0 {
				if err := p.expect(","); err != nil {
					return nil, err
				}
			}
			f, err := p.field()
			if err != nil {
				return nil, err
			}
			fields = append(fields, f)
		}
		return datatype.StructOf(fields...), nil
	case "map":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		k, err := p.typ()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		v, err := p.typ()
		if err != nil {
			return nil, err
		}
		sorted := p.accept(",") && p.accept("keys_sorted")
		if err := p.expect(">"); err != nil {
			return nil, err
		}
		return datatype.MapOf(k, v, sorted), nil
	case "dictionary":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		if err := p.expect("values="); err != nil {
			return nil, err
		}
		v, err := p.typ()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		if err := p.expect("indices="); err != nil {
			return nil, err
		}
		idx, err := p.typ()
		if err != nil {
			return nil, err
		}
		ordered := p.accept(",") && p.accept("ordered")
		if err := p.expect(">"); err != nil {
			return nil, err
		}
		return wrap(datatype.NewDictionary(idx, v, ordered))
	case "run_end_encoded":
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		if err := p.expect("run_ends:"); err != nil {
			return nil, err
		}
		re, err := p.typ()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		if err := p.expect("values:"); err != nil {
			return nil, err
		}
		v, err := p.typ()
		if err != nil {
			return nil, err
		}
		if err := p.expect(">"); err != nil {
			return nil, err
		}
		return wrap(datatype.NewRunEndEncoded(re, v))
	case "":
		return nil, p.errf("want a type")
	}
	return nil, p.errf("unknown type %q", name)
}
