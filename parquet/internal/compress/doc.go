// Package compress holds Parquet's page codecs: UNCOMPRESSED, SNAPPY,
// GZIP (concatenated members too), ZSTD, LZ4_RAW, LZ4 (the Hadoop framing,
// with the LZ4 frame format and a bare block as fallbacks) and BROTLI.
//
// Decompression is told the page's uncompressed size and never produces
// more: a stream that decodes to another size is an error wrapping
// ErrInvalid.
package compress
