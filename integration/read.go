package integration

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/memory"
)

// ErrInvalid is datatype.ErrInvalid, wrapped by every error about a
// malformed JSON file or data that the format cannot hold.
var ErrInvalid = datatype.ErrInvalid

func invalidf(format string, args ...any) error {
	return fmt.Errorf("integration: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

// File is the content of an integration JSON file: a schema, its record
// batches and the dictionaries the batches' dictionary-encoded columns use.
type File struct {
	Schema  *alkaid.Schema
	Records []*alkaid.Record
	// Dictionaries holds the values of each dictionary by id, as the
	// file's "dictionaries" section gives them. [Read] fills it; [Write]
	// derives dictionaries from the records and ignores it.
	Dictionaries map[int64]array.Array
	// DictionaryIDs is the id of every dictionary-encoded field, in the
	// order a depth-first walk of the schema meets them (a dictionary's
	// field before any dictionary-encoded field inside its values). [Read]
	// fills it; [File.Write] numbers dictionaries with it when it has one
	// id per dictionary-encoded field, and from 0 up otherwise.
	DictionaryIDs []int64
}

// The JSON shapes of the data part of the format.

type jsonFile struct {
	Schema       *jsonSchema      `json:"schema"`
	Batches      []jsonBatch      `json:"batches"`
	Dictionaries []jsonDictionary `json:"dictionaries"`
}

type jsonBatch struct {
	Count   int          `json:"count"`
	Columns []jsonColumn `json:"columns"`
}

type jsonDictionary struct {
	ID   int64     `json:"id"`
	Data jsonBatch `json:"data"`
}

type jsonColumn struct {
	Name     string            `json:"name"`
	Count    int               `json:"count"`
	Validity []int             `json:"VALIDITY"`
	Data     []json.RawMessage `json:"DATA"`
	Offset   []json.RawMessage `json:"OFFSET"`
	Size     []json.RawMessage `json:"SIZE"`
	TypeID   []json.RawMessage `json:"TYPE_ID"`
	Views    []jsonView        `json:"VIEWS"`
	Variadic []string          `json:"VARIADIC_DATA_BUFFERS"`
	Children []jsonColumn      `json:"children"`
}

type jsonView struct {
	Size        int32   `json:"SIZE"`
	Inlined     *string `json:"INLINED"`
	PrefixHex   string  `json:"PREFIX_HEX"`
	BufferIndex int32   `json:"BUFFER_INDEX"`
	Offset      int32   `json:"OFFSET"`
}

// ReadFile reads an integration JSON file, gzip-compressed or not (as the
// .json.gz files of the Arrow test suite are).
func ReadFile(path string, opts ...Option) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	file, err := Read(f, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file, nil
}

// Read reads an integration JSON file from r; gzip-compressed input is
// recognised by its magic bytes and decompressed. Every column is checked
// with [array.ValidateFull], less what [SkipValueChecks] leaves out.
func Read(r io.Reader, opts ...Option) (*File, error) {
	cfg := newReadConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	br := bufio.NewReader(r)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrHeader) {
				// a truncated or malformed header, not a failed read
				return nil, fmt.Errorf("integration: %w: gzip header: %w", ErrInvalid, err)
			}
			return nil, fmt.Errorf("integration: gzip: %w", err)
		}
		defer gz.Close()
		r = gz
	} else {
		r = br
	}
	var jf jsonFile
	lr := &io.LimitedReader{R: r, N: cfg.limits.MaxJSONBytes + 1}
	if err := json.NewDecoder(lr).Decode(&jf); err != nil {
		if lr.N <= 0 {
			return nil, fmt.Errorf("integration: %w: the JSON text is longer than Limits.MaxJSONBytes (%d bytes)", datatype.ErrLimit, cfg.limits.MaxJSONBytes)
		}
		return nil, invalidf("decoding JSON: %v", err)
	}
	if jf.Schema == nil {
		return nil, invalidf("no schema")
	}
	sr := &schemaReader{dicts: map[int64]*datatype.DictionaryType{}, valueOf: map[int64]*node{}}
	schema, nodes, err := sr.schema(*jf.Schema)
	if err != nil {
		return nil, err
	}
	cr := &columnReader{sr: sr, raw: map[int64]*jsonDictionary{}, dicts: map[int64]*array.Data{}, busy: map[int64]bool{}, skip: cfg.skip}
	for i := range jf.Dictionaries {
		jd := &jf.Dictionaries[i]
		if _, ok := sr.dicts[jd.ID]; !ok {
			return nil, invalidf("dictionary id %d is not used by the schema", jd.ID)
		}
		if _, dup := cr.raw[jd.ID]; dup {
			return nil, invalidf("dictionary id %d given twice", jd.ID)
		}
		cr.raw[jd.ID] = jd
	}
	file := &File{Schema: schema, DictionaryIDs: sr.dictIDs}
	for _, jd := range jf.Dictionaries {
		d, err := cr.dictionary(jd.ID)
		if err != nil {
			return nil, err
		}
		if file.Dictionaries == nil {
			file.Dictionaries = map[int64]array.Array{}
		}
		file.Dictionaries[jd.ID] = array.MustMake(d)
	}
	for b, jb := range jf.Batches {
		if len(jb.Columns) != schema.NumFields() {
			return nil, invalidf("batch %d has %d columns for %d fields", b, len(jb.Columns), schema.NumFields())
		}
		if jb.Count < 0 || int64(jb.Count) > maxRows {
			return nil, invalidf("batch %d has count %d (0 to %d)", b, jb.Count, maxRows)
		}
		cols := make([]array.Array, len(jb.Columns))
		for i := range jb.Columns {
			f := schema.Field(i)
			path := fmt.Sprintf("batch %d, column %s", b, fieldPath("", i, f.Name))
			d, err := cr.column(&jb.Columns[i], f.Type, nodes[i], jb.Count, path)
			if err != nil {
				return nil, err
			}
			if cols[i], err = checked(d, path, cfg.skip); err != nil {
				return nil, err
			}
		}
		rec, err := alkaid.NewRecord(schema, cols, jb.Count)
		if err != nil {
			return nil, invalidf("batch %d: %v", b, err)
		}
		file.Records = append(file.Records, rec)
	}
	return file, nil
}

