package cdata

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
)

// The format strings of the parameterless types.
var simpleFormats = map[datatype.Kind]string{
	datatype.KindNull: "n", datatype.KindBool: "b",
	datatype.KindInt8: "c", datatype.KindUint8: "C", datatype.KindInt16: "s", datatype.KindUint16: "S",
	datatype.KindInt32: "i", datatype.KindUint32: "I", datatype.KindInt64: "l", datatype.KindUint64: "L",
	datatype.KindFloat16: "e", datatype.KindFloat32: "f", datatype.KindFloat64: "g",
	datatype.KindBinary: "z", datatype.KindLargeBinary: "Z", datatype.KindBinaryView: "vz",
	datatype.KindString: "u", datatype.KindLargeString: "U", datatype.KindStringView: "vu",
	datatype.KindDate32: "tdD", datatype.KindDate64: "tdm",
	datatype.KindMonthInterval: "tiM", datatype.KindDayTimeInterval: "tiD", datatype.KindMonthDayNanoInterval: "tin",
	datatype.KindList: "+l", datatype.KindLargeList: "+L", datatype.KindListView: "+vl", datatype.KindLargeListView: "+vL",
	datatype.KindStruct: "+s", datatype.KindMap: "+m", datatype.KindRunEndEncoded: "+r",
}

// parsedSimple is simpleFormats inverted, for the types whose format alone
// makes them.
var parsedSimple = func() map[string]datatype.DataType {
	m := map[string]datatype.DataType{}
	for k, f := range simpleFormats {
		if t := datatype.Primitive(k); t != nil {
			m[f] = t
		}
	}
	return m
}()

var unitLetters = [...]byte{'s', 'm', 'u', 'n'}

// formatOf returns the format string of t, which is neither an extension
// nor a dictionary type (the caller handles those).
func formatOf(t datatype.DataType) (string, error) {
	if f, ok := simpleFormats[t.Kind()]; ok {
		return f, nil
	}
	switch t := t.(type) {
	case *datatype.DecimalType:
		if t.BitWidth == 128 {
			return fmt.Sprintf("d:%d,%d", t.Precision, t.Scale), nil
		}
		return fmt.Sprintf("d:%d,%d,%d", t.Precision, t.Scale, t.BitWidth), nil
	case *datatype.TimeType:
		return "tt" + string(unitLetters[t.Unit&3]), nil
	case *datatype.TimestampType:
		return "ts" + string(unitLetters[t.Unit&3]) + ":" + t.TimeZone, nil
	case *datatype.DurationType:
		return "tD" + string(unitLetters[t.Unit&3]), nil
	case *datatype.FixedSizeBinaryType:
		return "w:" + strconv.Itoa(t.ByteWidth), nil
	case *datatype.ListType: // fixed-size: the other list kinds are simple
		return "+w:" + strconv.Itoa(int(t.Size())), nil
	case *datatype.UnionType:
		var b strings.Builder
		b.WriteString("+us:")
		if t.Mode() == datatype.Dense {
			b.Reset()
			b.WriteString("+ud:")
		}
		for i, c := range t.TypeCodes() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(c)))
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("cdata: %w: type %s has no C data format", ErrNotSupported, t)
}

func unitOf(c byte) (datatype.TimeUnit, bool) {
	for i, u := range unitLetters {
		if u == c {
			return datatype.TimeUnit(i), true
		}
	}
	return 0, false
}

