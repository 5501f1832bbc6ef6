// Package ndjson reads newline-delimited JSON (one object per line) into
// record batches and writes record batches as newline-delimited JSON.
//
// A [Reader] yields batches of at most a chosen number of rows. Its schema
// is given ([WithSchema]: keys are matched to fields by name; a missing key
// is a null, a key not in the schema is an error naming it and the line)
// or inferred from a sample of lines ([WithInferRows]) or the whole input
// ([WithInferAll]). Lines are parsed on [WithConcurrency] goroutines
// (default GOMAXPROCS), straight into builders; batches come out in input
// order, and an error is the one a serial read meets first (the lowest
// chunk's), for any concurrency.
//
// Inference: objects become structs (fields in the order first seen),
// arrays lists, true/false bool; numbers int64, then — as lines disagree —
// the narrowest type that holds every value exactly: a decimal for
// integers beyond int64, float64 for numbers with a fraction or exponent
// and at most 15 significant digits, a decimal for longer plain numbers;
// strings are dates, times or timestamps when every value has that form,
// else utf8. A field whose values mix kinds widens int → float → string
// (a number or boolean in a string column is kept as its JSON text, so
// nothing is lost); a field that is an object on one line and an array or
// scalar on another is an error naming the field and both lines.
//
// Lines are read into a buffer a few megabytes at a time: a line longer
// than [Limits].MaxLineBytes (128 MiB), or a sample whose inferred schema
// has more than [Limits].MaxFields fields (65536), is an error wrapping ErrLimit
// naming the line; a batch ends early after about 4 MiB of input or 4M
// values. So memory stays bounded by the limits, not the input.
//
// Reading is lossless: a value that does not fit its field's type, a
// string that is not UTF-8, invalid JSON — each is an error naming the
// line and the field.
//
// Scalar values are read and written in the text grammar compute.Cast and
// csv use too (internal/textval/grammar): a number as a string is read
// like the bare number, spaces around a value are refused unless
// [WithTrimSpace], a number that would round to zero or past the largest
// float is out of range for a float field (and kept as text when
// inferring).
//
// A [Writer] is created with the schema of its records and writes one
// object per row, every type of the library in a
// form that reads back to equal records through a Reader given the same
// schema (alkaid import -schema): integers, floats and decimals are JSON
// numbers (NaN and infinities the strings "NaN", "+Inf", "-Inf"), temporal
// values ISO-8601 strings, binary base64 strings; lists, large lists,
// fixed-size lists and list views arrays; structs objects; dictionaries
// and run-end encoded arrays their values; maps objects when their keys
// are strings ({"k": v}) and otherwise arrays of {"key": k, "value": v}
// objects; intervals objects with named parts ({"months": m},
// {"days": d, "milliseconds": ms}, {"months": m, "days": d,
// "nanoseconds": ns}); unions the value of the selected child. A reader
// puts a union value in the first child that takes its JSON kind (number,
// string, boolean, array, object) and, for a scalar child, its text; a
// null union slot reads back as a null of the first child. With
// [WithUnionTypeCodes] a union slot is {"type_code": c, "value": v}
// instead, which reads back exactly (a Reader takes both forms: an object
// whose first key is "type_code" is this form).
//
// Reader and Writer are an alkaid.RecordReader and an alkaid.RecordWriter,
// so alkaid.ReadAll and alkaid.Copy take them. One [Option] type
// configures both: [WithUnionTypeCodes] is a Writer's, every other option
// a Reader's (a Writer formats on the goroutine that calls Write). An
// option of the other side, or a bad value, makes NewReader or NewWriter
// return an error wrapping ErrInvalid that names the option. Every error
// wraps ErrInvalid, ErrNotSupported or ErrLimit and starts with
// "ndjson: ", except that an error of the io.Reader or io.Writer (or, with
// WithInferAll, of seeking) is wrapped as it is, after "ndjson: reading:"
// or "ndjson: writing:".
package ndjson
