// Package array holds columnar data: [Data] (type, length, offset, null
// count, buffers, children, dictionary) and one immutable array type per
// physical layout — [Primitive] for every fixed-width type, [Boolean],
// [Binary] and [BinaryView] for byte strings, [List], [ListView],
// [FixedSizeList], [Struct], [Map], [Union], [Dictionary],
// [RunEndEncoded], [Null] and [Extension] — with builders for each
// ([NewBuilder] picks one for any type at run time).
//
// Arrays are cheap to slice ([Slice] shares buffers and moves an offset)
// and compare by logical value ([Equal], [ApproxEqual]), so a slice equals
// the same values built fresh.
//
// What each layout's buffers mean is answered here and nowhere else:
// [Data] says whether a slot is null ([Data.IsNull]), where its validity
// bitmap, values ([Values]), offsets ([Offsets], [ListViewSpans]), views
// ([Data.ViewValue]), type codes and run ends ([Data.RunEnds],
// [Data.LogicalRuns]) are. One append engine per layout, [Growable],
// builds new arrays from ranges and indices of others: [Concatenate],
// take and filter, shredding assembly; started by [GrowFrom], the same
// engine grows an array in place for IPC dictionary deltas, never
// changing what it handed out.
//
// [Validate] checks data at one of the levels of [ValidationLevel], the
// type every reader's validation option takes too, each recursive and
// each naming the path and index of a fault (e.g. "col1.b[3]: offset 17
// beyond child length 12"): [ValidateNone], [ValidateStructure] (O(1) per
// array), [ValidateSafe] (everything an accessor relies on, O(n)) and
// [ValidateFull] (adds UTF-8, null counts and value checks).
//
//	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
//	b.AppendValues([]int64{1, 2, 3}, nil)
//	b.AppendNull()
//	a := b.Finish()            // [1 2 3 (null)]
//	s := array.Slice(a, 1, 3)  // [2 3], no copy
//	j := arrayjson.MustParse(datatype.Int64, `[2, 3]`)
//	array.Equal(s, j)          // true
//
// Arrays from JSON literals, for tests and examples, are in package
// [github.com/alkaid-go/alkaid/array/arrayjson].
package array
