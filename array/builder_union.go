package array

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// UnionBuilder builds a sparse or dense [Union] array. Append(code) starts
// a slot of the child with that type code and returns the child's builder;
// append exactly one value to it. In a sparse union the other children
// get a null for the slot, so that every child stays as long as the union.
//
//	b := array.NewBuilder(unionType).(*array.UnionBuilder)
//	b.Append(0).(*array.Float32Builder).Append(1.2)
//	b.AppendNull() // a null in the first child
type UnionBuilder struct {
	dtype    *datatype.UnionType
	cfg      *builderConfig
	length   int
	capacity int
	codes    []byte // int8 type codes, capacity bytes
	rawOff   []byte
	offsets  []int32 // dense only
	children []builder
	index    [128]int
	first    int8 // type code of the first child
}

// NewUnionBuilder returns a builder of arrays of t.
func NewUnionBuilder(t *datatype.UnionType, opts ...BuilderOption) *UnionBuilder {
	cfg := newConfig(opts)
	cs := make([]builder, t.NumFields())
	for i := range cs {
		c, err := newBuilder(t.Field(i).Type, cfg, 1)
		if err != nil {
			panic(err)
		}
		cs[i] = c
	}
	return newUnionBuilder(t, cs, cfg)
}

func newUnionBuilder(t *datatype.UnionType, children []builder, cfg *builderConfig) *UnionBuilder {
	b := &UnionBuilder{dtype: t, cfg: cfg, children: children, index: t.ChildIndex()}
	if codes := t.TypeCodes(); len(codes) > 0 {
		b.first = codes[0]
	}
	return b
}

// Type is the union type.
func (b *UnionBuilder) Type() datatype.DataType { return b.dtype }

// Len is the number of slots appended.
func (b *UnionBuilder) Len() int { return b.length }

// NullN is 0: a union's nulls are its children's.
func (b *UnionBuilder) NullN() int { return 0 }

// Mode is sparse or dense.
func (b *UnionBuilder) Mode() datatype.UnionMode { return b.dtype.Mode() }

// NumChildren is the number of children.
func (b *UnionBuilder) NumChildren() int { return len(b.children) }

// ChildBuilder is the builder of child i (by index, not type code).
func (b *UnionBuilder) ChildBuilder(i int) Builder { return b.children[i] }

func (b *UnionBuilder) grow(n int) {
	need := b.length + n
	if need <= b.capacity {
		return
	}
	c := growCap(b.capacity, need)
	codes := b.cfg.bytes(c)
	copy(codes, b.codes)
	b.codes = codes
	if b.dtype.Mode() == datatype.Dense {
		b.rawOff, b.offsets = growOffsets[int32](b.cfg, b.rawOff, c, 0)
	}
	b.capacity = c
}

// Reserve makes room for n more slots (not in the children).
func (b *UnionBuilder) Reserve(n int) { b.grow(n) }

// Append starts a slot of the child with type code code and returns that
// child's builder, to which exactly one value must then be appended. It
// panics when no child has the code (a programmer error).
func (b *UnionBuilder) Append(code int8) Builder {
	if code < 0 || b.index[code] < 0 {
		panic(fmt.Sprintf("array: union %s has no type code %d", b.dtype, code))
	}
	idx := b.index[code]
	b.grow(1)
	n := b.length
	b.codes[n] = byte(code)
	if b.dtype.Mode() == datatype.Dense {
		b.offsets[n] = toOffset[int32](b.children[idx].Len())
	} else {
		for i, c := range b.children {
			if i != idx {
				c.AppendNull()
			}
		}
	}
	b.length = n + 1
	return b.children[idx]
}

// AppendNull appends a null of the first child.
func (b *UnionBuilder) AppendNull() { b.Append(b.first).AppendNull() }

// AppendNulls appends n nulls of the first child.
func (b *UnionBuilder) AppendNulls(n int) {
	for range n {
		b.AppendNull()
	}
}

// AppendEmptyValue appends an empty value of the first child.
func (b *UnionBuilder) AppendEmptyValue() { b.Append(b.first).AppendEmptyValue() }

// AppendEmptyValues appends n empty values of the first child.
func (b *UnionBuilder) AppendEmptyValues(n int) {
	for range n {
		b.AppendEmptyValue()
	}
}

func (b *UnionBuilder) childSlot(i int) (builder, int) {
	c := b.children[b.index[b.codes[i]]]
	if b.dtype.Mode() == datatype.Dense {
		return c, int(b.offsets[i])
	}
	return c, i
}

func (b *UnionBuilder) slotsEqual(i, j int) bool {
	if b.codes[i] != b.codes[j] {
		return false
	}
	c, si := b.childSlot(i)
	_, sj := b.childSlot(j)
	return c.slotsEqual(si, sj)
}

func (b *UnionBuilder) truncate(n int) {
	if n >= b.length {
		return
	}
	if b.dtype.Mode() == datatype.Dense {
		for i := b.length - 1; i >= n; i-- {
			c, s := b.childSlot(i)
			c.truncate(s)
		}
		clear(b.offsets[n:b.length])
	} else {
		for _, c := range b.children {
			c.truncate(n)
		}
	}
	clear(b.codes[n:b.length])
	b.length = n
}

// Finish returns the array built so far and resets the builder. It panics
// when the children were not given the values their slots need (a
// programmer error).
func (b *UnionBuilder) Finish() *Union {
	if b.codes == nil {
		b.grow(0)
	}
	bufs := []*memory.Buffer{b.cfg.buffer(b.codes, b.length)}
	if b.dtype.Mode() == datatype.Dense {
		for i := range b.length {
			if c, s := b.childSlot(i); s >= c.Len() {
				panic(fmt.Sprintf("array: dense union slot %d refers to child value %d of %d", i, s, c.Len()))
			}
		}
		bufs = append(bufs, b.cfg.buffer(b.rawOff, 4*b.length))
	} else {
		for i, c := range b.children {
			if c.Len() != b.length {
				panic(fmt.Sprintf("array: sparse union of length %d has child %d of length %d", b.length, i, c.Len()))
			}
		}
	}
	children := make([]*Data, len(b.children))
	for i, c := range b.children {
		children[i] = c.NewArray().Data()
	}
	d := &Data{Type: b.dtype, Length: b.length, Buffers: bufs, Children: children}
	b.length, b.capacity, b.codes, b.rawOff, b.offsets = 0, 0, nil, nil, nil
	return newUnion(d)
}

// NewArray returns the array built so far and resets the builder.
func (b *UnionBuilder) NewArray() Array { return b.Finish() }
