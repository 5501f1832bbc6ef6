package integration

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Write writes schema and records as an integration JSON file.
// Dictionary-encoded fields that share one dictionary (the same
// [array.Data] in every record) share an id; the others are numbered from
// 0 in schema order. See [File.Write].
func Write(w io.Writer, schema *alkaid.Schema, records []*alkaid.Record) error {
	return (&File{Schema: schema, Records: records}).Write(w)
}

// Write writes f as an integration JSON file. The dictionaries come from
// the records; the JSON format holds one dictionary per id for the whole
// file, so a dictionary may only grow from batch to batch (the largest is
// written) and an error is returned when a batch replaces one. Dictionary
// ids come from f.DictionaryIDs when it has one per dictionary-encoded
// field. Metadata keys of the Alkaid namespace ("ALKAID:…") are written in
// Arrow's ("ARROW:…"), the namespace of the format; floats that are not
// finite are written as the strings "NaN", "Infinity" and "-Infinity".
func (f *File) Write(w io.Writer) error {
	s := f.Schema
	if s == nil {
		return fmt.Errorf("integration: no schema")
	}
	var slots []*slot
	nodes := make([]*node, s.NumFields())
	for i := range nodes {
		nodes[i] = buildNode(s.Field(i).Type, &slots)
	}
	for b, rec := range f.Records {
		if !rec.Schema().Equal(s, datatype.IgnoreMetadata()) {
			return fmt.Errorf("integration: record %d has a schema other than the file's", b)
		}
		for i, col := range rec.Columns() {
			gather(col.Data(), nodes[i], slots, b)
		}
	}
	ids, err := assignIDs(slots, f.DictionaryIDs, len(f.Records))
	if err != nil {
		return err
	}
	jw := &jsonWriter{}
	jw.raw(`{"schema":`)
	jw.schema(s, nodes, ids)
	bw := bufio.NewWriterSize(w, 1<<16)
	flush := func() error {
		_, err := bw.Write(jw.buf.Bytes())
		jw.buf.Reset()
		return err
	}
	// One dictionary per id, in id order.
	byID := map[int64]*slot{}
	for _, sl := range slots {
		if cur, ok := byID[sl.id]; !ok || cur.values == nil {
			byID[sl.id] = sl
		}
	}
	if len(byID) > 0 {
		order := make([]int64, 0, len(byID))
		for id := range byID {
			order = append(order, id)
		}
		sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
		jw.raw(`,"dictionaries":[`)
		for i, id := range order {
			sl := byID[id]
			values := sl.values
			if values == nil {
				var err error
				if values, err = emptyData(sl.node.dict.Value); err != nil {
					return err
				}
			}
			jw.comma(i)
			jw.raw(`{"id":`)
			jw.int(id)
			jw.raw(`,"data":{"count":`)
			jw.int(int64(values.Length))
			jw.raw(`,"columns":[`)
			jw.column("DICT"+strconv.FormatInt(id, 10), values, sl.node.value)
			jw.raw(`]}}`)
			if err := flush(); err != nil {
				return err
			}
		}
		jw.byte(']')
	}
	jw.raw(`,"batches":[`)
	for b, rec := range f.Records {
		jw.comma(b)
		jw.raw(`{"count":`)
		jw.int(int64(rec.NumRows()))
		jw.raw(`,"columns":[`)
		for i, col := range rec.Columns() {
			jw.comma(i)
			jw.column(s.Field(i).Name, col.Data(), nodes[i])
		}
		jw.raw(`]}`)
		if err := flush(); err != nil {
			return err
		}
	}
	jw.raw("]}\n")
	if err := flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// slot is one dictionary-encoded position of the schema while writing.
type slot struct {
	node   *node
	perRec []*array.Data // the dictionary each record has here
	id     int64
	values *array.Data // the dictionary written for the id
}

// buildNode mirrors t's storage, giving each dictionary a slot.
func buildNode(t datatype.DataType, slots *[]*slot) *node {
	t = datatype.StorageOf(t)
	if dt, ok := t.(*datatype.DictionaryType); ok {
		n := &node{dict: dt, slot: len(*slots)}
		*slots = append(*slots, &slot{node: n})
		n.value = buildNode(dt.Value, slots)
		return n
	}
	n := &node{}
	for _, c := range datatype.Children(t) {
		n.children = append(n.children, buildNode(c.Type, slots))
	}
	return n
}

// gather notes the dictionaries of record rec found under d.
func gather(d *array.Data, n *node, slots []*slot, rec int) {
	if n.dict != nil {
		sl := slots[n.slot]
		for len(sl.perRec) <= rec {
			sl.perRec = append(sl.perRec, nil)
		}
		if sl.perRec[rec] == nil && d.Dictionary != nil {
			sl.perRec[rec] = d.Dictionary
			gather(d.Dictionary, n.value, slots, rec)
		}
		return
	}
	for i, c := range d.Children {
		if i < len(n.children) {
			gather(c, n.children[i], slots, rec)
		}
	}
}

// assignIDs numbers the slots (from given when it fits) and picks the
// dictionary of each id: the longest of those the records have, of which
// every other must be a prefix.
func assignIDs(slots []*slot, given []int64, records int) ([]int64, error) {
	ids := make([]int64, len(slots))
	if len(given) == len(slots) {
		copy(ids, given)
	} else {
		next := int64(0)
		for k, sl := range slots {
			ids[k] = -1
			for j := range k {
				if sameDictionaries(slots[j], sl, records) {
					ids[k] = ids[j]
					break
				}
			}
			if ids[k] < 0 {
				ids[k] = next
				next++
			}
		}
	}
	longest := map[int64]*array.Data{}
	for k, sl := range slots {
		sl.id = ids[k]
		for _, d := range sl.perRec {
			if d != nil && (longest[sl.id] == nil || d.Length > longest[sl.id].Length) {
				longest[sl.id] = d
			}
		}
	}
	for k, sl := range slots {
		sl.values = longest[sl.id]
		if sl.values == nil {
			continue
		}
		if !datatype.Equal(sl.node.dict.Value, sl.values.Type) {
			return nil, fmt.Errorf("integration: dictionary id %d serves value types %s and %s", sl.id, sl.node.dict.Value, sl.values.Type)
		}
		full := array.MustMake(sl.values)
		for rec, d := range sl.perRec {
			if d == nil || d == sl.values {
				continue
			}
			part := array.MustMake(d)
			if _, desc, eq := array.FirstDifference(array.Slice(full, 0, d.Length), part); !eq {
				return nil, fmt.Errorf("integration: dictionary id %d (field %d of the dictionary fields) changes in record %d (%s); the JSON format holds one dictionary per id", sl.id, k, rec, desc)
			}
		}
	}
	return ids, nil
}

func sameDictionaries(a, b *slot, records int) bool {
	if !datatype.Equal(a.node.dict.Value, b.node.dict.Value) {
		return false
	}
	for rec := range records {
		var da, db *array.Data
		if rec < len(a.perRec) {
			da = a.perRec[rec]
		}
		if rec < len(b.perRec) {
			db = b.perRec[rec]
		}
		if da != db {
			return false
		}
	}
	return records > 0
}

// emptyData is a zero-length array of t, for a dictionary no record has.
// Types no builder exists for (read from untrusted input) give an error.
func emptyData(t datatype.DataType) (*array.Data, error) {
	b, err := array.TryNewBuilder(t)
	if err != nil {
		return nil, fmt.Errorf("integration: dictionary of %s: %w", t, err)
	}
	return b.NewArray().Data(), nil
}

// column emits one column object: logical slots [0, d.Length) of d.
func (w *jsonWriter) column(name string, d *array.Data, n *node) {
	t := datatype.StorageOf(d.Type)
	k := t.Kind()
	w.raw(`{"name":`)
	w.str(name)
	w.raw(`,"count":`)
	w.int(int64(d.Length))
	switch k {
	case datatype.KindNull:
		w.byte('}')
		return
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		w.union(d, t.(*datatype.UnionType), n)
		w.byte('}')
		return
	case datatype.KindRunEndEncoded:
		w.runEnds(d, t.(*datatype.RunEndEncodedType), n)
		w.byte('}')
		return
	}
	w.validity(d)
	if n.dict != nil {
		w.raw(`,"DATA":`)
		w.ints(d, n.dict.Index)
		w.byte('}')
		return
	}
	children := datatype.Children(t)
	var kids []*array.Data
	switch k {
	case datatype.KindBool:
		w.raw(`,"DATA":[`)
		bits, off := d.BoolBits()
		for i := range d.Length {
			w.comma(i)
			w.bool(bitutil.GetBit(bits, off+i))
		}
		w.byte(']')
	case datatype.KindFixedSizeBinary:
		width := t.(*datatype.FixedSizeBinaryType).ByteWidth
		b := d.ValueBytes()
		w.raw(`,"DATA":[`)
		for i := range d.Length {
			w.comma(i)
			w.hex(b[i*width : (i+1)*width])
		}
		w.byte(']')
	case datatype.KindBinary, datatype.KindString, datatype.KindLargeBinary, datatype.KindLargeString:
		wide := k == datatype.KindLargeBinary || k == datatype.KindLargeString
		text := k == datatype.KindString || k == datatype.KindLargeString
		offs := w.offsets(d, wide)
		data := d.BinaryBytes()
		w.raw(`,"DATA":[`)
		for i := range d.Length {
			w.comma(i)
			v := data[offs[i]:offs[i+1]]
			if text {
				w.str(string(v))
			} else {
				w.hex(v)
			}
		}
		w.byte(']')
	case datatype.KindBinaryView, datatype.KindStringView:
		w.views(d, k == datatype.KindStringView)
	case datatype.KindList, datatype.KindLargeList, datatype.KindMap:
		wide := k == datatype.KindLargeList
		offs := w.offsets(d, wide)
		kids = []*array.Data{d.Child(0).Slice(int(offs[0]), int(offs[d.Length]))}
	case datatype.KindListView, datatype.KindLargeListView:
		it, offs, sizes := datatype.Int32, []byte(nil), []byte(nil)
		if k == datatype.KindLargeListView {
			it = datatype.Int64
			o, s := array.ListViewSpans[int64](d)
			offs, sizes = memory.BytesOf(o), memory.BytesOf(s)
		} else {
			o, s := array.ListViewSpans[int32](d)
			offs, sizes = memory.BytesOf(o), memory.BytesOf(s)
		}
		w.raw(`,"OFFSET":`)
		w.intBuffer(offs, 0, d.Length, it)
		w.raw(`,"SIZE":`)
		w.intBuffer(sizes, 0, d.Length, it)
		kids = []*array.Data{d.Child(0)}
	case datatype.KindFixedSizeList:
		size := int(t.(*datatype.ListType).Size())
		kids = []*array.Data{d.Children[0].Slice(d.Offset*size, (d.Offset+d.Length)*size)}
	case datatype.KindStruct:
		kids = make([]*array.Data, len(d.Children))
		for i, c := range d.Children {
			kids[i] = c.Slice(d.Offset, d.Offset+d.Length)
		}
	case datatype.KindDayTimeInterval, datatype.KindMonthDayNanoInterval:
		w.intervals(d, k == datatype.KindMonthDayNanoInterval)
	case datatype.KindDecimal128, datatype.KindDecimal256:
		w.bigDecimals(d, 8*datatype.ByteWidth(t))
	case datatype.KindFloat16, datatype.KindFloat32, datatype.KindFloat64:
		w.floats(d, k)
	default:
		w.raw(`,"DATA":`)
		w.ints(d, t)
	}
	if kids != nil {
		w.children(kids, children, n.children)
	}
	w.byte('}')
}

func (w *jsonWriter) children(kids []*array.Data, fields []datatype.Field, nodes []*node) {
	w.raw(`,"children":[`)
	for i, c := range kids {
		w.comma(i)
		w.column(fields[i].Name, c, nodes[i])
	}
	w.byte(']')
}

func (w *jsonWriter) validity(d *array.Data) {
	w.raw(`,"VALIDITY":[`)
	for i := range d.Length {
		w.comma(i)
		if d.IsValid(i) {
			w.byte('1')
		} else {
			w.byte('0')
		}
	}
	w.byte(']')
}

// offsets emits the Len()+1 offsets rebased to start at zero and returns
// them as they are (not rebased).
func (w *jsonWriter) offsets(d *array.Data, wide bool) []int64 {
	var offs []int64
	if wide {
		offs = array.Offsets[int64](d)
	} else {
		o := array.Offsets[int32](d)
		offs = make([]int64, len(o))
		for i, v := range o {
			offs[i] = int64(v)
		}
	}
	w.raw(`,"OFFSET":[`)
	for i, v := range offs {
		w.comma(i)
		if wide {
			w.qint(v - offs[0])
		} else {
			w.int(v - offs[0])
		}
	}
	w.byte(']')
	return offs
}

// ints emits the values of an integer-like fixed-width type t from d's
// value buffer; 64-bit values and decimals are strings, as the format has
// them (JSON numbers lose precision beyond 2^53).
func (w *jsonWriter) ints(d *array.Data, t datatype.DataType) {
	w.intBuffer(d.ValueBytes(), 0, d.Length, t)
}

func (w *jsonWriter) intBuffer(b []byte, off, n int, t datatype.DataType) {
	width := datatype.ByteWidth(t)
	k := datatype.StorageOf(t).Kind()
	unsigned := k.IsInteger() && !k.IsSignedInteger()
	decimal := k == datatype.KindDecimal32 || k == datatype.KindDecimal64
	w.byte('[')
	for i := range n {
		w.comma(i)
		p := b[(off+i)*width:]
		switch {
		case decimal && width == 4:
			w.qint(int64(int32(binary.LittleEndian.Uint32(p))))
			continue
		case decimal:
			w.qint(int64(binary.LittleEndian.Uint64(p)))
			continue
		}
		switch width {
		case 1:
			if unsigned {
				w.int(int64(p[0]))
			} else {
				w.int(int64(int8(p[0])))
			}
		case 2:
			v := binary.LittleEndian.Uint16(p)
			if unsigned {
				w.int(int64(v))
			} else {
				w.int(int64(int16(v)))
			}
		case 4:
			v := binary.LittleEndian.Uint32(p)
			if unsigned {
				w.int(int64(v))
			} else {
				w.int(int64(int32(v)))
			}
		default:
			v := binary.LittleEndian.Uint64(p)
			if unsigned {
				w.quint(v)
			} else {
				w.qint(int64(v))
			}
		}
	}
	w.byte(']')
}

func (w *jsonWriter) hex(b []byte) {
	w.byte('"')
	w.raw(strings.ToUpper(hex.EncodeToString(b)))
	w.byte('"')
}

func (w *jsonWriter) floats(d *array.Data, k datatype.Kind) {
	b := d.ValueBytes()
	w.raw(`,"DATA":[`)
	for i := range d.Length {
		w.comma(i)
		j := i
		var v float64
		bits := 64
		switch k {
		case datatype.KindFloat16:
			v, bits = float64(datatype.Float16(binary.LittleEndian.Uint16(b[2*j:])).Float32()), 32
		case datatype.KindFloat32:
			v, bits = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))), 32
		default:
			v = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
		}
		switch {
		case math.IsNaN(v):
			w.str("NaN")
		case math.IsInf(v, 1):
			w.str("Infinity")
		case math.IsInf(v, -1):
			w.str("-Infinity")
		default:
			w.raw(strconv.FormatFloat(v, 'g', -1, bits))
		}
	}
	w.byte(']')
}

