package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

var importCmd = command{
	name:  "import",
	args:  "IN OUT",
	short: "Read CSV or newline-delimited JSON into a stream or file.",
	long: `
The format comes from -format, else IN's extension (.json, .ndjson, .jsonl:
newline-delimited JSON; anything else: CSV). "-" is stdin / stdout.

Without -schema the types are inferred from the first -infer-rows rows:
integers (int64), floats (float64), booleans, dates (2006-01-02, date32),
timestamps (RFC 3339 or "2006-01-02 15:04:05[.fff]", timestamp[us], or [ns]
when a value has sub-microsecond digits; tz=UTC when the values carry an
offset), else strings; in JSON, objects become structs and arrays lists. A
column whose sample values disagree becomes strings. Later rows that do not
fit the inferred types are errors naming the line and column: then give a
schema.

-schema FILE is either an IPC stream or file (its schema is used) or a text
file of "name: type" lines in the syntax "alkaid schema" prints, e.g.

    id: int64 not null
    price: decimal128(10, 2)
    at: timestamp[ms, tz=UTC]
    tags: list<item: utf8>

In CSV an empty cell is null (so an empty string reads back as null), booleans are true/false/1/0 (any case),
binary columns are base64 and nested columns hold JSON text. Missing JSON
keys are null; keys not in the schema are errors. Input is read in batches
of -batch-rows rows, so memory stays bounded.`,
}

func runImport(args []string) int {
	c := importCmd
	fs := c.newFlags()
	format := fs.String("format", "", "csv or ndjson (default: from IN's extension, else csv)")
	schemaPath := fs.String("schema", "", "`FILE` with the schema (IPC data, or \"name: type\" lines); default: inferred")
	batchRows := fs.Int("batch-rows", defaultBatchRows, "rows per record batch")
	inferRows := fs.Int("infer-rows", 0, "rows read to infer types (0: one batch)")
	delim := fs.String("delimiter", ",", "CSV field delimiter (one character)")
	header := fs.Bool("header", true, "CSV: the first line holds the column names (else col_1, col_2, …)")
	quiet := fs.Bool("q", false, "no progress line")
	var of outFlags
	of.register(fs)
	if done, code := c.parse(fs, args, 2); done {
		return code
	}
	opt := importOptions{format: *format, schemaPath: *schemaPath, batchRows: *batchRows, inferRows: *inferRows,
		delim: *delim, header: *header, quiet: *quiet, out: &of}
	return c.fail(importText(fs.Arg(0), fs.Arg(1), opt))
}

type importOptions struct {
	format, schemaPath   string
	batchRows, inferRows int
	delim                string
	header, quiet        bool
	out                  *outFlags
}

// textRow is one input row: CSV cells (strings) or a JSON object.
type textRow struct {
	line  int
	cells []string
	obj   *jobj
}

type rowSource interface {
	next() (textRow, error) // io.EOF at the end
	names() []string        // CSV: the column names (nil for JSON)
}

func importText(inPath, outPath string, opt importOptions) error {
	format, err := textFormat(opt.format, inPath)
	if err != nil {
		return err
	}
	if opt.batchRows <= 0 {
		return usagef("-batch-rows %d: must be positive", opt.batchRows)
	}
	if opt.inferRows <= 0 {
		opt.inferRows = opt.batchRows
	}
	comma, err := oneRune(opt.delim)
	if err != nil {
		return err
	}
	var schema *alkaid.Schema
	if opt.schemaPath != "" {
		if schema, err = loadSchema(opt.schemaPath); err != nil {
			return err
		}
	}
	var src io.Reader = cmdStdin
	name := "stdin"
	if inPath != "-" {
		f, err := os.Open(inPath)
		if err != nil {
			return err
		}
		defer f.Close()
		src, name = f, inPath
	}
	counter := &countingReader{r: src}
	var rows rowSource
	if format == "csv" {
		rows, err = newCSVSource(counter, comma, opt.header)
	} else {
		rows = newJSONSource(counter)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}

	// Read the sample first: it is also the start of the data.
	var sample []textRow
	var readErr error
	for len(sample) < opt.inferRows {
		r, err := rows.next()
		if err != nil {
			readErr = err
			break
		}
		sample = append(sample, r)
	}
	if readErr != nil && readErr != io.EOF {
		return fmt.Errorf("%s: %w", name, readErr)
	}
	if schema == nil {
		schema = inferSchema(sample, rows.names())
	} else if ns := rows.names(); ns != nil && len(ns) != schema.NumFields() {
		return fmt.Errorf("%s: %d columns, the schema has %d fields", name, len(ns), schema.NumFields())
	}
	if schema.NumFields() == 0 {
		return fmt.Errorf("%s: no columns", name)
	}
	file, opts, err := opt.out.resolve(outPath, true)
	if err != nil {
		return err
	}
	o, err := createOutput(outPath, schema, file, opts, inPath, opt.schemaPath)
	if err != nil {
		return err
	}
	b := newBatchBuilder(schema, format == "csv")
	p := newProgress("import", opt.quiet)
	flush := func() error {
		if b.n == 0 {
			return nil
		}
		rec, err := b.finish()
		if err != nil {
			return err
		}
		if err := o.write(rec, nil); err != nil {
			return err
		}
		p.update(o.rows, counter.n)
		return nil
	}
	add := func(r textRow) error {
		if err := b.add(r); err != nil {
			return err
		}
		if b.n == opt.batchRows {
			return flush()
		}
		return nil
	}
	err = func() error {
		for _, r := range sample {
			if err := add(r); err != nil {
				return err
			}
		}
		sample = nil
		if readErr == io.EOF {
			return nil
		}
		for {
			r, err := rows.next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := add(r); err != nil {
				return err
			}
		}
	}()
	if err == nil {
		err = flush()
	}
	p.done(o.rows, counter.n)
	if err != nil {
		return o.abort(fmt.Errorf("%s: %w", name, err))
	}
	return o.close()
}

