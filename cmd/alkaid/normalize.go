package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/datatype"
)

// normalize appends v as the JSON that array.FromJSON reads for type t.
// v is a parsed JSON value, or with text set a CSV cell (a string, parsed
// here as the type needs: numbers, booleans, JSON for nested types).
// Timestamps given as text are converted to integers in the type's unit.
func normalize(b []byte, v any, t datatype.DataType, text bool, depth int) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	if depth > 100 {
		return nil, errors.New("nested deeper than 100")
	}
	st := datatype.StorageOf(t)
	k := st.Kind()
	switch k {
	case datatype.KindDictionary:
		return normalize(b, v, st.(*datatype.DictionaryType).Value, text, depth)
	case datatype.KindRunEndEncoded:
		return normalize(b, v, st.(*datatype.RunEndEncodedType).Values().Type, text, depth)
	}
	s, isString := v.(string)
	switch {
	case k == datatype.KindNull:
		return nil, fmt.Errorf("want null, got %s", describeJSON(v))
	case k == datatype.KindBool:
		switch x := v.(type) {
		case bool:
			return strconv.AppendBool(b, x), nil
		case string, json.Number:
			str := fmt.Sprint(x)
			switch strings.ToLower(strings.TrimSpace(str)) {
			case "true", "1":
				return append(b, "true"...), nil
			case "false", "0":
				return append(b, "false"...), nil
			}
		}
		return nil, fmt.Errorf("want a boolean, got %s", describeJSON(v))
	case k.IsNumeric() || k == datatype.KindDecimal32 || k == datatype.KindDecimal64 || k == datatype.KindDecimal128 || k == datatype.KindDecimal256:
		switch x := v.(type) {
		case json.Number:
			return append(b, x...), nil
		case string:
			x = strings.TrimSpace(x)
			if isJSONNumber(x) {
				return append(b, x...), nil
			}
			if k.IsFloat() {
				switch strings.ToLower(x) {
				case "nan":
					return append(b, `"NaN"`...), nil
				case "inf", "+inf", "infinity":
					return append(b, `"Inf"`...), nil
				case "-inf", "-infinity":
					return append(b, `"-Inf"`...), nil
				}
			}
		}
		return nil, fmt.Errorf("want a number (%s), got %s", t, describeJSON(v))
	case k == datatype.KindDate32 || k == datatype.KindDate64:
		switch x := v.(type) {
		case json.Number:
			return append(b, x...), nil
		case string:
			x = strings.TrimSpace(x)
			if isInteger(x) {
				return append(b, x...), nil
			}
			if _, err := time.Parse(time.DateOnly, x); err == nil {
				return appendJSONString(b, x), nil
			}
		}
		return nil, fmt.Errorf("want a date (2006-01-02), got %s", describeJSON(v))
	case k == datatype.KindTimestamp:
		switch x := v.(type) {
		case json.Number:
			return append(b, x...), nil
		case string:
			x = strings.TrimSpace(x)
			if isInteger(x) {
				return append(b, x...), nil
			}
			if ts, _, ok := parseTimestamp(x); ok {
				unit := st.(*datatype.TimestampType).Unit
				if unit == datatype.Nanosecond && (ts.Year() < 1678 || ts.Year() > 2261) {
					return nil, fmt.Errorf("timestamp %q out of the range of nanoseconds", x)
				}
				return strconv.AppendInt(b, int64(datatype.TimestampOf(ts, unit)), 10), nil
			}
		}
		return nil, fmt.Errorf("want a timestamp (RFC 3339), got %s", describeJSON(v))
	case k == datatype.KindTime32 || k == datatype.KindTime64 || k == datatype.KindDuration || k == datatype.KindMonthInterval:
		switch x := v.(type) {
		case json.Number:
			return append(b, x...), nil
		case string:
			if x = strings.TrimSpace(x); isInteger(x) {
				return append(b, x...), nil
			}
		}
		return nil, fmt.Errorf("want an integer (%s), got %s", t, describeJSON(v))
	case k == datatype.KindString || k == datatype.KindLargeString || k == datatype.KindStringView:
		if isString {
			return appendJSONString(b, s), nil
		}
		return appendJSONString(b, string(appendJSONAny(nil, v))), nil
	case k == datatype.KindBinary || k == datatype.KindLargeBinary || k == datatype.KindBinaryView || k == datatype.KindFixedSizeBinary:
		if isString {
			return appendJSONString(b, s), nil
		}
		return nil, fmt.Errorf("want a string, got %s", describeJSON(v))
	}
	// Nested and the remaining types: CSV cells hold JSON text.
	if text && isString {
		parsed, err := parseJSONText([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("want JSON for %s: %v", t, err)
		}
		v = parsed
	}
	switch k {
	case datatype.KindList, datatype.KindLargeList, datatype.KindListView, datatype.KindLargeListView, datatype.KindFixedSizeList:
		arr, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want an array, got %s", describeJSON(v))
		}
		elem := st.(*datatype.ListType).Elem().Type
		b = append(b, '[')
		for i, e := range arr {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = normalize(b, e, elem, false, depth+1); err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return append(b, ']'), nil
	case datatype.KindStruct:
		stt := st.(*datatype.StructType)
		var get func(i int) any
		switch x := v.(type) {
		case *jobj:
			for _, key := range x.keys {
				if stt.FieldIndex(key) < 0 {
					return nil, fmt.Errorf("key %q is not a field of %s", key, t)
				}
			}
			get = func(i int) any { e, _ := x.get(stt.Field(i).Name); return e }
		case []any:
			if len(x) != stt.NumFields() {
				return nil, fmt.Errorf("%d values for a struct of %d fields", len(x), stt.NumFields())
			}
			get = func(i int) any { return x[i] }
		default:
			return nil, fmt.Errorf("want an object, got %s", describeJSON(v))
		}
		b = append(b, '[')
		for i := range stt.NumFields() {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = normalize(b, get(i), stt.Field(i).Type, false, depth+1); err != nil {
				return nil, fmt.Errorf(".%s: %w", stt.Field(i).Name, err)
			}
		}
		return append(b, ']'), nil
	case datatype.KindMap:
		mt := st.(*datatype.MapType)
		var keys, items []any
		switch x := v.(type) {
		case *jobj:
			for i, key := range x.keys {
				keys, items = append(keys, key), append(items, x.vals[i])
			}
		case []any:
			for _, e := range x {
				pair, ok := e.([]any)
				if !ok || len(pair) != 2 {
					return nil, fmt.Errorf("want [key, value] pairs, got %s", describeJSON(e))
				}
				keys, items = append(keys, pair[0]), append(items, pair[1])
			}
		default:
			return nil, fmt.Errorf("want an object or [key, value] pairs, got %s", describeJSON(v))
		}
		b = append(b, '[')
		for i := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			var err error
			if b, err = normalize(b, keys[i], mt.Key().Type, true, depth+1); err != nil {
				return nil, fmt.Errorf("key %d: %w", i, err)
			}
			b = append(b, ',')
			if b, err = normalize(b, items[i], mt.Item().Type, false, depth+1); err != nil {
				return nil, fmt.Errorf("value %d: %w", i, err)
			}
			b = append(b, ']')
		}
		return append(b, ']'), nil
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		ut := st.(*datatype.UnionType)
		pair, ok := v.([]any)
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("want [type code, value], got %s", describeJSON(v))
		}
		code, err := strconv.Atoi(fmt.Sprint(pair[0]))
		child := -1
		for i, c := range ut.TypeCodes() {
			if err == nil && int(c) == code {
				child = i
			}
		}
		if child < 0 {
			return nil, fmt.Errorf("no union member with type code %v", pair[0])
		}
		b = strconv.AppendInt(append(b, '['), int64(code), 10)
		b = append(b, ',')
		if b, err = normalize(b, pair[1], ut.Field(child).Type, false, depth+1); err != nil {
			return nil, err
		}
		return append(b, ']'), nil
	}
	// Intervals of two or three parts and anything else: as given.
	return appendJSONAny(b, v), nil
}

func isInteger(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		return true
	}
	_, err = strconv.ParseUint(s, 10, 64)
	return err == nil
}

// isJSONNumber reports whether s is a number in JSON's syntax.
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	return json.Valid([]byte(s)) && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
}

// timestampLayouts are tried in order; those with a zone first.
var timestampLayouts = []struct {
	layout string
	zone   bool
}{
	{time.RFC3339Nano, true},
	{"2006-01-02 15:04:05Z07:00", true},
	{"2006-01-02T15:04:05", false},
	{"2006-01-02 15:04:05", false},
	{"2006-01-02T15:04", false},
	{"2006-01-02 15:04", false},
}

// parseTimestamp reads RFC 3339 or "2006-01-02 15:04:05[.fff]" (fractions
// allowed after the seconds; without a zone the time is UTC) and says
// whether a zone was given.
func parseTimestamp(s string) (time.Time, bool, bool) {
	if len(s) < 16 || s[4] != '-' {
		return time.Time{}, false, false
	}
	for _, l := range timestampLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			return t.UTC(), l.zone, true
		}
	}
	return time.Time{}, false, false
}
