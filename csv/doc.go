// Package csv reads CSV text into record batches and writes record batches
// as CSV.
//
// A [Reader] yields batches of at most a chosen number of rows from an
// io.Reader. Its schema is given ([WithSchema], matched to the header by
// column name) or inferred from a sample of rows ([WithInferRows]) or from
// the whole input ([WithInferAll]). Reading is lossless: a cell that is not
// a value of its column's type — an integer that overflows, a string that
// is not UTF-8, a time with more fractional digits than its unit — is an
// error naming the line, the column and the value; inference picks a type
// that holds every sampled value exactly (see [WithInferRows]).
//
// Line breaks are "\n", "\r\n" or "\r": the first one outside quotes
// decides ([Reader.LineBreak]); a line break inside quotes is data.
//
// [Limits] keep memory bounded by them rather than by the input: a record
// longer than Limits.MaxRecordBytes (128 MiB; an unclosed quote runs on)
// or a header wider than Limits.MaxColumns (65536 columns) is an error
// wrapping ErrLimit that names the line, found before more than about
// twice the limit is held.
//
// Reading works in two phases: the input is cut into chunks at record
// boundaries (quotes respected), then each chunk is split into fields and
// parsed column by column, on [WithConcurrency] goroutines (default
// GOMAXPROCS; a chunk ends early after about 4 MiB, so long records make
// smaller batches). Batches come out in input order; a few chunks are in
// flight at any time, so memory stays bounded whatever the input size. An
// error is the one a serial read meets first (the lowest chunk's), for
// any concurrency.
//
// A [Writer] is created with the schema of its records; it writes a
// header and one line per row, and what it writes reads back to equal
// records through a Reader given the same schema and options. Reader and
// Writer are an alkaid.RecordReader and an alkaid.RecordWriter, so
// alkaid.ReadAll and alkaid.Copy take them.
//
// One [Option] type configures both. [WithDelimiter], [WithQuote],
// [WithHeader], [WithNullValues], [WithBooleans] and [WithConcurrency]
// mean the same to both; [WithCRLF] is a Writer's, the others a Reader's.
// An option of the other side, or a bad value (a negative concurrency, a
// delimiter that is the quote), makes NewReader or NewWriter return an
// error wrapping ErrInvalid that names the option.
//
// Every error wraps ErrInvalid, ErrNotSupported or ErrLimit and starts
// with "csv: ", except that an error of the io.Reader or io.Writer (or,
// with WithInferAll, of seeking) is wrapped as it is, after "csv: reading:"
// or "csv: writing:".
//
// The text forms are those of the text grammar compute.Cast and ndjson
// share (internal/textval/grammar; spaces around a value are refused
// unless [WithTrimSpace]): booleans true/false (configurable), integers
// and floats in Go's shortest round-trip form (NaN, +Inf, -Inf), decimals
// in plain notation with the type's scale, dates YYYY-MM-DD, times
// hh:mm:ss[.f], timestamps ISO-8601 (with a time zone: the wall time there
// and its offset, Z for UTC; dates and timestamps outside years 0000-9999
// as a count of units), durations as a count of units, binary as base64,
// strings as they are (quoted when needed; a quoted empty cell is the
// empty string, an unquoted one is null). Dictionaries and run-end
// encoded arrays of those types are the text of their values. Every other
// type — intervals, lists, list views, structs, maps, unions, and
// dictionaries and run-end encoded arrays of those — is its JSON text as
// the ndjson writer writes it (e.g. {"months":1,"days":2,"nanoseconds":3}
// or [1,2]), in one quoted cell, read back by a Reader given the schema.
package csv
