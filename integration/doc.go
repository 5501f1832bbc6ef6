// Package integration reads and writes the Apache Arrow integration JSON
// format, the text form in which the Arrow test suite states what a binary
// stream or file must hold, and compares its contents with what IPC
// readers return.
//
// A file is one JSON object:
//
//	{"schema": {"fields": [{"name", "nullable", "type": {"name": …, params},
//	                        "children": […], "dictionary": {"id", "indexType", "isOrdered"},
//	                        "metadata": [{"key", "value"}]}],
//	            "metadata": […]},
//	 "dictionaries": [{"id", "data": {"count", "columns": [column]}}],
//	 "batches": [{"count", "columns": [column]}]}
//
// where a column lists its buffers by name: VALIDITY (0/1 per slot),
// DATA, OFFSET, SIZE, TYPE_ID, VIEWS and VARIADIC_DATA_BUFFERS, and its
// children. 64-bit integers, 64-bit offsets and decimals are strings
// (JSON numbers lose precision beyond 2^53), binary values are upper-case
// hex, utf8 values are JSON strings, intervals are objects
// ({"days", "milliseconds"}, {"months", "days", "nanoseconds"}).
// A dictionary-encoded column holds its indices; its values are in the
// dictionaries section under the field's id.
//
// [Read] and [ReadFile] (plain or gzip-compressed JSON) return a [File]:
// the schema, one [alkaid.Record] per batch with dictionaries attached to
// their columns, and the dictionaries by id. Every column is fully
// validated. [Write] and [File.Write] do the reverse. Extension types
// travel as their storage type with the ARROW:extension:name and
// ARROW:extension:metadata field metadata (JSON is Arrow's format, so the
// Alkaid namespace ALKAID: is written as ARROW:); registered extension
// types are rebuilt on reading, unknown ones stay storage plus metadata.
//
// [Compare] reports the first difference between two files as a
// *[Difference]: the batch, the column path, the row and both values.
// [ReadIPC] reads an IPC stream or file (either magic) into a [File] to
// compare with, and [WriteIPCFile] / [WriteIPCStream] write one; the
// command "alkaid integration" is built on these.
package integration
