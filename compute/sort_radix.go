package compute

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/alkaid-go/alkaid/array"
)

// radixMin is the number of values from which a single-key sort goes
// through radix passes instead of comparisons.
const radixMin = 256

// keyFill writes the order-preserving uint64 key of row rows[k] (of row
// k when rows is nil) to keys[k].key, and the row to keys[k].row.
type keyFill func(a array.Array, rows []uint32, keys []kv)

func fillKeys[T any](v []T, rows []uint32, keys []kv, f func(T) uint64) {
	if rows == nil {
		for i, x := range v[:len(keys)] {
			keys[i] = kv{f(x), uint32(i)}
		}
		return
	}
	for k, r := range rows {
		keys[k] = kv{f(v[r]), r}
	}
}

func signedKeys[T Signed](a array.Array, rows []uint32, keys []kv) {
	fillKeys(a.(*array.Primitive[T]).Values(), rows, keys, func(x T) uint64 { return uint64(int64(x)) ^ (1 << 63) })
}

func unsignedKeys[T Unsigned](a array.Array, rows []uint32, keys []kv) {
	fillKeys(a.(*array.Primitive[T]).Values(), rows, keys, func(x T) uint64 { return uint64(x) })
}

// floatKeys maps floats (never NaN here) to keys: the sign bit flipped
// for positives, every bit for negatives; -0 becomes 0.
func floatKeys[T Float](a array.Array, rows []uint32, keys []kv) {
	fillKeys(a.(*array.Primitive[T]).Values(), rows, keys, func(x T) uint64 {
		b := math.Float64bits(float64(x) + 0)
		if b>>63 != 0 {
			return ^b
		}
		return b | 1<<63
	})
}

// prefixKeys takes the first 8 bytes of each value, big-endian, zero
// padded; ties are sorted by comparison afterwards.
func prefixKeys(a array.Array, rows []uint32, keys []kv) {
	v := a.(interface{ Value(int) []byte }).Value
	var buf [8]byte
	key := func(i int) uint64 {
		b := v(i)
		if len(b) >= 8 {
			return binary.BigEndian.Uint64(b)
		}
		buf = [8]byte{}
		copy(buf[:], b)
		return binary.BigEndian.Uint64(buf[:])
	}
	if rows == nil {
		for i := range keys {
			keys[i] = kv{key(i), uint32(i)}
		}
		return
	}
	for k, r := range rows {
		keys[k] = kv{key(int(r)), r}
	}
}

// sortFast sorts one column by radix passes over uint64 keys when its
// type allows; ok is false when it does not (or the column is short).
func sortFast(a array.Array, o Order, cfg *config) (idx []int, ok bool) {
	if e, isExt := a.(*array.Extension); isExt {
		a = e.Storage()
	}
	fill := kernelsOf(a.DataType()).radix
	n := a.Len()
	if n < radixMin || n > math.MaxUint32 {
		return nil, false
	}
	if d, isDict := a.(*array.Dictionary); isDict {
		fill = dictRanks(d, cfg)
	}
	if fill == nil {
		return nil, false
	}
	c, nan, err := orderOf(a)
	if err != nil {
		return nil, false
	}
	isNull := nullFn(a)
	var rows, nulls, nans []uint32
	if isNull != nil || nan != nil {
		rows = make([]uint32, 0, n-a.NullN())
		for i := range n {
			switch {
			case isNull != nil && isNull(i):
				nulls = append(nulls, uint32(i))
			case nan != nil && nan(i):
				nans = append(nans, uint32(i))
			default:
				rows = append(rows, uint32(i))
			}
		}
	}
	m := n
	if rows != nil {
		m = len(rows)
	}
	pairs := make([]kv, m)
	fill(a, rows, pairs)
	rows = nil
	if o.Descending {
		for k := range pairs {
			pairs[k].key = ^pairs[k].key
		}
	}
	pairs = radixSort(pairs, cfg)
	if _, isPrefix := a.(interface{ Value(int) []byte }); isPrefix {
		sortTies(pairs, c, o.Descending)
	}
	idx = make([]int, 0, n)
	if o.NullsFirst {
		idx = appendRows(idx, nulls)
	}
	for _, p := range pairs {
		idx = append(idx, int(p.row))
	}
	idx = appendRows(idx, nans)
	if !o.NullsFirst {
		idx = appendRows(idx, nulls)
	}
	return idx, true
}

func appendRows(idx []int, rows []uint32) []int {
	for _, r := range rows {
		idx = append(idx, int(r))
	}
	return idx
}

// kv is a sort key and the row it came from.
type kv struct {
	key uint64
	row uint32
}

// sortTies sorts each run of equal keys by the full comparison, ties
// kept in row order.
func sortTies(pairs []kv, c cmpFn, desc bool) {
	for s := 0; s < len(pairs); {
		e := s + 1
		for e < len(pairs) && pairs[e].key == pairs[s].key {
			e++
		}
		if e-s > 1 {
			slices.SortFunc(pairs[s:e], func(x, y kv) int {
				r := c(int(x.row), int(y.row))
				if desc {
					r = -r
				}
				if r != 0 {
					return r
				}
				return cmp.Compare(x.row, y.row)
			})
		}
		s = e
	}
}

