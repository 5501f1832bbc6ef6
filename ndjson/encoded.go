package ndjson

import (
	"strconv"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// encodedEncoder returns the encoder of the types with no scalar text of
// their own (see the package doc), or nil for other types.
func encodedEncoder(a array.Array, path string, cfg *writerConfig) (enc, error) {
	switch aa := a.(type) {
	case *array.Dictionary:
		vals := aa.Dictionary()
		e, err := encoder(vals, path, cfg)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, i int) ([]byte, error) { return cfg.nullOr(dst, vals, e, aa.ValueIndex(i)) }, nil
	case *array.RunEndEncoded:
		vals := aa.Values()
		e, err := encoder(vals, path, cfg)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, i int) ([]byte, error) { return cfg.nullOr(dst, vals, e, aa.PhysicalIndex(i)) }, nil
	case *array.Union:
		kids := make([]enc, aa.NumChildren())
		ut := aa.DataType().(*datatype.UnionType)
		for k := range kids {
			e, err := encoder(aa.Child(k), path+"."+ut.Field(k).Name, cfg)
			if err != nil {
				return nil, err
			}
			kids[k] = e
		}
		if cfg.unionCodes {
			return func(dst []byte, i int) ([]byte, error) {
				k := aa.ChildIndex(i)
				dst = strconv.AppendInt(append(dst, `{"type_code":`...), int64(aa.TypeCode(i)), 10)
				dst, err := cfg.nullOr(append(dst, `,"value":`...), aa.Child(k), kids[k], aa.ValueOffset(i))
				return append(dst, '}'), err
			}, nil
		}
		return func(dst []byte, i int) ([]byte, error) {
			k := aa.ChildIndex(i)
			return cfg.nullOr(dst, aa.Child(k), kids[k], aa.ValueOffset(i))
		}, nil
	case *array.Map:
		return mapEncoder(aa, path, cfg)
	case *array.MonthInterval:
		return func(dst []byte, i int) ([]byte, error) {
			return grammar.AppendMonthInterval(dst, int32(aa.Value(i))), nil
		}, nil
	case *array.DayTime:
		return func(dst []byte, i int) ([]byte, error) {
			v := aa.Value(i)
			return grammar.AppendDayTimeInterval(dst, v.Days, v.Milliseconds), nil
		}, nil
	case *array.MonthDayNano:
		return func(dst []byte, i int) ([]byte, error) {
			v := aa.Value(i)
			return grammar.AppendMonthDayNanoInterval(dst, v.Months, v.Days, v.Nanoseconds), nil
		}, nil
	}
	return nil, nil
}

// mapEncoder writes a map as an object when its keys are strings, else
// as an array of {"key": k, "value": v} objects.
func mapEncoder(a *array.Map, path string, cfg *writerConfig) (enc, error) {
	keys, items := a.Keys(), a.Items()
	ke, err := encoder(keys, path+".key", cfg)
	if err != nil {
		return nil, err
	}
	ie, err := encoder(items, path+".value", cfg)
	if err != nil {
		return nil, err
	}
	if isStringKey(keys.DataType()) {
		return func(dst []byte, i int) ([]byte, error) {
			s, end := a.ValueOffsets(i)
			dst = append(dst, '{')
			for j := s; j < end; j++ {
				if j > s {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = ke(dst, j); err != nil {
					return nil, err
				}
				dst = append(dst, ':')
				if dst, err = cfg.nullOr(dst, items, ie, j); err != nil {
					return nil, err
				}
			}
			return append(dst, '}'), nil
		}, nil
	}
	return func(dst []byte, i int) ([]byte, error) {
		s, end := a.ValueOffsets(i)
		dst = append(dst, '[')
		for j := s; j < end; j++ {
			if j > s {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = ke(append(dst, `{"key":`...), j); err != nil {
				return nil, err
			}
			if dst, err = cfg.nullOr(append(dst, `,"value":`...), items, ie, j); err != nil {
				return nil, err
			}
			dst = append(dst, '}')
		}
		return append(dst, ']'), nil
	}, nil
}

// isStringKey reports whether map keys of type t are written as JSON
// strings that are the keys themselves (a JSON object).
func isStringKey(t datatype.DataType) bool {
	switch t.Kind() {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		return true
	}
	return false
}