func (w *jsonWriter) bigDecimals(d *array.Data, bits int) {
	b := d.ValueBytes()
	width := bits / 8
	w.raw(`,"DATA":[`)
	for i := range d.Length {
		w.comma(i)
		p := b[i*width:]
		var v interface{ String() string }
		if bits == 128 {
			v = datatype.Decimal128{Lo: binary.LittleEndian.Uint64(p), Hi: int64(binary.LittleEndian.Uint64(p[8:]))}.BigInt()
		} else {
			var x datatype.Decimal256
			for j := range x {
				x[j] = binary.LittleEndian.Uint64(p[8*j:])
			}
			v = x.BigInt()
		}
		w.str(v.String())
	}
	w.byte(']')
}

func (w *jsonWriter) intervals(d *array.Data, mdn bool) {
	b := d.ValueBytes()
	w.raw(`,"DATA":[`)
	for i := range d.Length {
		w.comma(i)
		if mdn {
			p := b[16*i:]
			w.raw(`{"months":`)
			w.int(int64(int32(binary.LittleEndian.Uint32(p))))
			w.raw(`,"days":`)
			w.int(int64(int32(binary.LittleEndian.Uint32(p[4:]))))
			w.raw(`,"nanoseconds":`)
			w.int(int64(binary.LittleEndian.Uint64(p[8:])))
		} else {
			p := b[8*i:]
			w.raw(`{"days":`)
			w.int(int64(int32(binary.LittleEndian.Uint32(p))))
			w.raw(`,"milliseconds":`)
			w.int(int64(int32(binary.LittleEndian.Uint32(p[4:]))))
		}
		w.byte('}')
	}
	w.byte(']')
}