const (
	radixBits    = 11
	radixBuckets = 1 << radixBits
)

// radixSort sorts pairs by key, stably, skipping the digits where every
// key is the same. A long input is first split by its most significant
// digit so that the passes over the other digits run on pieces that stay
// in cache. It returns the sorted slice, which is pairs or a new one.
func radixSort(pairs []kv, cfg *config) []kv {
	if len(pairs) < 2 {
		return pairs
	}
	var diff uint64
	k0 := pairs[0].key
	for _, p := range pairs {
		diff |= p.key ^ k0
	}
	var shifts []uint
	for s := uint(0); s < 64; s += radixBits {
		if (diff>>s)&(radixBuckets-1) != 0 {
			shifts = append(shifts, s)
		}
	}
	if len(shifts) == 0 {
		return pairs
	}
	tmp := make([]kv, len(pairs))
	if len(pairs) < 1<<16 || len(shifts) < 3 {
		return lsd(pairs, tmp, shifts, nil)
	}
	// Split by the top digit into tmp, then sort each piece by the rest;
	// every piece takes the same passes, so all end in the same slice.
	top := shifts[len(shifts)-1]
	rest := shifts[:len(shifts)-1]
	var starts [radixBuckets + 1]int
	for _, p := range pairs {
		starts[(p.key>>top)&(radixBuckets-1)+1]++
	}
	for b := 1; b <= radixBuckets; b++ {
		starts[b] += starts[b-1]
	}
	pos := starts
	for _, p := range pairs {
		b := (p.key >> top) & (radixBuckets - 1)
		tmp[pos[b]] = p
		pos[b]++
	}
	// The pieces are independent: two goroutines take half of them each.
	pieces := func(from, to int) {
		counts := make([][radixBuckets]int, len(rest))
		for b := from; b < to; b++ {
			s, e := starts[b], starts[b+1]
			if e-s > 1 {
				out := lsd(tmp[s:e], pairs[s:e], rest, counts)
				if len(rest)%2 == 1 && &out[0] != &pairs[s] {
					copy(pairs[s:e], out)
				} else if len(rest)%2 == 0 && &out[0] != &tmp[s] {
					copy(tmp[s:e], out)
				}
			} else if e-s == 1 && len(rest)%2 == 1 {
				pairs[s] = tmp[s]
			}
		}
	}
	if cfg.parallel(len(pairs)) {
		// Split where half the rows are, not half the buckets.
		mid := sort.SearchInts(starts[:], len(pairs)/2)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			pieces(mid, radixBuckets)
		}()
		pieces(0, mid)
		wg.Wait()
	} else {
		pieces(0, radixBuckets)
	}
	if len(rest)%2 == 1 {
		return pairs
	}
	return tmp
}

// lsd sorts src by the digits at shifts, least significant first, using
// dst as scratch and counts (nil, or one zeroed histogram per shift) for
// the histograms; it returns the slice holding the result. A digit the
// same in every key is skipped.
func lsd(src, dst []kv, shifts []uint, counts [][radixBuckets]int) []kv {
	if counts == nil {
		counts = make([][radixBuckets]int, len(shifts))
	} else {
		clear(counts)
	}
	for _, p := range src {
		for d, s := range shifts {
			counts[d][(p.key>>s)&(radixBuckets-1)]++
		}
	}
	for d, s := range shifts {
		pos := &counts[d]
		if pos[(src[0].key>>s)&(radixBuckets-1)] == len(src) {
			continue
		}
		sum := 0
		for b := range pos {
			c := pos[b]
			pos[b] = sum
			sum += c
		}
		for _, p := range src {
			b := (p.key >> s) & (radixBuckets - 1)
			dst[pos[b]] = p
			pos[b]++
		}
		src, dst = dst, src
	}
	return src
}

// dictRanks sorts a dictionary's values once and keys each slot by the
// rank of its value (equal values share a rank), so that a dictionary
// array sorts by value through the radix passes. Nil when the values
// have no order.
func dictRanks(d *array.Dictionary, cfg *config) keyFill {
	dict := d.Dictionary()
	c, _, err := orderOf(dict)
	if err != nil {
		return nil
	}
	order, err := sortColumns([]array.Array{dict}, []Order{{}}, cfg)
	if err != nil {
		return nil
	}
	rank := make([]uint64, dict.Len())
	r := uint64(0)
	for k, i := range order {
		if k > 0 && c(order[k-1], i) != 0 {
			r++
		}
		rank[i] = r
	}
	return func(_ array.Array, rows []uint32, keys []kv) {
		if rows == nil {
			for i := range keys {
				keys[i] = kv{rank[d.ValueIndex(i)], uint32(i)}
			}
			return
		}
		for k, row := range rows {
			keys[k] = kv{rank[d.ValueIndex(int(row))], row}
		}
	}
}