// maxRows bounds every count, as the IPC readers bound lengths: arrays of
// nulls take no memory, so only this keeps a small file from declaring
// more rows than anything could iterate.
var maxRows = ipc.DefaultLimits.MaxRows

// checked validates d fully (less the checks skip) and makes its array.
func checked(d *array.Data, path string, skip array.ValueChecks) (array.Array, error) {
	if err := array.ValidateWith(d, array.ValidationOptions{Level: array.ValidateFull, Skip: skip}); err != nil {
		return nil, invalidf("%s: %v", path, err)
	}
	return array.Make(d)
}

// columnReader turns JSON columns into array data.
type columnReader struct {
	sr    *schemaReader
	raw   map[int64]*jsonDictionary
	dicts map[int64]*array.Data
	busy  map[int64]bool    // dictionaries being read, to refuse cycles
	skip  array.ValueChecks // value checks left out
}

// dictionary returns the parsed, validated dictionary of the id.
func (cr *columnReader) dictionary(id int64) (*array.Data, error) {
	if d, ok := cr.dicts[id]; ok {
		return d, nil
	}
	jd, ok := cr.raw[id]
	if !ok {
		return nil, invalidf("dictionary id %d is used but not given", id)
	}
	if cr.busy[id] {
		return nil, invalidf("dictionary id %d contains itself", id)
	}
	cr.busy[id] = true
	defer delete(cr.busy, id)
	path := fmt.Sprintf("dictionary %d", id)
	if len(jd.Data.Columns) != 1 {
		return nil, invalidf("%s has %d columns, want 1", path, len(jd.Data.Columns))
	}
	d, err := cr.column(&jd.Data.Columns[0], cr.sr.dicts[id].Value, cr.sr.valueOf[id], jd.Data.Count, path)
	if err != nil {
		return nil, err
	}
	if err := array.ValidateWith(d, array.ValidationOptions{Level: array.ValidateFull, Skip: cr.skip}); err != nil {
		return nil, invalidf("%s: %v", path, err)
	}
	cr.dicts[id] = d
	return d, nil
}

