package datatype

// BufferKind says what one buffer of a layout holds.
type BufferKind uint8

// The buffer kinds of the spec's buffer table.
const (
	BufferValidity   BufferKind = iota // validity bitmap, one bit per slot
	BufferBitmap                       // boolean values, one bit per slot
	BufferFixedWidth                   // ByteWidth bytes per slot (values, offsets, sizes, type ids, views)
	BufferVariadic                     // data buffers of view types, any number
	BufferData                         // bytes of variable-size binary values, sized by the offsets
)

// BufferSpec describes one buffer of a layout.
type BufferSpec struct {
	Kind      BufferKind
	ByteWidth int // bytes per slot for BufferFixedWidth
}

// Layout is the list of buffers an array of a type has, in wire order, as
// in the spec's buffer table. Types with no validity bitmap (null, unions,
// run-end encoded) have none listed. Children are not buffers.
type Layout struct {
	Buffers []BufferSpec
	// Variadic is true for the view types, whose fixed buffers are followed
	// by any number of data buffers.
	Variadic bool
}

var (
	specValidity = BufferSpec{Kind: BufferValidity}
	specBitmap   = BufferSpec{Kind: BufferBitmap}
	specData     = BufferSpec{Kind: BufferData, ByteWidth: 1}
)

func fixed(width int) BufferSpec { return BufferSpec{Kind: BufferFixedWidth, ByteWidth: width} }

// LayoutOf returns the buffer layout of t. The returned slice is shared:
// do not modify it.
func LayoutOf(t DataType) Layout {
	switch t.Kind() {
	case KindNull, KindRunEndEncoded:
		return Layout{}
	case KindBool:
		return Layout{Buffers: layoutBool}
	case KindBinary, KindString:
		return Layout{Buffers: layoutBinary}
	case KindLargeBinary, KindLargeString:
		return Layout{Buffers: layoutLargeBinary}
	case KindBinaryView, KindStringView:
		return Layout{Buffers: layoutView, Variadic: true}
	case KindList, KindMap:
		return Layout{Buffers: layoutList}
	case KindLargeList:
		return Layout{Buffers: layoutLargeList}
	case KindListView:
		return Layout{Buffers: layoutListView}
	case KindLargeListView:
		return Layout{Buffers: layoutLargeListView}
	case KindFixedSizeList, KindStruct:
		return Layout{Buffers: layoutValidityOnly}
	case KindSparseUnion:
		return Layout{Buffers: layoutSparseUnion}
	case KindDenseUnion:
		return Layout{Buffers: layoutDenseUnion}
	case KindDictionary:
		return Layout{Buffers: layoutFixed(ByteWidth(t.(*DictionaryType).Index))}
	case KindExtension:
		return LayoutOf(t.(ExtensionType).StorageType())
	default:
		return Layout{Buffers: layoutFixed(ByteWidth(t))}
	}
}

// The layouts are shared, not built per call (readers ask for one per
// column and batch); callers must not modify them.
var (
	layoutBool          = []BufferSpec{specValidity, specBitmap}
	layoutBinary        = []BufferSpec{specValidity, fixed(4), specData}
	layoutLargeBinary   = []BufferSpec{specValidity, fixed(8), specData}
	layoutView          = []BufferSpec{specValidity, fixed(16)}
	layoutList          = []BufferSpec{specValidity, fixed(4)}
	layoutLargeList     = []BufferSpec{specValidity, fixed(8)}
	layoutListView      = []BufferSpec{specValidity, fixed(4), fixed(4)}
	layoutLargeListView = []BufferSpec{specValidity, fixed(8), fixed(8)}
	layoutValidityOnly  = []BufferSpec{specValidity}
	layoutSparseUnion   = []BufferSpec{fixed(1)}
	layoutDenseUnion    = []BufferSpec{fixed(1), fixed(4)}
	layoutFixedCommon   = func() map[int][]BufferSpec {
		m := map[int][]BufferSpec{}
		for _, w := range []int{1, 2, 4, 8, 12, 16, 32} {
			m[w] = []BufferSpec{specValidity, fixed(w)}
		}
		return m
	}()
)

// layoutFixed is the layout of a fixed-width type of the width.
func layoutFixed(w int) []BufferSpec {
	if l, ok := layoutFixedCommon[w]; ok {
		return l
	}
	return []BufferSpec{specValidity, fixed(w)}
}

// ByteWidth is the number of bytes one value of a fixed-width type takes
// (0 for bool, which takes one bit, and for variable-width types).
func ByteWidth(t DataType) int {
	switch k := t.Kind(); k {
	case KindInt8, KindUint8:
		return 1
	case KindInt16, KindUint16, KindFloat16:
		return 2
	case KindInt32, KindUint32, KindFloat32, KindDate32, KindTime32, KindMonthInterval, KindDecimal32:
		return 4
	case KindInt64, KindUint64, KindFloat64, KindDate64, KindTime64, KindTimestamp, KindDuration,
		KindDayTimeInterval, KindDecimal64:
		return 8
	case KindDecimal128, KindMonthDayNanoInterval:
		return 16
	case KindDecimal256:
		return 32
	case KindFixedSizeBinary:
		return t.(*FixedSizeBinaryType).ByteWidth
	case KindDictionary:
		return ByteWidth(t.(*DictionaryType).Index)
	case KindExtension:
		return ByteWidth(t.(ExtensionType).StorageType())
	default:
		return 0
	}
}

// IsFixedWidth reports whether t's values are stored in one fixed-width
// buffer (every primitive type, decimals, temporal types, fixed-size
// binary); bool counts, with a width of one bit.
func IsFixedWidth(t DataType) bool {
	k := t.Kind()
	if k == KindExtension {
		return IsFixedWidth(t.(ExtensionType).StorageType())
	}
	return k == KindBool || (k >= KindInt8 && k <= KindFixedSizeBinary)
}
