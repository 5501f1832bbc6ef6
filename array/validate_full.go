package array

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"sort"
	"unicode/utf8"
	"unsafe"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/simd"
	"github.com/alkaid-go/alkaid/memory"
)

// ValidationOptions selects the checks of [ValidateWith] and [MakeWith].
type ValidationOptions struct {
	// Level is how much is checked. The zero value is ValidateNone: set
	// it (ValidateSafe is what readers of untrusted input use).
	Level ValidationLevel
	// DictionariesValidated skips the values of dictionaries, which the
	// caller has validated (at the same Level) before: a stream reader
	// checks each dictionary once, when it arrives, rather than with
	// every batch that uses it. Indices are still checked against the
	// dictionary's length, and the dictionary's structure always.
	DictionariesValidated bool
	// Skip leaves out these checks of ValidateFull (none by default).
	Skip ValueChecks
}

// ValidateWith makes the checks of o.Level, leaving out what o says was
// checked before. See [Validate].
func ValidateWith(d *Data, o ValidationOptions) error {
	switch {
	case o.Level == ValidateNone:
		return nil
	case o.Level > ValidateFull:
		return fmt.Errorf("array: %w: validation level %d", ErrNotSupported, uint8(o.Level))
	}
	if err := validateAtStructure(d); err != nil {
		return err
	}
	if o.Level == ValidateStructure {
		return nil
	}
	v := valueValidator{full: o.Level == ValidateFull, skipDicts: o.DictionariesValidated, skip: o.Skip}
	return v.data(d, "")
}

// MakeWith is [Make] with the checks of [ValidateWith]: the array made
// from d once d passes them, validated once. A level below
// ValidateStructure still makes the structural checks: an array cannot be
// made from data without them.
func MakeWith(d *Data, o ValidationOptions) (Array, error) {
	if o.Level < ValidateStructure {
		o.Level = ValidateStructure
	}
	if err := ValidateWith(d, o); err != nil {
		return nil, err
	}
	return makeArray(d), nil
}

// valueValidator walks structurally valid data checking values.
type valueValidator struct {
	full      bool
	skipDicts bool        // dictionaries' values were checked before
	skip      ValueChecks // checks of full left out
}

// checks reports whether full validation makes all of c.
func (v *valueValidator) checks(c ValueChecks) bool { return v.full && v.skip&c == 0 }

func (v *valueValidator) data(d *Data, path string) error {
	t := datatype.StorageOf(d.Type)
	k := t.Kind()
	var err error
	var mapOffsets []int32
	switch k {
	case datatype.KindBinary, datatype.KindString:
		err = checkBinary[int32](d, path, v.full && k == datatype.KindString)
	case datatype.KindLargeBinary, datatype.KindLargeString:
		err = checkBinary[int64](d, path, v.full && k == datatype.KindLargeString)
	case datatype.KindBinaryView, datatype.KindStringView:
		err = checkViews(d, path, v.full, v.full && k == datatype.KindStringView)
	case datatype.KindList:
		_, err = checkOffsets[int32](d, path, d.Children[0].Length, "child")
	case datatype.KindLargeList:
		_, err = checkOffsets[int64](d, path, d.Children[0].Length, "child")
	case datatype.KindMap:
		mapOffsets, err = checkOffsets[int32](d, path, d.Children[0].Length, "child")
	case datatype.KindListView:
		err = checkListView[int32](d, path)
	case datatype.KindLargeListView:
		err = checkListView[int64](d, path)
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		err = checkUnion(d, t.(*datatype.UnionType), path)
	case datatype.KindDictionary:
		err = checkDictionaryIndices(d, t.(*datatype.DictionaryType), path)
	case datatype.KindRunEndEncoded:
		err = checkRunEnds(d, t.(*datatype.RunEndEncodedType), path)
	case datatype.KindDecimal32, datatype.KindDecimal64, datatype.KindDecimal128, datatype.KindDecimal256:
		if v.checks(CheckDecimalPrecision) {
			err = checkDecimals(d, t.(*datatype.DecimalType), path)
		}
	case datatype.KindDate64:
		if v.checks(CheckDate64Days) {
			err = checkDate64(d, path)
		}
	case datatype.KindTime32, datatype.KindTime64:
		if v.checks(CheckTimeOfDay) {
			err = checkTimeOfDay(d, t.(*datatype.TimeType), path)
		}
	}
	if err != nil {
		return err
	}
	if v.full {
		if err := checkNullCount(d, k, path); err != nil {
			return err
		}
	}
	for i, f := range datatype.Children(t) {
		if err := v.data(d.Children[i], childPath(path, i, f.Name)); err != nil {
			return err
		}
	}
	if d.Dictionary != nil && !v.skipDicts {
		if err := v.data(d.Dictionary, path+"<dictionary>"); err != nil {
			return err
		}
	}
	if v.full && k == datatype.KindMap {
		// After the children: finding null keys reads them.
		if err := checkMapKeys(d, mapOffsets, path); err != nil {
			return err
		}
	}
	if vv, ok := d.Type.(ValueValidator); ok && v.full {
		// The storage is valid; now the extension's own rules.
		if err := vv.ValidateValues(makeArray(d)); err != nil {
			if path == "" {
				return err
			}
			return fmt.Errorf("array: %s: %w", path, err)
		}
	}
	return nil
}

