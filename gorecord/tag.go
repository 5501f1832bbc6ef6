package gorecord

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
)

// tagOpts are the options of one `alkaid:"name,opt,key=value"` tag.
type tagOpts struct {
	name     string
	skip     bool
	nullable bool
	notNull  bool
	dict     datatype.DataType // dictionary index type; nil without dict
	unit     *datatype.TimeUnit
	tz       *string
	prec     int32 // 0: the width's maximum
	scale    *int32
	large    bool
	view     bool
	json     bool
}

// parseTag parses the tag's options; path names the field in errors.
func parseTag(tag, path string) (tagOpts, error) {
	var o tagOpts
	if tag == "-" {
		o.skip = true
		return o, nil
	}
	parts := strings.Split(tag, ",")
	o.name = parts[0]
	for _, p := range parts[1:] {
		key, val, hasVal := strings.Cut(p, "=")
		bad := func(format string, args ...any) error {
			return fmt.Errorf("gorecord: %w: field %s: tag option %q: %s", ErrInvalidTag, path, p, fmt.Sprintf(format, args...))
		}
		noVal := func() error {
			if hasVal {
				return bad("takes no value")
			}
			return nil
		}
		var err error
		switch key {
		case "nullable":
			o.nullable, err = true, noVal()
		case "notnull":
			o.notNull, err = true, noVal()
		case "large":
			o.large, err = true, noVal()
		case "view":
			o.view, err = true, noVal()
		case "json":
			o.json, err = true, noVal()
		case "dict":
			o.dict = datatype.Int32
			if hasVal {
				switch val {
				case "int8":
					o.dict = datatype.Int8
				case "int16":
					o.dict = datatype.Int16
				case "int32":
				case "int64":
					o.dict = datatype.Int64
				case "uint8":
					o.dict = datatype.Uint8
				case "uint16":
					o.dict = datatype.Uint16
				case "uint32":
					o.dict = datatype.Uint32
				case "uint64":
					o.dict = datatype.Uint64
				default:
					err = bad("want an integer index type (int8 … uint64)")
				}
			}
		case "unit":
			u, ok := map[string]datatype.TimeUnit{"s": datatype.Second, "ms": datatype.Millisecond,
				"us": datatype.Microsecond, "ns": datatype.Nanosecond}[val]
			if !ok {
				err = bad("want s, ms, us or ns")
			}
			o.unit = &u
		case "tz":
			o.tz = &val
		case "precision":
			n, perr := strconv.ParseInt(val, 10, 32)
			if perr != nil || n < 1 {
				err = bad("want a positive integer")
			}
			o.prec = int32(n)
		case "scale":
			n, perr := strconv.ParseInt(val, 10, 32)
			if perr != nil {
				err = bad("want an integer")
			}
			s := int32(n)
			o.scale = &s
		default:
			err = bad("unknown option")
		}
		if err != nil {
			return o, err
		}
	}
	if o.nullable && o.notNull {
		return o, fmt.Errorf("gorecord: %w: field %s: both nullable and notnull", ErrInvalidTag, path)
	}
	if o.large && o.view {
		return o, fmt.Errorf("gorecord: %w: field %s: both large and view", ErrInvalidTag, path)
	}
	return o, nil
}
