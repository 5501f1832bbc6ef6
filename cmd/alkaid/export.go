package main

import (
	"bufio"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

var exportCmd = command{
	name:  "export",
	args:  "IN OUT",
	short: "Write a stream or file as CSV or newline-delimited JSON.",
	long: `
The format comes from -format, else OUT's extension (.csv; .json, .ndjson,
.jsonl), else CSV. "-" is stdin / stdout. Batches are read and written one
at a time.

Values: numbers as numbers (NaN and infinities as the strings "NaN", "Inf",
"-Inf" in JSON), decimals as exact decimal text (strings in JSON), dates as
2006-01-02 and timestamps as RFC 3339 text in UTC ("Z" when the type has a
time zone) when the year is within 0..9999, else as integers; times and
durations as integers in their unit; binary as base64 (import decodes
base64 for top-level binary columns only; nested binary values read back
as the text's bytes); lists as arrays,
structs as objects, maps as objects when keys are strings (else arrays of
[key, value] pairs), unions as [type code, value]; dictionary and run-end
encoded values as their plain values. In CSV a null is an empty cell and a
nested value is its JSON text. "alkaid import" with the same schema (-schema)
reads the output back to the same values.`,
}

func runExport(args []string) int {
	c := exportCmd
	fs := c.newFlags()
	format := fs.String("format", "", "csv or ndjson (default: from OUT's extension, else csv)")
	delim := fs.String("delimiter", ",", "CSV field delimiter (one character)")
	header := fs.Bool("header", true, "CSV: write a header line of column names")
	quiet := fs.Bool("q", false, "no progress line")
	if done, code := c.parse(fs, args, 2); done {
		return code
	}
	return c.fail(export(fs.Arg(0), fs.Arg(1), *format, *delim, *header, *quiet))
}

// textFormat picks csv or ndjson from a flag or a path's extension.
func textFormat(flagValue, path string) (string, error) {
	switch flagValue {
	case "csv", "ndjson":
		return flagValue, nil
	case "json", "jsonl":
		return "ndjson", nil
	case "":
	default:
		return "", usagef("-format %q: want csv or ndjson", flagValue)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".ndjson", ".jsonl":
		return "ndjson", nil
	}
	return "csv", nil
}

func oneRune(s string) (rune, error) {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || n != len(s) || r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
		return 0, usagef("-delimiter %q: want one character other than a quote or newline", s)
	}
	return r, nil
}

