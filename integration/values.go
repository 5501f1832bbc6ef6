package integration

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// The parsers below turn a column's JSON value lists into buffers, one
// element kind each, checking every value against its type.

// text returns a JSON value's text: a string's contents or a number's
// literal.
func text(raw json.RawMessage) (string, error) {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	}
	return string(raw), nil
}

func parseBool(raw json.RawMessage) (bool, error) {
	switch string(raw) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s is not a boolean", raw)
}

// fixedInts parses count integers of integer-like type t (any integer,
// date, time, timestamp, duration, month interval, 32- and 64-bit decimal)
// given as numbers or strings, into a buffer of t's width.
func fixedInts(raws []json.RawMessage, count int, t datatype.DataType, path string) (*memory.Buffer, error) {
	if len(raws) != count {
		return nil, invalidf("%s: %d values for count %d", path, len(raws), count)
	}
	w := datatype.ByteWidth(t)
	k := datatype.StorageOf(t).Kind()
	unsigned := k.IsInteger() && !k.IsSignedInteger()
	buf := memory.Allocate(nil, count*w)
	b := buf.Bytes()
	for i, raw := range raws {
		s, err := text(raw)
		if err != nil {
			return nil, invalidf("%s: [%d]: %v", path, i, err)
		}
		var u uint64
		if unsigned {
			u, err = strconv.ParseUint(s, 10, 8*w)
		} else {
			var v int64
			v, err = strconv.ParseInt(s, 10, 8*w)
			u = uint64(v)
		}
		if err != nil {
			return nil, invalidf("%s: [%d]: %q is not a %d-bit integer", path, i, s, 8*w)
		}
		switch w {
		case 1:
			b[i] = byte(u)
		case 2:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(u))
		case 4:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(u))
		case 8:
			binary.LittleEndian.PutUint64(b[8*i:], u)
		default:
			return nil, invalidf("%s: integer width %d", path, w)
		}
	}
	return buf, nil
}

func floats(raws []json.RawMessage, count int, k datatype.Kind, path string) (*memory.Buffer, error) {
	if len(raws) != count {
		return nil, invalidf("%s: %d DATA values for count %d", path, len(raws), count)
	}
	w := map[datatype.Kind]int{datatype.KindFloat16: 2, datatype.KindFloat32: 4, datatype.KindFloat64: 8}[k]
	buf := memory.Allocate(nil, count*w)
	b := buf.Bytes()
	for i, raw := range raws {
		s, err := text(raw)
		if err != nil {
			return nil, invalidf("%s: DATA[%d]: %v", path, i, err)
		}
		bits := 64
		if w < 8 {
			bits = 32
		}
		v, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return nil, invalidf("%s: DATA[%d]: %q is not a number", path, i, s)
		}
		switch w {
		case 2:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(datatype.Float16From(float32(v))))
		case 4:
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
		default:
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
	}
	return buf, nil
}

// bigDecimals parses 128- or 256-bit decimals given as decimal strings of
// the unscaled value.
func bigDecimals(raws []json.RawMessage, count, bits int, path string) (*memory.Buffer, error) {
	if len(raws) != count {
		return nil, invalidf("%s: %d DATA values for count %d", path, len(raws), count)
	}
	w := bits / 8
	buf := memory.Allocate(nil, count*w)
	b := buf.Bytes()
	v := new(big.Int)
	for i, raw := range raws {
		s, err := text(raw)
		if err != nil {
			return nil, invalidf("%s: DATA[%d]: %v", path, i, err)
		}
		if _, ok := v.SetString(s, 10); !ok {
			return nil, invalidf("%s: DATA[%d]: %q is not an integer", path, i, s)
		}
		mag := v
		if v.Sign() < 0 {
			mag = new(big.Int).Not(v) // -v-1: a negative value fits if this does
		}
		if mag.BitLen() > bits-1 {
			return nil, invalidf("%s: DATA[%d]: %s does not fit in %d bits", path, i, s, bits)
		}
		if bits == 128 {
			d := datatype.Decimal128FromBig(v)
			binary.LittleEndian.PutUint64(b[w*i:], d.Lo)
			binary.LittleEndian.PutUint64(b[w*i+8:], uint64(d.Hi))
		} else {
			d := datatype.Decimal256FromBig(v)
			for j, word := range d {
				binary.LittleEndian.PutUint64(b[w*i+8*j:], word)
			}
		}
	}
	return buf, nil
}