// ValueValidator is implemented by extension types whose values obey
// rules beyond their storage's (JSON text that parses, tensor shapes that
// match their data). [ValidateFull] calls it once the storage is valid, so
// readers that validate fully reject such values too.
type ValueValidator interface {
	ValidateValues(a Array) error
}

// slot returns i as a fault index, or -1 for an empty array (whose
// faults are not any slot's).
func slot(i, length int) int {
	if length == 0 {
		return -1
	}
	return i
}

// offsetsView returns the Length+1 offsets of a binary or list array, or
// nil for an empty array that omits them.
func offsetsView[O Offset](d *Data) []O {
	all := memory.View[O](d.Buffers[1])
	if len(all) == 0 && d.Length == 0 {
		return nil
	}
	return all[d.Offset : d.Offset+d.Length+1]
}

// checkOffsets checks that the offsets of a binary or list array start at
// zero or more, never decrease and end within limit (the data buffer's or
// child's length). It returns the offsets (nil when omitted).
func checkOffsets[O Offset](d *Data, path string, limit int, what string) ([]O, error) {
	offs := offsetsView[O](d)
	if offs == nil {
		return nil, nil
	}
	n := d.Length
	if offs[0] < 0 {
		return nil, fault(path, slot(0, n), "offset %d is negative", offs[0])
	}
	if i := firstDecrease(offs); i >= 0 {
		return nil, fault(path, i, "end offset %d is before start offset %d", offs[i+1], offs[i])
	}
	if int64(offs[n]) > int64(limit) {
		// The offsets increase: the first one past the limit ends the
		// first faulty slot.
		j := sort.Search(n+1, func(j int) bool { return int64(offs[j]) > int64(limit) })
		if j == 0 {
			return nil, fault(path, slot(0, n), "offset %d beyond %s length %d", offs[0], what, limit)
		}
		return nil, fault(path, j-1, "offset %d beyond %s length %d", offs[j], what, limit)
	}
	return offs, nil
}

// firstDecrease returns the first i with s[i+1] < s[i], or -1 (vector
// compares of neighbours where the CPU has them).
func firstDecrease[O Offset](s []O) int { return simd.FirstDecrease(s) }

func checkBinary[O Offset](d *Data, path string, checkUTF8 bool) error {
	data := d.Buffers[2].Bytes()
	offs, err := checkOffsets[O](d, path, len(data), "data")
	n := d.Length
	if err != nil || !checkUTF8 || n == 0 {
		return err
	}
	lo, hi := int(offs[0]), int(offs[n])
	if simd.ValidUTF8(data[lo:hi]) {
		// The whole run is valid; each value is too unless a value starts
		// inside a multi-byte character.
		split := false
		for _, o := range offs[1:n] {
			if int(o) < hi && !utf8.RuneStart(data[o]) {
				split = true
				break
			}
		}
		if !split {
			return nil
		}
	}
	valid := d.validity()
	for i := range n {
		if valid != nil && !bitutil.GetBit(valid, d.Offset+i) {
			continue
		}
		if !utf8.Valid(data[offs[i]:offs[i+1]]) {
			return fault(path, i, "invalid UTF-8 %q", data[offs[i]:offs[i+1]])
		}
	}
	return nil
}

