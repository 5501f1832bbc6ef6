// Package thrift is a small codec for the Thrift compact protocol, the
// encoding of Parquet's file metadata and page headers.
//
// Structs are described by field tags: `thrift:"ID"` or
// `thrift:"ID,required"`. Supported Go field types are bool, int8, int16,
// int32, int64, float64, string, []byte, structs, pointers to any of
// these (a nil pointer is an absent optional field) and slices of them
// (Thrift lists). Unions are structs whose fields are all pointers.
//
// Decoding checks every length against the bytes that remain before it
// allocates, limits nesting depth, and returns an error wrapping ErrInvalid
// for malformed input; it never panics on bad bytes. Decoded strings and
// byte slices are copies, never aliasing the input; the small ones, and
// the targets of optional scalar fields, share a few allocations per call
// (a byte slice's capacity is its length, so appending to it copies).
package thrift
