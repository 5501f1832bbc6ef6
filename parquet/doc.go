// Package parquet reads Apache Parquet files into Alkaid records and
// writes records as Parquet.
//
// A [File] is opened from an io.ReaderAt and a size ([NewFile]), bytes
// in memory ([NewFileBytes]) or a path ([OpenFile]). It is an
// [alkaid.RecordReader]: [File.Schema] is the schema of the records
// read, [File.Records] yields them, [alkaid.ReadAll] reads them into a
// table. What is read is given by options when the file is opened —
// [WithColumns], [WithRowGroups], [WithPredicates], [WithBatchSize],
// [WithDictionaryArrays], [WithConcurrency], [WithRowFilter] — and
// planned then, once (by the first read when none of them selects or
// filters, so that opening files only for their schemas and row groups
// plans nothing): the fields and how each leaf column becomes values, the
// row groups, and the rows the predicates leave; a row filter then keeps
// the rows of each batch its function chooses. [File.Select] plans another read of
// the same file (another projection, one row group) without reading its
// footer again. The file's schema maps Parquet's physical and logical
// types to Alkaid types; nested columns (lists in their three-level,
// legacy two-level and unannotated repeated forms, maps, structs, any
// nesting) are assembled from their repetition and definition levels by
// package shred. Records hold at most [DefaultBatchSize] rows (or
// [WithBatchSize]), row group after row group; each column's pages are
// decoded as the batches need them, the columns of a batch in parallel.
// [File.RowGroup] and [File.NumRowGroups] describe row groups from the
// footer.
//
// Pages may be data pages v1 and v2 and dictionary pages, in the
// encodings PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY, RLE, BIT_PACKED
// (levels), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY
// and BYTE_STREAM_SPLIT, compressed with SNAPPY, GZIP, ZSTD, LZ4_RAW,
// LZ4 or BROTLI.
//
// The [Writer] is an [alkaid.RecordWriter]. It shreds rows as they are
// written and writes a row group once it holds [WithRowGroupRows] rows
// or [WithRowGroupBytes] bytes of values; the pages of its column chunks
// go to the file as they are compressed, so its memory is bounded
// whatever the width of the rows; [WithMaxColumns] bounds the width of
// the schema it accepts. [WithCompression] sets the codec and level. It
// writes statistics and the page index (ColumnIndex and OffsetIndex) by
// default, and split-block bloom filters for the columns named by
// [WithBloomFilter]; [WithPredicates] skips row groups by their
// statistics and bloom filters, and pages by the page index.
//
// Readers and the Writer take one option type, [Option]. An option of
// the other side, or an invalid value (a negative [WithConcurrency], a
// level outside the codec's range), makes the constructor fail with an
// error wrapping [ErrInvalid] that names the option; nothing is clamped.
//
// Files of Parquet modular encryption (AES_GCM_V1 and AES_GCM_CTR_V1,
// encrypted or signed plaintext footers, columns of their own keys) are
// read with [WithDecryption]: keys given directly or found by a
// [KeyRetriever] from the key metadata the writer stored, and the AAD
// prefix when the file does not store it. A wrong key, or bytes changed
// in the file, give [ErrAuthentication] naming the footer or the column;
// a column whose key is missing can be left out of the read. The page
// index and bloom filters of encrypted columns are not used. The Writer
// encrypts with [WithEncryption] (encrypted columns are then written
// without page index and bloom filters); AES_GCM_CTR_V1 leaves page bodies
// unauthenticated, as the format defines it.
//
// Every offset, size and count read from the file is checked before use:
// a malformed file gives an error wrapping [ErrInvalid] that says what and
// where, never a panic; [Limits] ([WithLimits]) bound what a page may
// expand to, and what a whole read may decompress and decode, by the
// file's size (MaxCompressionRatio); page CRCs are checked where pages
// carry them ([WithPageCRC]). Every error starts with "parquet: ".
// An ARROW:schema key (the Arrow schema a writer stored) that does not
// decode or does not describe the columns is such an error too, or a
// warning in [File.Warnings] under [WithStoredSchemaWarnings].
package parquet
