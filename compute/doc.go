// Package compute holds null-aware kernels over arrays, records, chunked
// columns and tables: aggregates (count, sum, mean, min, max),
// elementwise arithmetic, comparisons, Kleene boolean logic, the
// selection kernels Filter and Take, [Cast], sorting ([SortIndices],
// [Sort], [TopKIndices]), hashing ([Unique], [ValueCounts],
// [DictionaryEncode], [IsIn], [IndexIn], [CountDistinct]) and hash
// aggregation ([GroupBy]). They run the SIMD kernels of the
// library (sums, minima and maxima, add/sub/mul, comparisons, bitmap
// logic) where the type has one and plain Go elsewhere.
//
// # Nulls
//
// Validity bitmaps are honoured everywhere and inputs may be slices
// (non-zero offsets). Aggregates skip null slots (whatever they hold);
// an empty or all-null input gives the null [Scalar]. Elementwise
// results are null where any input is null (the bitmaps are ANDed), except
// [And] and [Or], which follow Kleene logic. [Filter] drops rows whose
// mask slot is null; [Take] gives a null row for a null index.
//
// # Integers
//
// Integer sums accumulate in int64 (signed types) or uint64 (unsigned
// ones) and wrap around on overflow; [SumChecked] returns an error
// wrapping [ErrOverflow] when the exact sum does not fit. Likewise [Add],
// [Sub], [Mul], [Negate] and [Abs] wrap while their Checked variants
// report overflow. Means of integers ([Mean], [GroupBy]'s AggMean) are
// of the exact sum, rounded once to float64. Integer division by zero is
// always an error ([ErrDivideByZero]).
//
// # Decimals
//
// [Sum] of decimals is exact: the sum of decimal32, decimal64 or
// decimal128 values of scale s is a decimal128(38, s), that of
// decimal256 values a decimal256(76, s) (DuckDB's sums of decimals are
// DECIMAL(38, s), Arrow's of decimal128 decimal128(38, s)); a sum with more digits than that is an error wrapping
// [ErrOverflow] (decimals never wrap around, in [Sum] as in
// [SumChecked]). [Mean] of decimals is of the input's type: the exact
// sum divided by the count, rounded half away from zero to the input's
// scale. [GroupBy] sums and means follow the same rules.
//
// # Floats
//
// Float sums accumulate in float64; the SIMD levels add in several lanes,
// so the last bits of a sum may depend on the machine. NaN in a sum, or
// +Inf with -Inf, gives NaN. [Min] and [Max] ignore NaN unless every
// valid value is NaN (then the result is NaN) and order -0 before +0.
// Comparisons follow Go: NaN is unequal to everything and unordered.
//
// # Sorting, hashing and grouping
//
// Every per-type kernel (sums, grouped sums, minimum and maximum,
// comparison, order, sort keys, hashing, numeric casts) is found in one
// table indexed by the type's kind, so a type supports the same
// operations everywhere.
//
// Sorts are stable. A single fixed-width or string key sorts by radix
// passes over order-preserving 64-bit keys (strings by their first eight
// bytes, ties compared); several keys, or other types, sort by comparison
// through one comparator per column. Hashing and grouping number the
// distinct values of each key column (fixed-width values in
// open-addressing tables over their bits, other types by the bytes of
// [array.AppendKey]) and combine the numbers of several key columns.
//
// # Forms
//
// An operation comes in up to four forms, named by a suffix: F takes
// arrays, FChunked chunked columns ([alkaid.Chunked]), FRecord a record,
// FTable a table. The rule for their inputs: a row-aligned argument (a
// filter mask) has the shape of the input's columns — an array for F and
// FRecord, a chunked column for FChunked and FTable — while positions (the
// indices of Take, the results of SortIndices and TopKIndices) are one
// integer array counting rows across chunks in every form. Record and
// table forms name their columns (sort keys, group keys) or apply to
// every column alike.
//
//	operation                 F  Chunked  Record  Table
//	Filter, Take              x  x        x       x
//	Sort, SortIndices         x  x        x       x
//	TopKIndices               x  x        x       x
//	GroupBy                   -  -        x       x
//	Sum, SumChecked, Mean     x  x        -       -
//	Min, Max, MinMax          x  x        -       -
//	CountValid, CountNull     x  x        -       -
//	Unique, ValueCounts,
//	CountDistinct             x  x        -       -
//	element-wise (Add, Compare, And, Cast, IsIn, IndexIn,
//	DictionaryEncode, …)      x  -        -       -
//
// Every operation with a Record form has a Table form; the aggregates
// reduce one column, so they have no Record or Table form; the
// element-wise functions take arrays only (apply them chunk by chunk).
//
// # Options and concurrency
//
// Options reach a function in one way: as the variadic opts ...[Option]
// that ends its parameters (lists of other things, like sort keys and
// aggregates, are slices before it). The functions that may split their
// work across goroutines take options: [Cast], the sorts, the hash
// functions and [GroupBy], in every form, and TopKIndices with the sorts
// (its heap runs on the calling goroutine). Their concurrency is
// [WithConcurrency] (0, the default, is runtime.GOMAXPROCS(0); 1 runs on
// the calling goroutine): kernels split inputs of 2^18 rows or more in
// two. The results do not depend on it, except for the last bits of
// GroupBy's float sums. [AllowOverflow], [AllowTruncation] and
// [TrimSpace] are options of Cast only; given to another function, or
// with an invalid value, an option is an error wrapping [ErrInvalid]
// that names it. The other functions run on the calling goroutine and
// take no options.
//
// # Errors
//
// Errors start with "compute: " and wrap one of [ErrInvalid],
// [ErrNotSupported] or a refinement of ErrInvalid: [ErrOverflow],
// [ErrTruncation], [ErrDivideByZero], [ErrIndexOutOfBounds]. A call that
// splits its work reports the error a serial run would (that of the
// lowest row). The functions do not panic on valid arrays; arrays that
// fail [array.ValidateSafe] are a programmer error.
package compute
