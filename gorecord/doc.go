// Package gorecord converts between Go values and record batches: a
// slice of structs becomes a record with one column per field, and a
// record becomes a slice of structs again.
//
//	rec, err := gorecord.FromSlice(trades)           // []Trade → *alkaid.Record
//	back, err := gorecord.ToSlice[Trade](rec)        // *alkaid.Record → []Trade
//	schema, err := gorecord.SchemaOf[Trade]()        // the schema, without data
//	w, err := gorecord.NewWriter[Trade](ipcWriter)   // to any alkaid.RecordWriter, incrementally
//	rr, err := gorecord.NewReader(slices.Values(trades)) // an alkaid.RecordReader
//
// # Mapping
//
// Exported struct fields become columns, named after the field or after
// the first part of its `alkaid:"name,options…"` tag; `alkaid:"-"` skips a
// field. Embedded structs without a tag name are flattened into their
// parent (a name found at several depths goes to the shallowest, as in
// encoding/json).
//
//	Go type                        column type
//	bool                           bool
//	int8 … int64, int              int8 … int64 (int by its size)
//	uint8 … uint64, uint           uint8 … uint64
//	float32, float64               float32, float64
//	string                         utf8 (large_utf8 with large, utf8_view with view)
//	[]byte                         binary (large_binary, binary_view); nil is null
//	[N]byte                        fixed_size_binary[N]
//	time.Time                      timestamp[us, tz=UTC] (unit=, tz=); us holds the
//	                               zero time.Time, ns only the years 1678 to 2262
//	time.Duration                  duration[ns] (unit=; finer digits are truncated)
//	datatype.Date32, Timestamp, …  the type of the value type (unit=, tz=; Timestamp
//	                               defaults to us and UTC, Time32 to ms, Time64 and
//	                               Duration to ns)
//	datatype.Decimal32 … 256       decimal32 … decimal256 (precision=, scale=)
//	*T                             T's type, nullable; nil is null
//	[]T                            list<T> (large_list with large, list_view with view); nil is null
//	[N]T                           fixed_size_list<T>[N]
//	map[K]V                        map<K, V>; nil is null; entries in Go's map order
//	struct                         struct
//	extension.UUID                 arrow.uuid (fixed_size_binary[16] storage)
//	a type implementing Extension  the extension type, stored as the Go type's own layout
//	  or registered (RegisterType)
//	any type with json             arrow.json over utf8: the value as JSON text
//	                               (interfaces need this)
//
// Tag options, after the name and separated by commas (`alkaid:"-"` alone
// skips the field):
//
//	nullable           declare the column nullable (values are never null)
//	notnull            for pointers, slices, maps and []byte: nil is written as the
//	                   empty or zero value and the column is not nullable
//	dict[=int8…uint64] dictionary-encode (index int32 unless given); for strings,
//	                   []byte, [N]byte, bool and fixed-width values
//	unit=s|ms|us|ns    time unit of timestamps, durations and times
//	tz=ZONE            time zone of timestamps (default UTC; tz= for none)
//	precision=P        decimal precision (default: the width's maximum)
//	scale=S            decimal scale (default 0)
//	large, view        the large or view variant of the outermost string, binary
//	                   or list layout
//	json               store the value as JSON text
//
// dict, unit, tz, precision and scale apply to the scalar under pointers,
// slices, arrays and map values; large and view to the outermost
// variable-size layout ([]string with large is large_list<utf8>).
//
// Channels, funcs, complex numbers, unsafe pointers, pointers to pointers,
// recursive types and interface fields without the json option are
// errors wrapping [ErrNotSupported] that name the field path, such as
// "Order.Lines[].Notify".
//
// Reading ([ToSlice]) gives time.Time values in the column's time zone
// (UTC when it has none or it cannot be loaded). It matches columns to fields by name and accepts every
// variant of a field's layout: any string or binary layout for string and
// []byte, any list layout for slices, dictionary-encoded columns for
// scalars, any unit and time zone for time.Time and time.Duration, an
// extension column or its bare storage for extension types.
//
// # Performance
//
// The mapping is worked out with reflect once per Go type and cached.
// Building a record then reads fields straight from memory at their
// offsets, a column at a time over chunks of rows, with typed loops per
// layout: a []int32 field is one copy per row, an int64 field one store
// per row. Only maps and json fields use reflect per value.
//
// # Why a separate package
//
// The reflect and unsafe machinery is here so that package alkaid, which
// every user imports, stays small and free of it; programs that build
// records with builders do not pay for it.
package gorecord