func intervals(raws []json.RawMessage, count int, mdn bool, path string) (*memory.Buffer, error) {
	if len(raws) != count {
		return nil, invalidf("%s: %d DATA values for count %d", path, len(raws), count)
	}
	w := 8
	if mdn {
		w = 16
	}
	buf := memory.Allocate(nil, count*w)
	b := buf.Bytes()
	var v struct {
		Months       json.RawMessage `json:"months"`
		Days         json.RawMessage `json:"days"`
		Milliseconds json.RawMessage `json:"milliseconds"`
		Nanoseconds  json.RawMessage `json:"nanoseconds"`
	}
	num := func(raw json.RawMessage, bits int, name string, i int) (int64, error) {
		if raw == nil {
			return 0, invalidf("%s: DATA[%d]: no %q", path, i, name)
		}
		s, err := text(raw)
		if err == nil {
			var n int64
			if n, err = strconv.ParseInt(s, 10, bits); err == nil {
				return n, nil
			}
		}
		return 0, invalidf("%s: DATA[%d]: %s %s is not a %d-bit integer", path, i, name, raw, bits)
	}
	for i, raw := range raws {
		v.Months, v.Days, v.Milliseconds, v.Nanoseconds = nil, nil, nil, nil
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, invalidf("%s: DATA[%d]: %v", path, i, err)
		}
		p := b[w*i:]
		if mdn {
			months, err := num(v.Months, 32, "months", i)
			if err != nil {
				return nil, err
			}
			days, err := num(v.Days, 32, "days", i)
			if err != nil {
				return nil, err
			}
			ns, err := num(v.Nanoseconds, 64, "nanoseconds", i)
			if err != nil {
				return nil, err
			}
			binary.LittleEndian.PutUint32(p, uint32(months))
			binary.LittleEndian.PutUint32(p[4:], uint32(days))
			binary.LittleEndian.PutUint64(p[8:], uint64(ns))
			continue
		}
		days, err := num(v.Days, 32, "days", i)
		if err != nil {
			return nil, err
		}
		ms, err := num(v.Milliseconds, 32, "milliseconds", i)
		if err != nil {
			return nil, err
		}
		binary.LittleEndian.PutUint32(p, uint32(days))
		binary.LittleEndian.PutUint32(p[4:], uint32(ms))
	}
	return buf, nil
}

func hexValue(raw json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s is not a hex string", raw)
	}
	return hex.DecodeString(s)
}

func fixedBinary(raws []json.RawMessage, count, width int, path string) (*memory.Buffer, error) {
	if len(raws) != count {
		return nil, invalidf("%s: %d DATA values for count %d", path, len(raws), count)
	}
	// Decode first: the buffer is only allocated once the input has shown
	// that it holds count*width bytes.
	values := make([][]byte, count)
	for i, raw := range raws {
		v, err := hexValue(raw)
		if err != nil {
			return nil, invalidf("%s: DATA[%d]: %v", path, i, err)
		}
		if len(v) != width {
			return nil, invalidf("%s: DATA[%d] has %d bytes, want %d", path, i, len(v), width)
		}
		values[i] = v
	}
	buf := memory.Allocate(nil, count*width)
	for i, v := range values {
		copy(buf.Bytes()[i*width:], v)
	}
	return buf, nil
}

// offsetBuffer parses count+1 offsets (an empty list for count 0 gives a
// single zero).
func offsetBuffer(raws []json.RawMessage, count int, wide bool, path string) (*memory.Buffer, error) {
	t := datatype.Int32
	if wide {
		t = datatype.Int64
	}
	if count == 0 && len(raws) == 0 {
		return memory.Allocate(nil, datatype.ByteWidth(t)), nil
	}
	return fixedInts(raws, count+1, t, path+" OFFSET")
}

func offsetAt(b *memory.Buffer, wide bool, i int) int64 {
	if wide {
		return int64(binary.LittleEndian.Uint64(b.Bytes()[8*i:]))
	}
	return int64(int32(binary.LittleEndian.Uint32(b.Bytes()[4*i:])))
}