// loadSchema reads a schema from IPC data or from "name: type" lines.
func loadSchema(path string) (*alkaid.Schema, error) {
	if s, _, err := readSchemaMessage(path); err == nil {
		return s, nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := parseSchemaText(string(text))
	if err != nil {
		return nil, usagef("-schema %s: %v", path, err)
	}
	return s, nil
}

// ---- sources ----

type csvSource struct {
	r     *csv.Reader
	cols  []string
	first []string // the first data record when there is no header
}

func newCSVSource(r io.Reader, comma rune, header bool) (*csvSource, error) {
	cr := csv.NewReader(bufio.NewReaderSize(r, 1<<20))
	cr.Comma = comma
	s := &csvSource{r: cr}
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("empty input")
	}
	if err != nil {
		return nil, err
	}
	if header {
		s.cols = rec
	} else {
		s.first = rec
		for i := range rec {
			s.cols = append(s.cols, fmt.Sprintf("col_%d", i+1))
		}
	}
	return s, nil
}

func (s *csvSource) names() []string { return s.cols }

func (s *csvSource) next() (textRow, error) {
	if s.first != nil {
		rec := s.first
		s.first = nil
		return textRow{line: 1, cells: rec}, nil
	}
	rec, err := s.r.Read()
	if err != nil {
		return textRow{}, err // csv.ParseError names the line and column
	}
	line, _ := s.r.FieldPos(0)
	return textRow{line: line, cells: rec}, nil
}

type jsonSource struct {
	r    *bufio.Reader
	line int
}

func newJSONSource(r io.Reader) *jsonSource {
	return &jsonSource{r: bufio.NewReaderSize(r, 1<<20)}
}

func (s *jsonSource) names() []string { return nil }

func (s *jsonSource) next() (textRow, error) {
	for {
		b, err := s.r.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			return textRow{}, err
		}
		s.line++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if err != nil {
				return textRow{}, err
			}
			continue
		}
		v, perr := parseJSONText(b)
		if perr != nil {
			return textRow{}, fmt.Errorf("line %d: %v", s.line, perr)
		}
		obj, ok := v.(*jobj)
		if !ok {
			return textRow{}, fmt.Errorf("line %d: want a JSON object, got %s", s.line, describeJSON(v))
		}
		return textRow{line: s.line, obj: obj}, nil
	}
}

// ---- JSON values, objects in order ----

// jobj is a JSON object with its keys in input order.
type jobj struct {
	keys []string
	vals []any
}

func (o *jobj) get(key string) (any, bool) {
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], true
		}
	}
	return nil, false
}

// parseJSONText parses one JSON value: nil, bool, json.Number, string,
// []any or *jobj.
func parseJSONText(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseJSONValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("at byte %d: text after the JSON value", dec.InputOffset()+1)
	}
	return v, nil
}

func parseJSONValue(dec *json.Decoder, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("at byte %d: nested deeper than 100", dec.InputOffset()+1)
	}
	tok, err := dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, fmt.Errorf("at byte %d: %v", dec.InputOffset()+1, err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		case '{':
			obj := &jobj{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("at byte %d: %v", dec.InputOffset()+1, err)
				}
				v, err := parseJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj.keys = append(obj.keys, k.(string))
				obj.vals = append(obj.vals, v)
			}
			_, err := dec.Token()
			return obj, err
		}
		return nil, fmt.Errorf("at byte %d: unexpected %v", dec.InputOffset(), t)
	}
	return tok, nil // nil, bool, json.Number, string
}

func describeJSON(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + string(v)
	case string:
		return "the string " + strconv.Quote(cut(v, 40))
	case []any:
		return "an array"
	}
	return "an object"
}

// appendJSONAny writes a parsed value back as JSON.
func appendJSONAny(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case json.Number:
		return append(b, v...)
	case string:
		return appendJSONString(b, v)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONAny(b, e)
		}
		return append(b, ']')
	case *jobj:
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendJSONAny(b, v.vals[i])
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// ---- batches ----