// views emits the views as they are (inline or pointing into a data
// buffer) and every data buffer in hex.
func (w *jsonWriter) views(d *array.Data, text bool) {
	vb := d.Views()
	w.raw(`,"VIEWS":[`)
	for i := range d.Length {
		w.comma(i)
		p := vb[16*i : 16*(i+1)]
		size := int32(binary.LittleEndian.Uint32(p))
		w.raw(`{"SIZE":`)
		w.int(int64(size))
		if size <= array.ViewInlineMax {
			w.raw(`,"INLINED":`)
			if text {
				w.str(string(p[4 : 4+max(size, 0)]))
			} else {
				w.hex(p[4 : 4+max(size, 0)])
			}
		} else {
			w.raw(`,"PREFIX_HEX":`)
			w.hex(p[4:8])
			w.raw(`,"BUFFER_INDEX":`)
			w.int(int64(int32(binary.LittleEndian.Uint32(p[8:]))))
			w.raw(`,"OFFSET":`)
			w.int(int64(int32(binary.LittleEndian.Uint32(p[12:]))))
		}
		w.byte('}')
	}
	w.raw(`],"VARIADIC_DATA_BUFFERS":[`)
	for i, b := range d.ViewDataBuffers() {
		w.comma(i)
		w.hex(b.Bytes())
	}
	w.byte(']')
}

func (w *jsonWriter) union(d *array.Data, t *datatype.UnionType, n *node) {
	w.raw(`,"TYPE_ID":`)
	w.intBuffer(memory.BytesOf(d.TypeCodes()), 0, d.Length, datatype.Int8)
	kids := d.Children
	if t.Mode() == datatype.Dense {
		w.raw(`,"OFFSET":`)
		w.intBuffer(memory.BytesOf(d.UnionOffsets()), 0, d.Length, datatype.Int32)
	} else {
		kids = make([]*array.Data, len(d.Children))
		for i, c := range d.Children {
			kids[i] = c.Slice(d.Offset, d.Offset+d.Length)
		}
	}
	w.children(kids, t.Fields(), n.children)
}

// runEnds emits a run-end encoded array; a sliced one is written as the
// runs it covers with their ends made relative to the slice.
func (w *jsonWriter) runEnds(d *array.Data, t *datatype.RunEndEncodedType, n *node) {
	ends, values := d.LogicalRuns()
	w.children([]*array.Data{ends, values}, []datatype.Field{t.RunEnds(), t.Values()}, n.children)
}
