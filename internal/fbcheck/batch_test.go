package fbcheck

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/alkaid-go/alkaid/internal/flatbuf"
)

// flatNode is one entry of a record batch's depth-first pre-order flattening
// of the schema, paired with the JSON column that describes it.
type flatNode struct {
	path string
	tag  flatbuf.Type
	mode flatbuf.UnionMode // unions only
	dict bool              // dictionary encoded: the node holds indices, children are not flattened
	col  *jsonColumn
}

// flatten appends the nodes of field f (described by JSON column col) to out.
// For a dictionary batch the top field is the dictionary's value field, whose
// own dictionary encoding does not apply: asValue is true then.
// Names are compared except inside maps (see checkField).
func flatten(f *flatbuf.Field, col *jsonColumn, asValue bool, path string, skipNames int, out []flatNode) ([]flatNode, error) {
	path += "/" + string(f.Name())
	if col.Name != string(f.Name()) && skipNames == 0 {
		return nil, fmt.Errorf("%s: JSON column is named %q", path, col.Name)
	}
	n := flatNode{path: path, tag: f.TypeType(), col: col}
	if f.Dictionary(nil) != nil && !asValue {
		n.dict = true
		return append(out, n), nil
	}
	if n.tag == flatbuf.TypeUnion {
		tbl, _ := typeTable(f)
		var u flatbuf.Union
		u.Init(tbl.Bytes, tbl.Pos)
		n.mode = u.Mode()
	}
	out = append(out, n)
	if f.ChildrenLength() != len(col.Children) {
		return nil, fmt.Errorf("%s: %d children, JSON column has %d", path, f.ChildrenLength(), len(col.Children))
	}
	childSkip := max(skipNames-1, 0)
	if n.tag == flatbuf.TypeMap {
		childSkip = 2
	}
	var err error
	for i := range col.Children {
		var c flatbuf.Field
		f.Children(&c, i)
		if out, err = flatten(&c, &col.Children[i], false, path, childSkip, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bufferCount is the number of buffers a node has in a V5 record batch,
// not counting variadic data buffers.
func bufferCount(n flatNode) int {
	if n.dict {
		return 2 // validity, indices
	}
	switch n.tag {
	case flatbuf.TypeNull, flatbuf.TypeRunEndEncoded:
		return 0
	case flatbuf.TypeStruct_, flatbuf.TypeFixedSizeList:
		return 1
	case flatbuf.TypeUnion:
		if n.mode == flatbuf.UnionModeDense {
			return 2 // type ids, offsets
		}
		return 1 // type ids
	case flatbuf.TypeBinary, flatbuf.TypeUtf8, flatbuf.TypeLargeBinary, flatbuf.TypeLargeUtf8,
		flatbuf.TypeListView, flatbuf.TypeLargeListView:
		return 3
	default: // fixed-width types, views (validity, views), List, LargeList, Map
		return 2
	}
}

func hasValidity(n flatNode) bool {
	return n.dict || (n.tag != flatbuf.TypeNull && n.tag != flatbuf.TypeUnion && n.tag != flatbuf.TypeRunEndEncoded)
}

func isView(n flatNode) bool {
	return !n.dict && (n.tag == flatbuf.TypeBinaryView || n.tag == flatbuf.TypeUtf8View)
}

// checkRecordBatch compares a RecordBatch header (and the validity bitmaps
// in its body, when uncompressed) with the JSON batch. It returns the number
// of variadic buffer counts and of validity bitmaps it checked.
func checkRecordBatch(rb *flatbuf.RecordBatch, body []byte, nodes []flatNode, want *jsonBatch, codec *flatbuf.CompressionType) (variadicCounts, bitmaps int, err error) {
	if rb.Length() != want.Count {
		return 0, 0, fmt.Errorf("length %d, JSON count %d", rb.Length(), want.Count)
	}
	if rb.NodesLength() != len(nodes) {
		return 0, 0, fmt.Errorf("%d field nodes, schema flattens to %d", rb.NodesLength(), len(nodes))
	}
	comp := rb.Compression(nil)
	switch {
	case codec == nil && comp != nil:
		return 0, 0, fmt.Errorf("unexpected compression %v", comp.Codec())
	case codec != nil && comp == nil:
		return 0, 0, fmt.Errorf("no compression, want %v", *codec)
	case codec != nil && (comp.Codec() != *codec || comp.Method() != flatbuf.BodyCompressionMethodBUFFER):
		return 0, 0, fmt.Errorf("compression %v/%v, want %v/BUFFER", comp.Codec(), comp.Method(), *codec)
	}

	var wantVariadic []int64
	wantBuffers := 0
	for _, n := range nodes {
		wantBuffers += bufferCount(n)
		if isView(n) {
			wantVariadic = append(wantVariadic, int64(len(n.col.Variadic)))
			wantBuffers += len(n.col.Variadic)
		}
	}
	var variadic []int64
	for i := range rb.VariadicBufferCountsLength() {
		variadic = append(variadic, rb.VariadicBufferCounts(i))
	}
	if !slices.Equal(variadic, wantVariadic) {
		return 0, 0, fmt.Errorf("variadicBufferCounts %v, JSON wants %v", variadic, wantVariadic)
	}
	if rb.BuffersLength() != wantBuffers {
		return 0, 0, fmt.Errorf("%d buffers, the schema's layouts want %d", rb.BuffersLength(), wantBuffers)
	}
	var b flatbuf.Buffer
	for i := range rb.BuffersLength() {
		rb.Buffers(&b, i)
		off, n := b.Offset(), b.Length()
		if off < 0 || n < 0 || off%8 != 0 || off+n > int64(len(body)) {
			return 0, 0, fmt.Errorf("buffer %d {offset %d, length %d} misaligned or outside the %d-byte body", i, off, n, len(body))
		}
		if codec != nil && n > 0 {
			if n < 8 {
				return 0, 0, fmt.Errorf("compressed buffer %d shorter than its length prefix", i)
			}
			if u := int64(binary.LittleEndian.Uint64(body[off:])); u < -1 {
				return 0, 0, fmt.Errorf("compressed buffer %d: uncompressed length %d", i, u)
			}
		}
	}

	bi := 0
	var fn flatbuf.FieldNode
	for i, n := range nodes {
		rb.Nodes(&fn, i)
		if fn.Length() != n.col.Count {
			return 0, 0, fmt.Errorf("node %d %s: length %d, JSON count %d", i, n.path, fn.Length(), n.col.Count)
		}
		if n.col.Validity != nil {
			nulls := int64(0)
			for _, v := range n.col.Validity {
				if v == 0 {
					nulls++
				}
			}
			if fn.NullCount() != nulls {
				return 0, 0, fmt.Errorf("node %d %s: null_count %d, JSON has %d nulls", i, n.path, fn.NullCount(), nulls)
			}
			if hasValidity(n) && codec == nil {
				rb.Buffers(&b, bi)
				if b.Length() > 0 { // an absent bitmap means all valid
					bits := body[b.Offset() : b.Offset()+b.Length()]
					if int64(len(bits))*8 < n.col.Count {
						return 0, 0, fmt.Errorf("node %d %s: %d-byte validity bitmap for %d values", i, n.path, len(bits), n.col.Count)
					}
					for j, v := range n.col.Validity {
						if int(bits[j/8]>>(j%8)&1) != v {
							return 0, 0, fmt.Errorf("node %d %s: validity bit %d differs from JSON", i, n.path, j)
						}
					}
					bitmaps++
				}
			}
		}
		bi += bufferCount(n)
		if isView(n) {
			bi += len(n.col.Variadic)
		}
	}
	return len(wantVariadic), bitmaps, nil
}

// findDictField returns the field whose dictionary encoding has the given id.
func findDictField(s *flatbuf.Schema, id int64) *flatbuf.Field {
	var walk func(f *flatbuf.Field) *flatbuf.Field
	walk = func(f *flatbuf.Field) *flatbuf.Field {
		if d := f.Dictionary(nil); d != nil && d.Id() == id {
			return f
		}
		for i := range f.ChildrenLength() {
			c := new(flatbuf.Field)
			f.Children(c, i)
			if r := walk(c); r != nil {
				return r
			}
		}
		return nil
	}
	for i := range s.FieldsLength() {
		f := new(flatbuf.Field)
		s.Fields(f, i)
		if r := walk(f); r != nil {
			return r
		}
	}
	return nil
}