// batchBuilder turns rows into a record batch: each value is normalised to
// the JSON that array.FromJSON reads for its column's type, then each
// column is built at once; binary columns (base64 text) are built directly.
type batchBuilder struct {
	schema *alkaid.Schema
	csv    bool
	n      int
	lines  []int
	vals   [][]string // per column, per row: JSON text
	bins   []array.Builder
	buf    []byte
}

func newBatchBuilder(s *alkaid.Schema, csv bool) *batchBuilder {
	b := &batchBuilder{schema: s, csv: csv, vals: make([][]string, s.NumFields()), bins: make([]array.Builder, s.NumFields())}
	for i := range s.NumFields() {
		if isBinaryKind(s.Field(i).Type) {
			b.bins[i] = array.NewBuilder(s.Field(i).Type)
		}
	}
	return b
}

func isBinaryKind(t datatype.DataType) bool {
	switch datatype.StorageOf(t).Kind() {
	case datatype.KindBinary, datatype.KindLargeBinary, datatype.KindBinaryView, datatype.KindFixedSizeBinary:
		return true
	}
	return false
}

// cellError names where a bad value is.
func (b *batchBuilder) cellError(line, col int, err error) error {
	if b.csv {
		return fmt.Errorf("line %d, column %d (%s): %w", line, col+1, b.schema.Field(col).Name, err)
	}
	return fmt.Errorf("line %d, field %q: %w", line, b.schema.Field(col).Name, err)
}

func (b *batchBuilder) add(r textRow) error {
	if r.obj != nil {
		for _, k := range r.obj.keys {
			if b.schema.FieldIndex(k) < 0 {
				return fmt.Errorf("line %d: field %q is not in the schema (%s); give a schema with -schema", r.line, k, strings.Join(fieldNames(b.schema), ", "))
			}
		}
	} else if len(r.cells) != b.schema.NumFields() {
		return fmt.Errorf("line %d: %d cells, want %d", r.line, len(r.cells), b.schema.NumFields())
	}
	for c := range b.schema.NumFields() {
		f := b.schema.Field(c)
		var v any
		if r.obj != nil {
			v, _ = r.obj.get(f.Name)
		} else if r.cells[c] != "" {
			v = r.cells[c]
		}
		if v == nil && !f.Nullable {
			return b.cellError(r.line, c, errors.New("null in a non-nullable column"))
		}
		if bb := b.bins[c]; bb != nil {
			if err := appendBinary(bb, v); err != nil {
				return b.cellError(r.line, c, err)
			}
			continue
		}
		var err error
		b.buf, err = normalize(b.buf[:0], v, f.Type, r.obj == nil, 0)
		if err != nil {
			return b.cellError(r.line, c, err)
		}
		b.vals[c] = append(b.vals[c], string(b.buf))
	}
	b.lines = append(b.lines, r.line)
	b.n++
	return nil
}

func appendBinary(bb array.Builder, v any) error {
	if v == nil {
		bb.AppendNull()
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("want base64 text, got %s", describeJSON(v))
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("not base64: %q", cut(s, 40))
	}
	if fb, ok := bb.(*array.FixedSizeBinaryBuilder); ok {
		if w := datatype.StorageOf(bb.Type()).(*datatype.FixedSizeBinaryType).ByteWidth; len(raw) != w {
			return fmt.Errorf("%d bytes, want %d", len(raw), w)
		}
		fb.Append(raw)
		return nil
	}
	if c, ok := bb.(interface{ CheckRoom(int) error }); ok {
		if err := c.CheckRoom(len(raw)); err != nil {
			return err
		}
	}
	bb.(interface{ Append([]byte) }).Append(raw)
	return nil
}

func (b *batchBuilder) finish() (*alkaid.Record, error) {
	s := b.schema
	cols := make([]array.Array, s.NumFields())
	var lit strings.Builder
	for c := range cols {
		if bb := b.bins[c]; bb != nil {
			cols[c] = bb.NewArray()
			continue
		}
		t := s.Field(c).Type
		lit.Reset()
		lit.WriteByte('[')
		for i, v := range b.vals[c] {
			if i > 0 {
				lit.WriteByte(',')
			}
			lit.WriteString(v)
		}
		lit.WriteByte(']')
		a, err := array.FromJSON(t, lit.String())
		if err != nil {
			// Find the row at fault to name its line.
			for i, v := range b.vals[c] {
				if _, rerr := array.FromJSON(t, "["+v+"]"); rerr != nil {
					return nil, b.cellError(b.lines[i], c, cleanFromJSON(rerr))
				}
			}
			return nil, fmt.Errorf("column %q: %w", s.Field(c).Name, err)
		}
		cols[c] = a
		b.vals[c] = b.vals[c][:0]
	}
	n := b.n
	b.n, b.lines = 0, b.lines[:0]
	return alkaid.NewRecord(s, cols, n)
}

// cleanFromJSON drops FromJSON's prefix and the [0] position of the
// one-element literal, keeping what was wrong.
func cleanFromJSON(err error) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, "[0]"); i >= 0 {
		msg = strings.TrimLeft(msg[i+3:], ": ")
	}
	return errors.New(msg)
}
