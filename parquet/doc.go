// Package parquet reads Apache Parquet files into Alkaid records.
//
// A [File] is opened from an io.ReaderAt and a size ([NewFile]) or a path
// ([OpenFile]). Its schema maps Parquet's physical and logical types to
// Alkaid types; nested columns (lists in their three-level, legacy
// two-level and unannotated repeated forms, maps, structs, any nesting)
// are assembled from their repetition and definition levels by package
// shred. [File.Records] yields record batches row group by row group,
// with column projection, row-group selection and a batch size; the
// columns of a row group are decoded in parallel.
//
// Pages may be data pages v1 and v2 and dictionary pages, in the
// encodings PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY, RLE, BIT_PACKED
// (levels), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY
// and BYTE_STREAM_SPLIT, compressed with SNAPPY, GZIP, ZSTD, LZ4_RAW,
// LZ4 or BROTLI. Encrypted files are refused with [ErrNotSupported].
//
// [WithPredicates] skips row groups by their statistics and bloom
// filters, and pages by the page index. The [Writer] writes statistics
// and the page index (ColumnIndex and OffsetIndex) by default, and
// split-block bloom filters for the columns named by [WithBloomFilter].
//
// Every offset, size and count read from the file is checked before use:
// a malformed file gives an error wrapping [ErrInvalid] that says what and
// where, never a panic; [ReaderLimits] bound what a page may expand to.
// An ARROW:schema key (the Arrow schema a writer stored) that does not
// decode or does not describe the columns is such an error too, or a
// warning in [File.Warnings] under [WithStoredSchemaWarnings].
package parquet