func checkViews(d *Data, path string, full, checkUTF8 bool) error {
	views := d.Buffers[1].Bytes()[16*d.Offset : 16*(d.Offset+d.Length)]
	bufs := d.Buffers[2:]
	valid := d.validity()
	for i := range d.Length {
		v := views[16*i : 16*i+16]
		n := int64(int32(binary.LittleEndian.Uint32(v)))
		if n < 0 {
			return fault(path, i, "view length %d is negative", n)
		}
		var value []byte
		if n <= ViewInlineMax {
			value = v[4 : 4+n]
		} else {
			bi := int64(int32(binary.LittleEndian.Uint32(v[8:])))
			off := int64(int32(binary.LittleEndian.Uint32(v[12:])))
			if bi < 0 || bi >= int64(len(bufs)) {
				return fault(path, i, "view buffer index %d out of range [0, %d)", bi, len(bufs))
			}
			buf := bufs[bi].Bytes()
			if off < 0 || off+n > int64(len(buf)) {
				return fault(path, i, "view range [%d, %d) beyond data buffer %d of %d bytes", off, off+n, bi, len(buf))
			}
			value = buf[off : off+n]
			if full && string(v[4:8]) != string(value[:4]) {
				return fault(path, i, "view prefix %q differs from the value's %q", v[4:8], value[:4])
			}
		}
		if checkUTF8 && !utf8.Valid(value) && (valid == nil || bitutil.GetBit(valid, d.Offset+i)) {
			return fault(path, i, "invalid UTF-8 %q", value)
		}
	}
	return nil
}

func checkListView[O Offset](d *Data, path string) error {
	o, n := d.Offset, d.Length
	offs := memory.View[O](d.Buffers[1])[o : o+n]
	sizes := memory.View[O](d.Buffers[2])[o : o+n]
	childLen := int64(d.Children[0].Length)
	limit := childLen
	if sizeOf[O]() == 4 {
		limit = min(limit, math.MaxInt32) // offset+size must not overflow O
	}
	for i := range n {
		off, size := int64(offs[i]), int64(sizes[i])
		if off < 0 || size < 0 || off > limit || size > limit-off {
			switch {
			case off < 0:
				return fault(path, i, "list-view offset %d is negative", off)
			case size < 0:
				return fault(path, i, "list-view size %d is negative", size)
			case off > childLen || size > childLen-off:
				return fault(path, i, "list-view offset %d + size %d beyond child length %d", off, size, childLen)
			default:
				return fault(path, i, "list-view offset %d + size %d overflows the offset type", off, size)
			}
		}
	}
	return nil
}

func sizeOf[O Offset]() uintptr {
	var z O
	switch any(z).(type) {
	case int32:
		return 4
	}
	return 8
}

func checkUnion(d *Data, t *datatype.UnionType, path string) error {
	index := t.ChildIndex()
	var declared [256]uint8
	for c, i := range index {
		if i >= 0 {
			declared[c] = 1
		}
	}
	codes := memory.View[int8](d.Buffers[0])[d.Offset : d.Offset+d.Length]
	ok := uint8(1)
	for _, c := range codes {
		ok &= declared[uint8(c)]
	}
	if ok == 0 {
		for i, c := range codes {
			if declared[uint8(c)] == 0 {
				return fault(path, i, "type code %d not declared by %s", c, t)
			}
		}
	}
	if t.Mode() != datatype.Dense {
		return nil
	}
	offs := memory.View[int32](d.Buffers[1])[d.Offset : d.Offset+d.Length]
	var lens [128]int
	for c, i := range index {
		if i >= 0 {
			lens[c] = d.Children[i].Length
		}
	}
	for i, o := range offs {
		c := codes[i]
		if o < 0 || int(o) >= lens[c] {
			f := t.Field(index[c])
			return fault(path, i, "offset %d out of range [0, %d) of child %q (type code %d)", o, lens[c], f.Name, c)
		}
	}
	return nil
}

