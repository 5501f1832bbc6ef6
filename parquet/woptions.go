package parquet

// The options of a Writer.

import (
	"fmt"

	"github.com/alkaid-go/alkaid/parquet/internal/compress"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

type writerConfig struct {
	codec         Codec
	level         int
	colCodec      map[string]Codec
	colEncoding   map[string]Encoding
	rowGroupRows  int
	rowGroupBytes int
	pageSize      int
	dict          bool
	dictLimit     int
	crc           bool
	noSchema      bool
	kv            []format.KeyValue
	concurrency   int
	sorting       []SortingColumn
	noPageIndex   bool
	bloom         map[string]bool // columns with a bloom filter
	pageV2        bool
	maxColumns    int
	encrypt       *FileEncryption
}

// defaultWriterConfig is a Writer's configuration before its options.
func defaultWriterConfig() writerConfig {
	return writerConfig{codec: Snappy, colCodec: map[string]Codec{}, colEncoding: map[string]Encoding{},
		rowGroupRows: 1 << 20, rowGroupBytes: 128 << 20, pageSize: 1 << 20, dict: true, dictLimit: 1 << 20,
		maxColumns: DefaultMaxColumns, bloom: map[string]bool{}}
}

// DefaultMaxColumns is the most leaf columns a Writer takes unless
// WithMaxColumns says otherwise: the footer of a row group of that many
// columns stays well within the reader's DefaultLimits.MaxFooterSize.
const DefaultMaxColumns = 100_000

// positive records call as invalid unless n > 0.
func (o *options) positive(name string, n int, what string) {
	if n <= 0 {
		o.invalid(fmt.Sprintf("%s(%d)", name, n), "%s must be positive", what)
	}
}

// WithMaxColumns sets the most leaf columns (Parquet columns, after
// nested fields are flattened) of the schema NewWriter accepts (default
// DefaultMaxColumns); a wider schema fails at once with ErrLimit rather
// than when the footer is written. For writing.
func WithMaxColumns(n int) Option {
	return func(o *options) {
		o.use("WithMaxColumns", forWrite)
		o.positive("WithMaxColumns", n, "the number of columns")
		o.write.maxColumns = n
	}
}

// WithCompression sets the codec of every column (default Snappy) and the
// level of the codecs that have levels: GZIP 1-9, ZSTD 1-22 (as zstd's
// own levels; the encoder has four speeds, each level selects the
// nearest), BROTLI 0-11. Level 0 is each codec's default; SNAPPY and the
// LZ4 codecs have no level and take 0 only. The level applies to the
// codecs of WithColumnCodec too. For writing.
func WithCompression(c Codec, level int) Option {
	return func(o *options) {
		o.use("WithCompression", forWrite)
		call := fmt.Sprintf("WithCompression(%s, %d)", c, level)
		if !compress.Supported(format.Codec(c)) {
			if o.err == nil {
				o.err = unsupportedf("%s: codec %s", call, c)
			}
		} else if lo, hi, ok := compress.Levels(format.Codec(c)); ok && level != 0 && (level < lo || level > hi) {
			o.invalid(call, "level outside %s's [%d, %d]", c, lo, hi)
		} else if !ok && level != 0 {
			o.invalid(call, "%s has no levels (level 0 only)", c)
		}
		o.write.codec, o.write.level = c, level
	}
}

// WithColumnCodec sets the codec of one column, named by its dotted
// Parquet path (e.g. "a.list.element"), at the level of WithCompression
// (which a codec without levels goes without; a level outside the range
// of one with levels makes NewWriter fail). For writing.
func WithColumnCodec(path string, c Codec) Option {
	return func(o *options) {
		o.use("WithColumnCodec", forWrite)
		if !compress.Supported(format.Codec(c)) && o.err == nil {
			o.err = unsupportedf("WithColumnCodec(%q, %s): codec %s", path, c, c)
		}
		o.write.colCodec[path] = c
	}
}

// WithColumnEncoding sets the value encoding of one column when it is
// not dictionary-encoded; the encoding must suit the column's type. For
// writing.
func WithColumnEncoding(path string, e Encoding) Option {
	return func(o *options) {
		o.use("WithColumnEncoding", forWrite)
		o.write.colEncoding[path] = e
	}
}

// WithRowGroupRows sets the most rows of a row group (default 1<<20);
// WithRowGroupBytes may end a row group sooner. For writing.
func WithRowGroupRows(n int) Option {
	return func(o *options) {
		o.use("WithRowGroupRows", forWrite)
		o.positive("WithRowGroupRows", n, "the rows of a row group")
		o.write.rowGroupRows = n
	}
}

// WithRowGroupBytes sets the byte target of a row group (default 128 MiB):
// a row group is written once the values and levels of the rows buffered
// for it reach n bytes, which bounds the writer's memory whatever the
// width of the rows. Rows are buffered as their Parquet values, before
// encoding and compression: the row group in the file is smaller. For
// writing.
func WithRowGroupBytes(n int) Option {
	return func(o *options) {
		o.use("WithRowGroupBytes", forWrite)
		o.positive("WithRowGroupBytes", n, "the bytes of a row group")
		o.write.rowGroupBytes = n
	}
}

// WithPageSize sets the target size of a data page's values in bytes
// (default 1 MiB). For writing.
func WithPageSize(n int) Option {
	return func(o *options) {
		o.use("WithPageSize", forWrite)
		o.positive("WithPageSize", n, "the page size")
		o.write.pageSize = n
	}
}

// WithDictionary turns dictionary encoding on or off (default on). When
// a column chunk's dictionary would exceed limit bytes (default 1 MiB
// when limit is 0; a negative limit is an error), the chunk's pages from
// the row holding the value that did not fit on fall back to the plain
// encoding (or the column's, see WithColumnEncoding); the pages before
// stay dictionary-encoded. A chunk whose first values are nearly all
// distinct gives the dictionary up at once. For writing.
func WithDictionary(on bool, limit int) Option {
	return func(o *options) {
		o.use("WithDictionary", forWrite)
		if limit < 0 {
			o.invalid(fmt.Sprintf("WithDictionary(%t, %d)", on, limit), "the dictionary limit is negative")
		}
		o.write.dict = on
		if limit > 0 {
			o.write.dictLimit = limit
		}
	}
}

// WithDataPageV2 writes data pages in the v2 layout (default v1): levels
// uncompressed ahead of the values, their lengths in the page header, and
// the values compressed only when that makes them smaller. Pages of
// repeated columns begin at a row, as v2 requires. For writing.
func WithDataPageV2() Option {
	return func(o *options) {
		o.use("WithDataPageV2", forWrite)
		o.write.pageV2 = true
	}
}

// WithoutStoredSchema leaves out the ARROW:schema key. For writing.
func WithoutStoredSchema() Option {
	return func(o *options) {
		o.use("WithoutStoredSchema", forWrite)
		o.write.noSchema = true
	}
}

// WithKeyValue adds a key-value pair to the file metadata. For writing.
func WithKeyValue(key, value string) Option {
	return func(o *options) {
		o.use("WithKeyValue", forWrite)
		o.write.kv = append(o.write.kv, format.KeyValue{Key: key, Value: ptr(value)})
	}
}

// WithBloomFilter writes a split-block bloom filter of the column of
// dotted path (e.g. "a" or "s.x") in every row group, sized for its
// distinct values at a 1% false-positive rate; readers use it to skip
// row groups for Eq predicates. Boolean columns get none. For writing.
func WithBloomFilter(path string) Option {
	return func(o *options) {
		o.use("WithBloomFilter", forWrite)
		o.write.bloom[path] = true
	}
}

// WithSortingColumns records in every row group that its rows are sorted
// by these columns, the first one first. NewWriter fails on a path that
// names no leaf column. For writing.
func WithSortingColumns(cols ...SortingColumn) Option {
	return func(o *options) {
		o.use("WithSortingColumns", forWrite)
		o.write.sorting = append(o.write.sorting, cols...)
	}
}

// WithoutPageIndex turns off writing the page index (on by default). For
// writing.
func WithoutPageIndex() Option {
	return func(o *options) {
		o.use("WithoutPageIndex", forWrite)
		o.write.noPageIndex = true
	}
}

// WithEncryption encrypts the file written. Encrypted columns are
// written without page index and bloom filter. For writing.
func WithEncryption(e FileEncryption) Option {
	return func(o *options) {
		o.use("WithEncryption", forWrite)
		o.write.encrypt = &e
	}
}