func export(inPath, outPath, format, delim string, header, quiet bool) error {
	format, err := textFormat(format, outPath)
	if err != nil {
		return err
	}
	comma, err := oneRune(delim)
	if err != nil {
		return err
	}
	in, err := openInput(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	var f *outFile
	dst := cmdStdout
	if outPath != "-" {
		if f, err = createOutFile(outPath, inPath); err != nil {
			return err
		}
		defer f.fail(nil, false) // after commit, a no-op
		dst = f
	}
	cw := &countingWriter{w: dst}
	bw := bufio.NewWriterSize(cw, 1<<20)
	s := in.schema()
	var cs *csv.Writer
	if format == "csv" {
		cs = csv.NewWriter(bw)
		cs.Comma = comma
		if header {
			cs.Write(fieldNames(s))
		}
	}
	p := newProgress("export", quiet)
	var rows int64
	var buf []byte
	cells := make([]string, s.NumFields())
	readErr := in.each(func(_ int, rec *alkaid.Record, _ map[string]string) error {
		for r := range rec.NumRows() {
			if cs != nil {
				for c := range cells {
					cells[c] = csvCell(rec.Column(c), r)
				}
				if err := cs.Write(cells); err != nil {
					return err
				}
				continue
			}
			buf = append(buf[:0], '{')
			for c := range rec.NumCols() {
				if c > 0 {
					buf = append(buf, ',')
				}
				buf = appendJSONString(buf, rec.ColumnName(c))
				buf = append(buf, ':')
				buf = appendJSONValue(buf, rec.Column(c), r)
			}
			buf = append(buf, '}', '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		rows += int64(rec.NumRows())
		p.update(rows, cw.n)
		return nil
	})
	if cs != nil {
		cs.Flush()
		if err := cs.Error(); err != nil && readErr == nil {
			readErr = err
		}
	}
	if err := bw.Flush(); err != nil && readErr == nil {
		readErr = err
	}
	p.done(rows, cw.n)
	if f != nil {
		// A file without footer, read to its last complete batch, gives
		// a complete output (and exit 1, saying so).
		if completeDespite(in, readErr) {
			if err := f.commit(); err != nil {
				return err
			}
		} else {
			return f.fail(fmt.Errorf("%s: %w", inPath, readErr), rows > 0)
		}
	}
	if readErr != nil {
		return fmt.Errorf("%s: %w", inPath, readErr)
	}
	return nil
}

// csvCell is slot i of a as CSV text: "" for null, strings as they are,
// nested values as JSON.
func csvCell(a array.Array, i int) string {
	if _, union := a.(*array.Union); union {
		return string(appendJSONValue(nil, a, i)) // [type code, value], even for a null
	}
	if a.IsNull(i) {
		return ""
	}
	if a, i = plain(a, i); a.IsNull(i) {
		return ""
	}
	switch a := a.(type) {
	case *array.Binary[int32]:
		if datatype.StorageOf(a.DataType()).Kind() == datatype.KindString {
			return a.ValueString(i)
		}
	case *array.Binary[int64]:
		if datatype.StorageOf(a.DataType()).Kind() == datatype.KindLargeString {
			return a.ValueString(i)
		}
	case *array.BinaryView:
		if datatype.StorageOf(a.DataType()).Kind() == datatype.KindStringView {
			return a.ValueString(i)
		}
	case *array.Decimal32, *array.Decimal64, *array.Decimal128, *array.Decimal256, *array.Float16:
		return array.FormatValue(a, i)
	case *array.Float32:
		return string(floatText(nil, float64(a.Value(i)), 32))
	case *array.Float64:
		return string(floatText(nil, a.Value(i), 64))
	}
	b := appendJSONValue(nil, a, i)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) == nil {
			return s
		}
	}
	return string(b)
}

// plain looks through dictionaries, run-end encoding and extension types
// to the array and slot holding the value.
func plain(a array.Array, i int) (array.Array, int) {
	for {
		switch x := a.(type) {
		case *array.Dictionary:
			a, i = x.Dictionary(), x.ValueIndex(i)
		case *array.RunEndEncoded:
			a, i = x.Values(), x.PhysicalIndex(i)
		case *array.Extension:
			a = x.Storage()
		default:
			return a, i
		}
	}
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

func appendFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Inf"`...)
	}
	return floatText(b, f, bits)
}

// floatText appends f in the shortest form that reads back exactly, with
// ".0" on integral values so that they read back as floats.
func floatText(b []byte, f float64, bits int) []byte {
	start := len(b)
	b = strconv.AppendFloat(b, f, 'g', -1, bits)
	for _, c := range b[start:] {
		if c == '.' || c == 'e' || c == 'n' || c == 'N' || c == 'I' {
			return b
		}
	}
	return append(b, ".0"...)
}