func checkDictionaryIndices(d *Data, t *datatype.DictionaryType, path string) error {
	n := d.Dictionary.Length
	switch t.Index.Kind() {
	case datatype.KindInt8:
		return checkIndices[int8](d, n, path)
	case datatype.KindInt16:
		return checkIndices[int16](d, n, path)
	case datatype.KindInt32:
		return checkIndices[int32](d, n, path)
	case datatype.KindInt64:
		return checkIndices[int64](d, n, path)
	case datatype.KindUint8:
		return checkIndices[uint8](d, n, path)
	case datatype.KindUint16:
		return checkIndices[uint16](d, n, path)
	case datatype.KindUint32:
		return checkIndices[uint32](d, n, path)
	default:
		return checkIndices[uint64](d, n, path)
	}
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// checkIndices checks that every non-null index is in [0, n). A min/max
// scan over all slots settles the common case; only when it fails are
// nulls looked at.
// indexRange returns the smallest and largest of idx (not empty), with
// the vector kernels for the common 32- and 64-bit signed indices.
func indexRange[T integer](idx []T) (lo, hi T) {
	if T(0)-1 < 0 && (unsafe.Sizeof(T(0)) == 4 || unsafe.Sizeof(T(0)) == 8) {
		if unsafe.Sizeof(T(0)) == 4 {
			v := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(idx))), len(idx))
			l, _ := simd.MinInt(v)
			h, _ := simd.MaxInt(v)
			return T(l), T(h)
		}
		v := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(idx))), len(idx))
		l, _ := simd.MinInt(v)
		h, _ := simd.MaxInt(v)
		return T(l), T(h)
	}
	lo, hi = idx[0], idx[0]
	for _, x := range idx {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	return lo, hi
}

func checkIndices[T integer](d *Data, n int, path string) error {
	idx := memory.View[T](d.Buffers[1])[d.Offset : d.Offset+d.Length]
	if len(idx) == 0 {
		return nil
	}
	lo, hi := indexRange(idx)
	if lo >= 0 && uint64(hi) < uint64(n) {
		return nil
	}
	valid := d.validity()
	for i, x := range idx {
		if (x < 0 || uint64(x) >= uint64(n)) && (valid == nil || bitutil.GetBit(valid, d.Offset+i)) {
			return fault(path, i, "dictionary index %d out of range [0, %d)", x, n)
		}
	}
	return nil
}

func checkRunEnds(d *Data, t *datatype.RunEndEncodedType, path string) error {
	ends := d.Children[0]
	ep := childPath(path, 0, t.RunEnds().Name)
	switch t.RunEnds().Type.Kind() {
	case datatype.KindInt16:
		return checkRunEndValues[int16](d, ends, path, ep)
	case datatype.KindInt32:
		return checkRunEndValues[int32](d, ends, path, ep)
	default:
		return checkRunEndValues[int64](d, ends, path, ep)
	}
}

func checkRunEndValues[T ~int16 | ~int32 | ~int64](d, ends *Data, path, endsPath string) error {
	e := memory.View[T](ends.Buffers[1])[ends.Offset : ends.Offset+ends.Length]
	if len(e) == 0 {
		return nil // Validate made sure that only an empty array has no runs
	}
	if e[0] < 1 {
		return fault(endsPath, 0, "run end %d is not positive", e[0])
	}
	for k := 1; k < len(e); k++ {
		if e[k] <= e[k-1] {
			return fault(endsPath, k, "run end %d not greater than the previous %d", e[k], e[k-1])
		}
	}
	if need := d.Offset + d.Length; int64(e[len(e)-1]) < int64(need) {
		return fault(path, -1, "last run end %d short of offset+length %d", e[len(e)-1], need)
	}
	return nil
}

// checkNullCount compares the null count with the validity bitmap (or with
// what a type without one must have).
func checkNullCount(d *Data, k datatype.Kind, path string) error {
	switch k {
	case datatype.KindNull:
		if d.NullCount != d.Length {
			return fault(path, -1, "null count %d, want %d (every slot of a null array is null)", d.NullCount, d.Length)
		}
		return nil
	case datatype.KindSparseUnion, datatype.KindDenseUnion:
		// A union has no validity bitmap and its null count carries no
		// meaning (some writers count their children's null slots): any
		// count in [0, length] is accepted, and writers write 0.
		return nil
	case datatype.KindRunEndEncoded:
		if d.NullCount != 0 {
			return fault(path, -1, "null count %d, want 0 (%s has no validity bitmap)", d.NullCount, k)
		}
		return nil
	}
	if d.Buffers[0] == nil {
		return nil // Validate made sure the count is 0
	}
	if nulls := d.Length - bitutil.CountSetBits(d.Buffers[0].Bytes(), d.Offset, d.Length); nulls != d.NullCount {
		return fault(path, -1, "null count %d, but the validity bitmap has %d nulls", d.NullCount, nulls)
	}
	return nil
}

