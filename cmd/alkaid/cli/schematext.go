package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
)

// parseSchemaText reads a schema written one field per line as
// "name: type", with " not null" for a non-nullable field, in the syntax
// "alkaid schema" prints (its output is accepted as it is: the count line,
// metadata lines and the sections after the fields are skipped). Blank
// lines and lines starting with # are ignored. Types are written as
// datatype.ParseType reads them (the syntax DataType.String writes), e.g.
//
//	int64 utf8 timestamp[us, tz=UTC] decimal128(38, 10) fixed_size_binary[16]
//	list<item: T> struct<a: T, b: T not null> map<K, V>
//	dictionary<values=T, indices=int32> run_end_encoded<run_ends: int32, values: T>
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
		if !strings.Contains(s, ": ") {
			return nil, fmt.Errorf("schema line %d: want \"name: type\", got %s", n+1, quote.String(s))
		}
		f, err := datatype.ParseField(s)
		if err != nil {
			return nil, fmt.Errorf("schema line %d: %w", n+1, err)
		}
		fields = append(fields, f)
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