// parseFormat builds the type a format string describes, given the
// already imported child fields and the schema's flags. Dictionaries and
// extension types are the caller's.
func parseFormat(f string, children []datatype.Field, flags int64) (datatype.DataType, error) {
	bad := func(why string) error {
		return fmt.Errorf("cdata: %w: format %s: %s", ErrInvalid, quote.String(f), why)
	}
	wantChildren := func(n int) error {
		if len(children) != n {
			return bad(fmt.Sprintf("has %d children, want %d", len(children), n))
		}
		return nil
	}
	if t, ok := parsedSimple[f]; ok {
		if err := wantChildren(0); err != nil {
			return nil, err
		}
		return t, nil
	}
	switch f {
	case "+l", "+L", "+vl", "+vL":
		if err := wantChildren(1); err != nil {
			return nil, err
		}
		switch f {
		case "+l":
			return datatype.ListOfField(children[0]), nil
		case "+L":
			return datatype.LargeListOfField(children[0]), nil
		case "+vl":
			return datatype.ListViewOfField(children[0]), nil
		}
		return datatype.LargeListViewOfField(children[0]), nil
	case "+s":
		return datatype.StructOf(children...), nil
	case "+m":
		if err := wantChildren(1); err != nil {
			return nil, err
		}
		m, err := datatype.MapOfEntries(children[0], flags&flagMapKeysSorted != 0)
		if err != nil {
			return nil, bad(err.Error())
		}
		return m, nil
	case "+r":
		if err := wantChildren(2); err != nil {
			return nil, err
		}
		t, err := datatype.NewRunEndEncodedFields(children[0], children[1])
		if err != nil {
			return nil, bad(err.Error())
		}
		return t, nil
	}
	if err := wantChildren(0); err != nil && !strings.HasPrefix(f, "+") {
		return nil, err
	}
	switch {
	case strings.HasPrefix(f, "d:"):
		parts := strings.Split(f[2:], ",")
		if len(parts) < 2 || len(parts) > 3 {
			return nil, bad("want d:precision,scale[,bitwidth]")
		}
		nums := make([]int, len(parts))
		for i, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil {
				return nil, bad(fmt.Sprintf("decimal parameter %s is not a number", quote.String(p)))
			}
			nums[i] = n
		}
		width := 128
		if len(nums) == 3 {
			width = nums[2]
		}
		if nums[0] != int(int32(nums[0])) || nums[1] != int(int32(nums[1])) {
			return nil, bad("decimal parameter out of range")
		}
		t, err := datatype.NewDecimal(width, int32(nums[0]), int32(nums[1]))
		if err != nil {
			return nil, bad(err.Error())
		}
		return t, nil
	case strings.HasPrefix(f, "w:"):
		n, err := strconv.Atoi(f[2:])
		if err != nil || n != int(int32(n)) {
			return nil, bad("fixed-size binary width is not a number")
		}
		t, err := datatype.NewFixedSizeBinary(n)
		if err != nil {
			return nil, bad(err.Error())
		}
		return t, nil
	case strings.HasPrefix(f, "+w:"):
		if err := wantChildren(1); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(f[3:])
		if err != nil || n != int(int32(n)) {
			return nil, bad("fixed-size list size is not a number")
		}
		t, err := datatype.FixedSizeListOfField(children[0], int32(n))
		if err != nil {
			return nil, bad(err.Error())
		}
		return t, nil
	case strings.HasPrefix(f, "+us:"), strings.HasPrefix(f, "+ud:"):
		mode := datatype.Sparse
		if f[2] == 'd' {
			mode = datatype.Dense
		}
		var codes []int8
		if f[4:] != "" {
			for p := range strings.SplitSeq(f[4:], ",") {
				c, err := strconv.Atoi(p)
				if err != nil || c < 0 || c > 127 {
					return nil, bad(fmt.Sprintf("union type code %s (want 0 to 127)", quote.String(p)))
				}
				codes = append(codes, int8(c))
			}
		}
		if codes == nil {
			codes = []int8{}
		}
		t, err := datatype.NewUnion(mode, children, codes)
		if err != nil {
			return nil, bad(err.Error())
		}
		return t, nil
	case len(f) == 3 && f[0] == 't' && (f[1] == 't' || f[1] == 'D'):
		u, ok := unitOf(f[2])
		if !ok {
			return nil, bad("unknown time unit")
		}
		var t datatype.DataType
		var err error
		if f[1] == 't' {
			t, err = datatype.NewTime(u)
		} else {
			t, err = datatype.NewDuration(u)
		}
		if err != nil {
			return nil, bad(err.Error())
		}
		return t, nil
	case len(f) >= 4 && f[:2] == "ts" && f[3] == ':':
		u, ok := unitOf(f[2])
		if !ok {
			return nil, bad("unknown timestamp unit")
		}
		t, err := datatype.NewTimestamp(u, f[4:])
		if err != nil {
			return nil, bad(err.Error())
		}
		return t, nil
	}
	return nil, fmt.Errorf("cdata: %w: format %s is not a type this library knows", ErrNotSupported, quote.String(f))
}