// checkMapKeys reports a null key in the entries of a non-null map slot.
func checkMapKeys(d *Data, offs []int32, path string) error {
	if offs == nil || offs[0] == offs[d.Length] {
		return nil
	}
	entries := d.Children[0]
	keys := entries.Children[0]
	lo, hi := int(offs[0]), int(offs[d.Length])
	// Entry j of the map is slot entries.Offset+j of the key child.
	for j := range logicalNulls(keys, entries.Offset+lo, hi-lo) {
		e := lo + j
		i := sort.Search(d.Length, func(i int) bool { return int(offs[i+1]) > e })
		if d.validity() != nil && !bitutil.GetBit(d.validity(), d.Offset+i) {
			continue // a null slot's entries may hold anything
		}
		return fault(path, i, "map key at entry %d is null", e)
	}
	return nil
}

// logicalNulls yields, in order, the indexes j in [0, n) for which slot
// start+j of d is null. d must be valid.
func logicalNulls(d *Data, start, n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		k := datatype.StorageOf(d.Type).Kind()
		switch {
		case k == datatype.KindNull:
			for j := range n {
				if !yield(j) {
					return
				}
			}
		case k.IsUnion() || k == datatype.KindRunEndEncoded:
			a := makeArray(d)
			for j := range n {
				if a.IsNull(start+j) && !yield(j) {
					return
				}
			}
		default:
			valid := d.validity()
			if valid == nil || bitutil.AllSet(valid, d.Offset+start, n) {
				return
			}
			for j := range n {
				if !bitutil.GetBit(valid, d.Offset+start+j) && !yield(j) {
					return
				}
			}
		}
	}
}

// pow10Words[p] is 10^p as four little-endian 64-bit words.
var pow10Words = func() (t [77][4]uint64) {
	v := big.NewInt(1)
	ten := big.NewInt(10)
	for p := range t {
		w := datatype.Decimal256FromBig(v)
		t[p] = [4]uint64(w)
		v.Mul(v, ten)
	}
	return t
}()

// checkDecimals checks that every non-null value has at most Precision
// digits.
func checkDecimals(d *Data, t *datatype.DecimalType, path string) error {
	bound := pow10Words[t.Precision]
	valid := d.validity()
	fail := func(i int, v *big.Int) error {
		return fault(path, i, "value %s does not fit precision %d", datatype.FormatDecimal(v, t.Scale), t.Precision)
	}
	switch t.BitWidth {
	case 32:
		vals := memory.View[int32](d.Buffers[1])[d.Offset : d.Offset+d.Length]
		b := int32(bound[0])
		for i, x := range vals {
			if (x >= b || x <= -b) && (valid == nil || bitutil.GetBit(valid, d.Offset+i)) {
				return fail(i, big.NewInt(int64(x)))
			}
		}
	case 64:
		vals := memory.View[int64](d.Buffers[1])[d.Offset : d.Offset+d.Length]
		b := int64(bound[0])
		for i, x := range vals {
			if (x >= b || x <= -b) && (valid == nil || bitutil.GetBit(valid, d.Offset+i)) {
				return fail(i, big.NewInt(x))
			}
		}
	case 128:
		vals := memory.View[datatype.Decimal128](d.Buffers[1])[d.Offset : d.Offset+d.Length]
		for i, x := range vals {
			s := uint64(x.Hi >> 63)
			w := [4]uint64{x.Lo, uint64(x.Hi), s, s}
			if !absBelow(w, bound) && (valid == nil || bitutil.GetBit(valid, d.Offset+i)) {
				return fail(i, x.BigInt())
			}
		}
	case 256:
		vals := memory.View[datatype.Decimal256](d.Buffers[1])[d.Offset : d.Offset+d.Length]
		for i, x := range vals {
			if !absBelow([4]uint64(x), bound) && (valid == nil || bitutil.GetBit(valid, d.Offset+i)) {
				return fail(i, x.BigInt())
			}
		}
	}
	return nil
}

// absBelow reports whether |w| < bound for a two's-complement 256-bit w
// and a non-negative bound.
func absBelow(w, bound [4]uint64) bool {
	if int64(w[3]) < 0 { // negate: invert and add one
		carry := uint64(1)
		for i := range w {
			w[i] = ^w[i] + carry
			if w[i] != 0 {
				carry = 0
			}
		}
	}
	for i := 3; i >= 0; i-- {
		if w[i] != bound[i] {
			return w[i] < bound[i]
		}
	}
	return false
}