// column builds the data of column c of type t; length is the count the
// column must have, or -1 when any count will do (offsets decide).
func (cr *columnReader) column(c *jsonColumn, t datatype.DataType, n *node, length int, path string) (*array.Data, error) {
	if c.Count < 0 || int64(c.Count) > maxRows {
		return nil, invalidf("%s: count %d (0 to %d)", path, c.Count, maxRows)
	}
	if length >= 0 && c.Count != length {
		return nil, invalidf("%s: count %d, want %d", path, c.Count, length)
	}
	if ext, ok := t.(datatype.ExtensionType); ok {
		d, err := cr.column(c, ext.StorageType(), n, length, path)
		if err != nil {
			return nil, err
		}
		out := *d
		out.Type = t
		return &out, nil
	}
	count := c.Count
	if n.dict != nil {
		dt := t.(*datatype.DictionaryType)
		valid, nulls, err := validity(c, path)
		if err != nil {
			return nil, err
		}
		idx, err := fixedInts(c.Data, count, dt.Index, path)
		if err != nil {
			return nil, err
		}
		dict, err := cr.dictionary(n.id)
		if err != nil {
			return nil, err
		}
		d := array.NewData(t, count, []*memory.Buffer{valid, idx}, nil, nulls, 0)
		d.Dictionary = dict
		return d, nil
	}
	children := datatype.Children(t)
	if len(n.children) != len(children) {
		return nil, invalidf("%s: type %s does not have the schema's %d children", path, t, len(n.children))
	}
	if len(c.Children) != len(children) {
		return nil, invalidf("%s: %d children, want %d", path, len(c.Children), len(children))
	}
	child := func(i, length int) (*array.Data, error) {
		return cr.column(&c.Children[i], children[i].Type, n.children[i], length, fieldPath(path, i, children[i].Name))
	}
	k := t.Kind()
	switch k {
	case datatype.KindNull:
		return array.NewData(t, count, nil, nil, count, 0), nil
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		codes, err := fixedInts(c.TypeID, count, datatype.Int8, path+" TYPE_ID")
		if err != nil {
			return nil, err
		}
		bufs := []*memory.Buffer{codes}
		childLen := count
		if k == datatype.KindDenseUnion {
			offs, err := fixedInts(c.Offset, count, datatype.Int32, path+" OFFSET")
			if err != nil {
				return nil, err
			}
			bufs = append(bufs, offs)
			childLen = -1
		}
		kids := make([]*array.Data, len(children))
		for i := range children {
			if kids[i], err = child(i, childLen); err != nil {
				return nil, err
			}
		}
		return array.NewData(t, count, bufs, kids, 0, 0), nil
	case datatype.KindRunEndEncoded:
		ends, err := child(0, -1)
		if err != nil {
			return nil, err
		}
		values, err := child(1, ends.Length)
		if err != nil {
			return nil, err
		}
		return array.NewData(t, count, nil, []*array.Data{ends, values}, 0, 0), nil
	}
	valid, nulls, err := validity(c, path)
	if err != nil {
		return nil, err
	}
	bufs := []*memory.Buffer{valid}
	var kids []*array.Data
	switch k {
	case datatype.KindBool:
		if len(c.Data) != count {
			return nil, invalidf("%s: %d DATA values for count %d", path, len(c.Data), count)
		}
		bits := memory.Allocate(nil, (count+7)/8)
		b := bits.Bytes()
		for i, raw := range c.Data {
			v, err := parseBool(raw)
			if err != nil {
				return nil, invalidf("%s: DATA[%d]: %v", path, i, err)
			}
			if v {
				b[i/8] |= 1 << (i % 8)
			}
		}
		bufs = append(bufs, bits)
	case datatype.KindFixedSizeBinary:
		buf, err := fixedBinary(c.Data, count, t.(*datatype.FixedSizeBinaryType).ByteWidth, path)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
	case datatype.KindBinary, datatype.KindString, datatype.KindLargeBinary, datatype.KindLargeString:
		wide := k == datatype.KindLargeBinary || k == datatype.KindLargeString
		text := k == datatype.KindString || k == datatype.KindLargeString
		offs, data, err := binaryBuffers(c, count, wide, text, path)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, offs, data)
	case datatype.KindBinaryView, datatype.KindStringView:
		more, err := viewBuffers(c, count, k == datatype.KindStringView, path)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, more...)
	case datatype.KindList, datatype.KindLargeList, datatype.KindMap:
		offs, err := offsetBuffer(c.Offset, count, k == datatype.KindLargeList, path)
		if err != nil {
			return nil, err
		}
		elems, err := child(0, -1)
		if err != nil {
			return nil, err
		}
		bufs, kids = append(bufs, offs), []*array.Data{elems}
	case datatype.KindListView, datatype.KindLargeListView:
		it := datatype.Int32
		if k == datatype.KindLargeListView {
			it = datatype.Int64
		}
		offs, err := fixedInts(c.Offset, count, it, path+" OFFSET")
		if err != nil {
			return nil, err
		}
		sizes, err := fixedInts(c.Size, count, it, path+" SIZE")
		if err != nil {
			return nil, err
		}
		elems, err := child(0, -1)
		if err != nil {
			return nil, err
		}
		bufs, kids = append(bufs, offs, sizes), []*array.Data{elems}
	case datatype.KindFixedSizeList:
		size := int(t.(*datatype.ListType).Size())
		if size > 0 && count > math.MaxInt32/size {
			return nil, invalidf("%s: %d lists of %d values is too many", path, count, size)
		}
		elems, err := child(0, count*size)
		if err != nil {
			return nil, err
		}
		kids = []*array.Data{elems}
	case datatype.KindStruct:
		kids = make([]*array.Data, len(children))
		for i := range children {
			if kids[i], err = child(i, count); err != nil {
				return nil, err
			}
		}
	case datatype.KindDayTimeInterval, datatype.KindMonthDayNanoInterval:
		buf, err := intervals(c.Data, count, k == datatype.KindMonthDayNanoInterval, path)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
	case datatype.KindDecimal128, datatype.KindDecimal256:
		buf, err := bigDecimals(c.Data, count, 8*datatype.ByteWidth(t), path)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
	case datatype.KindFloat16, datatype.KindFloat32, datatype.KindFloat64:
		buf, err := floats(c.Data, count, k, path)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
	default:
		if !datatype.IsFixedWidth(t) {
			return nil, invalidf("%s: type %s is not supported", path, t)
		}
		buf, err := fixedInts(c.Data, count, t, path)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
	}
	return array.NewData(t, count, bufs, kids, nulls, 0), nil
}

// validity builds the bitmap of VALIDITY (nil when no slot is null) and
// counts the nulls. Columns of types with a validity bitmap must have
// VALIDITY, as in Arrow's own readers; it also bounds the column's count
// by the size of the input.
func validity(c *jsonColumn, path string) (*memory.Buffer, int, error) {
	if c.Validity == nil && c.Count > 0 {
		return nil, 0, invalidf("%s: no VALIDITY", path)
	}
	if len(c.Validity) != c.Count {
		return nil, 0, invalidf("%s: %d VALIDITY values for count %d", path, len(c.Validity), c.Count)
	}
	buf := memory.Allocate(nil, (c.Count+7)/8)
	b := buf.Bytes()
	nulls := 0
	for i, v := range c.Validity {
		switch v {
		case 1:
			b[i/8] |= 1 << (i % 8)
		case 0:
			nulls++
		default:
			return nil, 0, invalidf("%s: VALIDITY[%d] is %d, want 0 or 1", path, i, v)
		}
	}
	if nulls == 0 {
		return nil, 0, nil
	}
	return buf, nulls, nil
}