// appendJSONValue appends slot i of a as JSON, in the forms array.FromJSON
// reads back (binary as base64, which import decodes for binary columns).
func appendJSONValue(b []byte, a array.Array, i int) []byte {
	if _, union := a.(*array.Union); !union && a.IsNull(i) {
		return append(b, "null"...)
	}
	if a, i = plain(a, i); !isUnion(a) && a.IsNull(i) {
		return append(b, "null"...)
	}
	t := datatype.StorageOf(a.DataType())
	switch a := a.(type) {
	case *array.Boolean:
		return strconv.AppendBool(b, a.Value(i))
	case *array.Binary[int32]:
		return appendBytesJSON(b, a.Value(i), t.Kind())
	case *array.Binary[int64]:
		return appendBytesJSON(b, a.Value(i), t.Kind())
	case *array.BinaryView:
		return appendBytesJSON(b, a.Value(i), t.Kind())
	case *array.FixedSizeBinary:
		return appendBytesJSON(b, a.Value(i), t.Kind())
	case *array.Float16:
		if f := a.Value(i).Float32(); math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return appendFloat(b, float64(f), 32)
		}
		return append(b, a.Value(i).String()...)
	case *array.Float32:
		return appendFloat(b, float64(a.Value(i)), 32)
	case *array.Float64:
		return appendFloat(b, a.Value(i), 64)
	case *array.Decimal32, *array.Decimal64, *array.Decimal128, *array.Decimal256:
		return appendJSONString(b, array.FormatValue(a, i))
	case *array.Date32:
		d := a.Value(i).Time()
		if d.Year() >= 0 && d.Year() <= 9999 {
			return appendJSONString(b, d.Format(time.DateOnly))
		}
		return strconv.AppendInt(b, int64(a.Value(i)), 10)
	case *array.Date64:
		d := a.Value(i).Time()
		if d.Year() >= 0 && d.Year() <= 9999 && a.Value(i)%86400000 == 0 {
			return appendJSONString(b, d.Format(time.DateOnly))
		}
		return strconv.AppendInt(b, int64(a.Value(i)), 10)
	case *array.Timestamp:
		tt := t.(*datatype.TimestampType)
		ts := a.Value(i).Time(tt.Unit).UTC()
		if a.Value(i).InTimeRange(tt.Unit) && ts.Year() >= 0 && ts.Year() <= 9999 {
			layout := "2006-01-02T15:04:05.999999999"
			if tt.TimeZone != "" {
				layout += "Z07:00"
			}
			return appendJSONString(b, ts.Format(layout))
		}
		return strconv.AppendInt(b, int64(a.Value(i)), 10)
	case *array.DayTime:
		v := a.Value(i)
		return fmt.Appendf(b, `{"days":%d,"milliseconds":%d}`, v.Days, v.Milliseconds)
	case *array.MonthDayNano:
		v := a.Value(i)
		return fmt.Appendf(b, `{"months":%d,"days":%d,"nanoseconds":%d}`, v.Months, v.Days, v.Nanoseconds)
	case *array.Map:
		s, e := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		if k := datatype.StorageOf(keys.DataType()).Kind(); k == datatype.KindString || k == datatype.KindLargeString || k == datatype.KindStringView {
			b = append(b, '{')
			for j := s; j < e; j++ {
				if j > s {
					b = append(b, ',')
				}
				b = appendJSONValue(b, keys, j)
				b = append(b, ':')
				b = appendJSONValue(b, items, j)
			}
			return append(b, '}')
		}
		b = append(b, '[')
		for j := s; j < e; j++ {
			if j > s {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = appendJSONValue(b, keys, j)
			b = append(b, ',')
			b = appendJSONValue(b, items, j)
			b = append(b, ']')
		}
		return append(b, ']')
	case array.ListLike:
		s, e := a.ValueOffsets(i)
		vals := a.ListValues()
		b = append(b, '[')
		for j := s; j < e; j++ {
			if j > s {
				b = append(b, ',')
			}
			b = appendJSONValue(b, vals, j)
		}
		return append(b, ']')
	case *array.Struct:
		st := t.(*datatype.StructType)
		b = append(b, '{')
		for j := range a.NumField() {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, st.Field(j).Name)
			b = append(b, ':')
			b = appendJSONValue(b, a.Field(j), i)
		}
		return append(b, '}')
	case *array.Union:
		b = fmt.Appendf(b, "[%d,", a.TypeCode(i))
		b = appendJSONValue(b, a.Child(a.ChildIndex(i)), a.ValueOffset(i))
		return append(b, ']')
	}
	// Integers, times, durations, month intervals: FormatValue prints the
	// integer.
	return append(b, array.FormatValue(a, i)...)
}

func appendBytesJSON(b, v []byte, k datatype.Kind) []byte {
	switch k {
	case datatype.KindString, datatype.KindLargeString, datatype.KindStringView:
		return appendJSONString(b, string(v))
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v)
	return append(b, '"')
}

// isUnion reports whether a is a union, whose null slots are still written
// with their type code so that they read back into the same child.
func isUnion(a array.Array) bool {
	_, ok := a.(*array.Union)
	return ok
}
