package array

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// newDictGrower picks the index grower of the dictionary's index type.
func newDictGrower(g *Growable, t datatype.DataType) (grower, error) {
	dt := t.(*datatype.DictionaryType)
	switch dt.Index.Kind() {
	case datatype.KindInt8:
		return newIndexGrower[int8](g, dt)
	case datatype.KindInt16:
		return newIndexGrower[int16](g, dt)
	case datatype.KindInt32:
		return newIndexGrower[int32](g, dt)
	case datatype.KindInt64:
		return newIndexGrower[int64](g, dt)
	case datatype.KindUint8:
		return newIndexGrower[uint8](g, dt)
	case datatype.KindUint16:
		return newIndexGrower[uint16](g, dt)
	case datatype.KindUint32:
		return newIndexGrower[uint32](g, dt)
	}
	return newIndexGrower[uint64](g, dt)
}

// indexGrower: dictionary indices of type T. The sources' dictionary is
// kept when they all have the same one; else the result gets one
// dictionary (the first source's followed by the values of the others it
// lacks) and every index is mapped into it.
type indexGrower[T integer] struct {
	g     *Growable
	src   [][]T
	remap [][]int // per source, old index to new; nil when the dictionary is kept
	vals  []T
	dict  *Data
	epoch uint64 // in place: the generation of dict
}

func newIndexGrower[T integer](g *Growable, t *datatype.DictionaryType) (grower, error) {
	x := &indexGrower[T]{g: g, src: make([][]T, len(g.srcs)), vals: reserve[T](g.hint)}
	for i, s := range g.srcs {
		x.src[i] = Values[T](s)
	}
	if g.inPlace {
		if g.gen == nil {
			return nil, invalidf("growable %s: dictionary-encoded values grow in place only with a generation", g.typ)
		}
		return x, nil // the dictionary comes with the sources
	}
	var err error
	x.dict, x.remap, err = unifyDictionaries(g.typ, t, g.srcs)
	return x, err
}

// addSource takes the dictionary of d, the newest, which extends the
// earlier ones unless it is of another generation.
func (x *indexGrower[T]) addSource(d *Data) error {
	if d.Dictionary == nil {
		return invalidf("growable %s: no dictionary", x.g.typ)
	}
	e := x.g.gen(d)
	if x.dict != nil && e != x.epoch {
		return invalidf("growable %s: the dictionary was replaced", x.g.typ)
	}
	x.dict, x.epoch = d.Dictionary, e
	x.src = append(x.src[:0], Values[T](d))
	return nil
}

// unifyDictionaries returns the one dictionary of ds and, when it is not
// every input's own, each input's index mapping into it.
func unifyDictionaries(typ datatype.DataType, t *datatype.DictionaryType, ds []*Data) (*Data, [][]int, error) {
	if len(ds) == 0 {
		g, err := newGrowable(t.Value, nil, 0)
		if err != nil {
			return nil, nil, err
		}
		d, err := g.Finish()
		return d, nil, err
	}
	first := ds[0].Dictionary
	same := true
	var firstArr Array
	for _, d := range ds[1:] {
		if d.Dictionary == first {
			continue
		}
		if firstArr == nil {
			firstArr = makeArray(first)
		}
		if !Equal(firstArr, makeArray(d.Dictionary)) {
			same = false
			break
		}
	}
	if same {
		return first, nil, nil
	}
	// The first dictionary whole, then each later dictionary's values that
	// are not there yet, found by a key that encodes a value exactly.
	seen := map[string]int{}
	var key []byte
	size := first.Length
	remap := make([][]int, len(ds))
	parts := []*Data{first}
	for j, d := range ds {
		dict := makeArray(d.Dictionary)
		m := make([]int, d.Dictionary.Length)
		run := -1 // start of a run of new values to append
		for v := range m {
			key = appendKey(key[:0], dict, v)
			idx, ok := seen[string(key)]
			switch {
			case ok:
			case j == 0:
				idx = v
				seen[string(key)] = idx
			default:
				idx = size
				size++
				seen[string(key)] = idx
			}
			m[v] = idx
			isNew := j > 0 && !ok
			if isNew && run < 0 {
				run = v
			}
			if !isNew && run >= 0 {
				parts = append(parts, d.Dictionary.Slice(run, v))
				run = -1
			}
		}
		if run >= 0 {
			parts = append(parts, d.Dictionary.Slice(run, len(m)))
		}
		remap[j] = m
	}
	if max := maxIndex(t.Index.Kind()); uint64(size) > max+1 {
		return nil, nil, &GrowError{Type: typ, Msg: fmt.Sprintf("%d dictionary values do not fit index type %s", size, t.Index), Err: ErrInvalid}
	}
	dict, err := concatData(parts)
	return dict, remap, err
}

func (x *indexGrower[T]) extendRange(s, start, n int) {
	src := x.src[s][start : start+n]
	if x.remap == nil {
		x.vals = append(growBy(x.vals, n)[:len(x.vals)], src...)
		return
	}
	base := len(x.vals)
	x.vals = growBy(x.vals, n)
	d, m := x.g.srcs[s], x.remap[s]
	for i, v := range src {
		if d.IsValid(start + i) {
			x.vals[base+i] = T(m[v])
		}
	}
}

func (x *indexGrower[T]) extendIndices(s int, idx []int) bool {
	base := len(x.vals)
	x.vals = growBy(x.vals, len(idx))
	neg := gatherTyped(x.vals[base:], x.src[s], idx)
	if x.remap != nil {
		d, m := x.g.srcs[s], x.remap[s]
		for i, j := range idx {
			if j >= 0 && d.IsValid(j) {
				x.vals[base+i] = T(m[x.vals[base+i]])
			} else {
				x.vals[base+i] = 0
			}
		}
	}
	return neg
}

func (x *indexGrower[T]) appendNulls(n int)    { x.vals = growBy(x.vals, n) }
func (x *indexGrower[T]) appendEmpty(int) bool { return false }

func (x *indexGrower[T]) finish(out *Data) error {
	out.Buffers = append(out.Buffers, memory.NewBuffer(memory.BytesOf(x.vals[x.g.from:])))
	out.Dictionary = x.dict
	return nil
}