// binaryBuffers builds the offsets and data of a binary or utf8 column:
// DATA[i] lands at OFFSET[i], and must be OFFSET[i+1]-OFFSET[i] bytes.
// Without OFFSET the values are laid end to end.
func binaryBuffers(c *jsonColumn, count int, wide, text bool, path string) (offs, data *memory.Buffer, err error) {
	if len(c.Data) != count {
		return nil, nil, invalidf("%s: %d DATA values for count %d", path, len(c.Data), count)
	}
	values := make([][]byte, count)
	total := 0
	for i, raw := range c.Data {
		if text {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, nil, invalidf("%s: DATA[%d]: %s is not a string", path, i, raw)
			}
			values[i] = []byte(s)
		} else if values[i], err = hexValue(raw); err != nil {
			return nil, nil, invalidf("%s: DATA[%d]: %v", path, i, err)
		}
		total += len(values[i])
	}
	w := 4
	if wide {
		w = 8
	}
	if c.Offset == nil {
		offs = memory.Allocate(nil, w*(count+1))
		pos := 0
		for i, v := range values {
			pos += len(v)
			putOffset(offs, wide, i+1, int64(pos))
		}
	} else if offs, err = offsetBuffer(c.Offset, count, wide, path); err != nil {
		return nil, nil, err
	}
	// Offsets that do not start at zero are rebased, so that the data
	// buffer holds exactly the values' bytes.
	base := offsetAt(offs, wide, 0)
	for i, v := range values {
		lo, hi := offsetAt(offs, wide, i), offsetAt(offs, wide, i+1)
		if hi < lo {
			return nil, nil, invalidf("%s: OFFSET[%d:%d] = [%d, %d] decreases", path, i, i+2, lo, hi)
		}
		if hi-lo != int64(len(v)) {
			return nil, nil, invalidf("%s: DATA[%d] has %d bytes but the offsets give %d", path, i, len(v), hi-lo)
		}
		putOffset(offs, wide, i, lo-base)
	}
	putOffset(offs, wide, count, int64(total))
	if !wide && total > math.MaxInt32 {
		return nil, nil, invalidf("%s: %d bytes of values need 64-bit offsets", path, total)
	}
	data = memory.Allocate(nil, total)
	pos := 0
	for _, v := range values {
		pos += copy(data.Bytes()[pos:], v)
	}
	return offs, data, nil
}

func putOffset(b *memory.Buffer, wide bool, i int, v int64) {
	if wide {
		binary.LittleEndian.PutUint64(b.Bytes()[8*i:], uint64(v))
	} else {
		binary.LittleEndian.PutUint32(b.Bytes()[4*i:], uint32(v))
	}
}

// viewBuffers builds the views and the variadic data buffers of a
// binary_view or utf8_view column. Inline values are hex for binary_view
// and text for utf8_view; PREFIX_HEX and the data buffers are hex for both.
func viewBuffers(c *jsonColumn, count int, text bool, path string) ([]*memory.Buffer, error) {
	if len(c.Views) != count {
		return nil, invalidf("%s: %d VIEWS for count %d", path, len(c.Views), count)
	}
	views := memory.Allocate(nil, 16*count)
	vb := views.Bytes()
	for i, v := range c.Views {
		p := vb[16*i : 16*i+16]
		if v.Size < 0 {
			return nil, invalidf("%s: VIEWS[%d] has size %d", path, i, v.Size)
		}
		binary.LittleEndian.PutUint32(p, uint32(v.Size))
		if v.Inlined != nil {
			val := []byte(*v.Inlined)
			if !text {
				var err error
				if val, err = hex.DecodeString(*v.Inlined); err != nil {
					return nil, invalidf("%s: VIEWS[%d] INLINED: %v", path, i, err)
				}
			}
			if len(val) != int(v.Size) || len(val) > array.ViewInlineMax {
				return nil, invalidf("%s: VIEWS[%d] inlines %d bytes with size %d", path, i, len(val), v.Size)
			}
			copy(p[4:], val)
			continue
		}
		prefix, err := hex.DecodeString(v.PrefixHex)
		if err != nil || len(prefix) != 4 {
			return nil, invalidf("%s: VIEWS[%d] PREFIX_HEX %q is not 4 hex bytes", path, i, v.PrefixHex)
		}
		copy(p[4:], prefix)
		binary.LittleEndian.PutUint32(p[8:], uint32(v.BufferIndex))
		binary.LittleEndian.PutUint32(p[12:], uint32(v.Offset))
	}
	bufs := []*memory.Buffer{views}
	for i, s := range c.Variadic {
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, invalidf("%s: VARIADIC_DATA_BUFFERS[%d]: %v", path, i, err)
		}
		buf := memory.Allocate(nil, len(b))
		copy(buf.Bytes(), b)
		bufs = append(bufs, buf)
	}
	return bufs, nil
}
