// Package encoding holds Parquet's value and level encodings: PLAIN, the
// RLE / bit-packed hybrid, legacy BIT_PACKED levels, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT, each
// with a decoder that checks every count and length against its input
// (errors wrap ErrInvalid, never a panic) and an encoder.
//
// Fixed-width values travel as little-endian bytes (width bytes per
// value), byte arrays as Binary (offsets and bytes), booleans as one byte
// per value.
package encoding
