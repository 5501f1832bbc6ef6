package ndjson

import (
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestErrorKinds: a line the schema does not fit is an error that wraps
// a sentinel, starts with "ndjson: " and names the line and the field,
// whatever part of the reader finds it (the lexer, a column's builder,
// the readers of encoded types).
func TestErrorKinds(t *testing.T) {
	field := func(name string, typ datatype.DataType, nullable bool) *alkaid.Schema {
		return alkaid.NewSchema([]datatype.Field{{Name: name, Type: typ, Nullable: nullable}}, datatype.Metadata{})
	}
	fsl, err := datatype.FixedSizeListOf(datatype.Int32, 2)
	if err != nil {
		t.Fatal(err)
	}
	union, err := datatype.NewUnion(datatype.Dense, []datatype.Field{{Name: "i", Type: datatype.Int32, Nullable: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int32, Nullable: true})
	for _, c := range []struct {
		name   string
		schema *alkaid.Schema
		opts   []Option
		line   string
		want   string // in the message
	}{
		{"null in a non-nullable field", field("x", datatype.Int32, false), nil, `{"x":null}`, "null (or missing) in a non-nullable field"},
		{"missing non-nullable field", field("x", datatype.Int32, false), nil, `{}`, "null (or missing)"},
		{"fixed-size list of another size", field("x", fsl, true), nil, `{"x":[1,2,3]}`, "3 elements, want 2"},
		{"key twice in a struct", field("x", st, true), nil, `{"x":{"a":1,"a":2}}`, `key "a" twice`},
		{"key not in a struct", field("x", st, true), nil, `{"x":{"b":1}}`, `key "b" is not in the schema`},
		{"not an object", field("x", datatype.Int32, true), nil, `[1]`, "want a JSON object"},
		{"text after the object", field("x", datatype.Int32, true), nil, `{"x":1} 2`, "text after the object"},
		{"a string for a number", field("x", datatype.Int32, true), nil, `{"x":"a"}`, `line 1`},
		{"invalid UTF-8", field("x", datatype.String, true), nil, "{\"x\":\"\xff\"}", "not valid UTF-8"},
		{"unknown union type code", field("x", union, true), nil, `{"x":{"type_code":9,"value":1}}`, "type code 9 is not one of"},
		{"unknown interval part", field("x", datatype.MonthDayNanoIntervalType, true), nil, `{"x":{"weeks":1}}`, `key "weeks" is not a part of`},
		{"interval not an object", field("x", datatype.MonthDayNanoIntervalType, true), nil, `{"x":1}`, "want an object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]Option{WithSchema(c.schema)}, c.opts...)
			_, _, err := readAll(t, []byte(c.line+"\n"), opts...)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want an error wrapping ErrInvalid", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "ndjson: ") || !strings.Contains(msg, c.want) || !strings.Contains(msg, "line 1") {
				t.Fatalf("message %q: want the prefix, the line and %q", msg, c.want)
			}
		})
	}
}
