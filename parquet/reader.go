package parquet

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"iter"
	"runtime"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// ReaderLimits bound what one page may expand to, so that a small
// malformed file cannot ask for a large allocation.
type ReaderLimits struct {
	// MaxPageSize is the largest uncompressed page, in bytes, and the
	// largest total of byte-array values one page may decode to.
	// Default 256 MiB.
	MaxPageSize int64
	// MaxPageValues is the largest number of entries in one page.
	// Default 1<<24.
	MaxPageValues int64
	// MaxChunkValues is the largest number of entries in one column chunk
	// (one column of one row group). Default 1<<28.
	MaxChunkValues int64
	// MaxFooterSize is the largest file metadata, in bytes. Default 64 MiB.
	MaxFooterSize int64
	// MaxCompressionRatio bounds what one read of the file (one
	// [File.Records] sequence) decompresses and decodes, all columns and
	// batches together: this many times the file's size plus 64 MiB, so
	// that a small file cannot claim gigabytes (a few hundred bytes of
	// dictionary indices or levels may declare millions of values, and
	// column chunks may share pages). Default 1000; files of long runs of
	// constant values or nulls may need it raised.
	MaxCompressionRatio int
	// CheckCRC verifies page checksums where pages carry one (on in
	// DefaultReaderLimits).
	CheckCRC bool
}

// DefaultReaderLimits are the limits used unless WithLimits says otherwise.
var DefaultReaderLimits = ReaderLimits{MaxPageSize: 256 << 20, MaxPageValues: 1 << 24, MaxChunkValues: 1 << 28,
	MaxFooterSize: 64 << 20, MaxCompressionRatio: 1000, CheckCRC: true}

// ReaderOption configures a File.
type ReaderOption func(*readerConfig)

type readerConfig struct {
	limits ReaderLimits
	// schemaWarn: a stored ARROW:schema that cannot be used is a
	// warning (File.Warnings), not an error.
	schemaWarn bool
	decrypt    *FileDecryption
}

// WithStoredSchemaWarnings makes an ARROW:schema key that does not decode,
// or that does not describe the file's columns, a warning read from
// [File.Warnings] (the file is then read with the types of its Parquet
// schema) instead of an error wrapping [ErrInvalid] from [NewFile].
func WithStoredSchemaWarnings() ReaderOption {
	return func(c *readerConfig) { c.schemaWarn = true }
}

// WithLimits replaces DefaultReaderLimits; a size or count left zero
// takes its default.
func WithLimits(l ReaderLimits) ReaderOption {
	return func(c *readerConfig) {
		d := DefaultReaderLimits
		for _, p := range []struct{ v, def *int64 }{
			{&l.MaxPageSize, &d.MaxPageSize}, {&l.MaxPageValues, &d.MaxPageValues},
			{&l.MaxChunkValues, &d.MaxChunkValues}, {&l.MaxFooterSize, &d.MaxFooterSize},
		} {
			if *p.v <= 0 {
				*p.v = *p.def
			}
		}
		if l.MaxCompressionRatio <= 0 {
			l.MaxCompressionRatio = d.MaxCompressionRatio
		}
		c.limits = l
	}
}

// File is an open Parquet file.
type File struct {
	r      io.ReaderAt
	size   int64
	cfg    readerConfig
	meta   format.FileMetaData
	root   *node
	leaves []*node
	schema *alkaid.Schema
	// data holds the whole file when it is in memory (NewFileBytes,
	// OpenFile): chunks are then sliced, not copied.
	data   []byte
	region *memory.Region
	// warnings are the problems passed over (WithStoredSchemaWarnings).
	warnings []string
	// dec decrypts an encrypted file's chunks (nil: not encrypted).
	dec *fileDecryptor
}

// magic opens and closes every Parquet file; "PARE" marks an encrypted
// footer.
var (
	magic    = []byte("PAR1")
	magicEnc = []byte("PARE")
)

// NewFile reads the footer of the Parquet file of size bytes in r.
func NewFile(r io.ReaderAt, size int64, opts ...ReaderOption) (*File, error) {
	f := &File{r: r, size: size, cfg: readerConfig{limits: DefaultReaderLimits}}
	for _, o := range opts {
		o(&f.cfg)
	}
	if size < 12 {
		return nil, invalidf("file of %d bytes is too short for Parquet", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, fmt.Errorf("parquet: reading the footer: %w", err)
	}
	encFooter := bytes.Equal(tail[4:], magicEnc)
	if !encFooter && !bytes.Equal(tail[4:], magic) {
		return nil, invalidf("no PAR1 magic at the end of the file")
	}
	var head [4]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return nil, fmt.Errorf("parquet: reading the header: %w", err)
	}
	if !bytes.Equal(head[:], tail[4:]) {
		return nil, invalidf("no %s magic at the start of the file", tail[4:])
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return nil, invalidf("footer of %d bytes in a file of %d", n, size)
	}
	if n > f.cfg.limits.MaxFooterSize {
		return nil, limitf("footer of %d bytes (limit %d)", n, f.cfg.limits.MaxFooterSize)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return nil, fmt.Errorf("parquet: reading the footer: %w", err)
	}
	if encFooter {
		if err := f.openEncryptedFooter(footer); err != nil {
			return nil, err
		}
	} else if used, err := thrift.Unmarshal(footer, &f.meta); err != nil {
		return nil, fmt.Errorf("parquet: %w: file metadata: %v", ErrInvalid, err)
	} else if f.meta.EncryptionAlgorithm != nil {
		if err := f.checkSignedFooter(footer, used); err != nil {
			return nil, err
		}
	}
	root, leaves, err := schemaTree(f.meta.Schema)
	if err != nil {
		return nil, err
	}
	f.root, f.leaves = root, leaves
	if f.dec != nil {
		if err := f.decryptColumns(); err != nil {
			return nil, err
		}
	}
	fields := make([]datatype.Field, len(root.children))
	for i, c := range root.children {
		if fields[i], err = c.field(); err != nil {
			return nil, err
		}
	}
	var md datatype.Metadata
	for _, kv := range f.meta.KeyValueMetadata {
		if kv.Value != nil && kv.Key != "ARROW:schema" {
			md = md.With(kv.Key, *kv.Value)
		}
	}
	f.schema = alkaid.NewSchema(fields, md)
	if err := f.applyStoredSchema(); err != nil {
		if !f.cfg.schemaWarn {
			return nil, err
		}
		f.warnings = append(f.warnings, err.Error())
	}
	for i := range f.meta.RowGroups {
		if err := f.checkRowGroup(i); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// NewFileBytes reads a Parquet file held in memory; column chunks are
// read from data without a copy (decoded values never alias it).
func NewFileBytes(data []byte, opts ...ReaderOption) (*File, error) {
	f, err := NewFile(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		return nil, err
	}
	f.data = data
	return f, nil
}

// OpenFile opens the Parquet file at path, memory-mapped where the
// platform allows it (see memory.MapFile: the file must not shrink while
// it is open). Decoded values are copied out of the mapping, so records
// outlive the File.
func OpenFile(path string, opts ...ReaderOption) (*File, error) {
	region, err := memory.MapFile(path)
	if err != nil {
		return nil, err
	}
	f, err := NewFileBytes(region.Bytes(), opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.region = region
	return f, nil
}

// Close exists for symmetry with files opened elsewhere: the mapping of
// OpenFile is released by the garbage collector once neither the File
// nor anything read from it references it, so Close does nothing and the
// File stays usable.
func (f *File) Close() error { return nil }

// Schema is the Alkaid schema of the file's rows.
func (f *File) Schema() *alkaid.Schema { return f.schema }

// NumRows is the number of rows in the file.
func (f *File) NumRows() int64 { return f.meta.NumRows }

// NumRowGroups is the number of row groups.
func (f *File) NumRowGroups() int { return len(f.meta.RowGroups) }

// Warnings are the problems of the file that reading passed over: an
// unusable ARROW:schema key under [WithStoredSchemaWarnings].
func (f *File) Warnings() []string { return f.warnings }

// applyStoredSchema restores, from the ARROW:schema key, the field
// metadata and the types that map one to one onto what was read (time
// zones, and types of the same layout). A key that does not decode, or
// whose fields are not the file's, is an error: reading on would change
// the types the writer stored without saying so.
func (f *File) applyStoredSchema() error {
	var stored *alkaid.Schema
	for _, kv := range f.meta.KeyValueMetadata {
		if kv.Key == "ARROW:schema" && kv.Value != nil {
			var err error
			if stored, err = decodeStoredSchema(*kv.Value); err != nil {
				return invalidf("ARROW:schema key: %v", err)
			}
		}
	}
	if stored == nil {
		return nil
	}
	if stored.NumFields() != f.schema.NumFields() {
		return invalidf("ARROW:schema key has %d fields, the Parquet schema %d", stored.NumFields(), f.schema.NumFields())
	}
	fields := f.schema.Fields()
	for i, sf := range stored.Fields() {
		if sf.Name != fields[i].Name {
			return invalidf("ARROW:schema key: field %d is %.64q, the Parquet schema's %.64q", i, sf.Name, fields[i].Name)
		}
		// Nullability is the Parquet schema's: writers differ on it
		// (Parquet REQUIRED for a nullable Arrow field that holds no
		// null), and a top-level field's does not change its values.
		if !restorable(sf.Type, fields[i].Type) {
			return invalidf("ARROW:schema key: field %.64q of type %.64s cannot be read from the column's %.64s", sf.Name, sf.Type, fields[i].Type)
		}
	}
	for i, sf := range stored.Fields() {
		fields[i].Metadata = sf.Metadata
		fields[i].Type = sf.Type
	}
	f.schema = alkaid.NewSchema(fields, f.schema.Metadata())
	return nil
}

// decodeStoredSchema decodes the base64 IPC schema message of the
// ARROW:schema key.
func decodeStoredSchema(s string) (*alkaid.Schema, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return nil, fmt.Errorf("not base64: %v", err)
		}
	}
	if len(raw) >= 4 && binary.LittleEndian.Uint32(raw) != 0xffffffff {
		// Pre-0.15 framing: length without the continuation marker.
		raw = append([]byte{0xff, 0xff, 0xff, 0xff}, raw...)
	}
	raw = append(raw, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0)
	r, err := ipc.NewStreamReaderBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("not an IPC schema message: %v", err)
	}
	return r.Schema(), nil
}

func (f *File) checkRowGroup(i int) error {
	rg := &f.meta.RowGroups[i]
	if len(rg.Columns) != len(f.leaves) {
		return invalidf("row group %d has %d columns, the schema %d", i, len(rg.Columns), len(f.leaves))
	}
	if rg.NumRows < 0 {
		return invalidf("row group %d has %d rows", i, rg.NumRows)
	}
	for j := range rg.Columns {
		cc := &rg.Columns[j]
		where := fmt.Sprintf("row group %d column %q", i, pathString(f.leaves[j].path))
		if f.dec != nil && f.dec.locked[i][j] != nil {
			continue // read only when asked for, then refused
		}
		if f.dec == nil && (cc.CryptoMetadata != nil || cc.EncryptedColumnMetadata != nil) {
			return invalidf("%s: an encrypted column in a file without encryption", where)
		}
		if cc.FilePath != nil {
			return unsupportedf("%s: data in another file (%q)", where, *cc.FilePath)
		}
		if cc.MetaData == nil {
			return invalidf("%s: no column metadata", where)
		}
		if cc.MetaData.Type != *f.leaves[j].elem.Type {
			return invalidf("%s: type %s where the schema says %s", where, cc.MetaData.Type, *f.leaves[j].elem.Type)
		}
	}
	return nil
}

// chunkRange returns where a column chunk's pages lie.
func (f *File) chunkRange(cc *format.ColumnChunk, where string) (int64, int64, error) {
	m := cc.MetaData
	start := m.DataPageOffset
	if d := m.DictionaryPageOffset; d != nil && *d > 0 && *d < start {
		start = *d
	}
	n := m.TotalCompressedSize
	end := f.size - 8
	if start < 4 || n < 0 || start > end || n > end-start {
		return 0, 0, invalidf("%s: pages at [%d, %d+%d) outside the file's data [4, %d)", where, start, start, n, end)
	}
	if f.meta.CreatedBy != nil && parquetMRBefore129(*f.meta.CreatedBy) {
		// parquet-mr up to 1.2.8 left the dictionary page header out of
		// the chunk's size (PARQUET-816): the chunk may run up to that
		// header's size further. Reading stops at the chunk's last value.
		n += min(maxDictHeaderSize, end-start-n)
	}
	return start, n, nil
}

// maxDictHeaderSize bounds a dictionary page header (PARQUET-816).
const maxDictHeaderSize = 100

// parquetMRBefore129 reports whether created_by names parquet-mr before
// 1.2.9, or parquet-mr of no version.
func parquetMRBefore129(createdBy string) bool {
	app, rest, _ := strings.Cut(strings.ToLower(createdBy), " version ")
	if strings.TrimSpace(app) != "parquet-mr" {
		return false
	}
	version, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	var v [3]int
	for i, part := range strings.SplitN(version, ".", 3) {
		digits := part[:len(part)-len(strings.TrimLeft(part, "0123456789"))]
		v[i], _ = strconv.Atoi(digits)
	}
	return v[0] < 1 || (v[0] == 1 && (v[1] < 2 || (v[1] == 2 && v[2] < 9)))
}

// Option of Records.
type RecordsOption func(*recordsConfig)

type recordsConfig struct {
	columns   []string
	rowGroups []int
	batch     int
	parallel  int
	preds     []Predicate
	asDict    bool
	stats     *ReadStats
}

// ReadStats counts what a run of Records skipped (see WithReadStats).
type ReadStats struct {
	// PagesPruned counts the data pages of the columns read that the
	// page index let the reader skip (WithPredicates), in the row groups
	// read in part. A row group ruled out whole is not read, and its
	// pages not counted here.
	PagesPruned int64
}

// WithReadStats has Records add its counts to st as it reads; they are
// complete once the loop over the records has ended.
func WithReadStats(st *ReadStats) RecordsOption { return func(c *recordsConfig) { c.stats = st } }

// WithColumns keeps the top-level fields of these names, or nested
// columns by dotted path (the top-level field of the path is kept
// whole), in schema order.
func WithColumns(names ...string) RecordsOption {
	return func(c *recordsConfig) { c.columns = names }
}

// WithRowGroups reads only these row groups, in this order.
func WithRowGroups(idx ...int) RecordsOption { return func(c *recordsConfig) { c.rowGroups = idx } }

// DefaultBatchSize is the most rows of a record unless WithBatchSize
// says otherwise.
const DefaultBatchSize = 1 << 16

// WithBatchSize cuts records of at most n rows (default, and for n ≤ 0,
// DefaultBatchSize); a record never spans row groups. Pages are decoded
// as the batches need them, so memory follows the batch size, not the
// row group's (but for the rows of a row group that WithPredicates
// selects by the page index, decoded together, then cut). A record has
// fewer rows where a column's byte arrays would pass the 2 GiB that the
// int32 offsets of utf8 and binary reach; the row group's next record
// starts there.
func WithBatchSize(n int) RecordsOption { return func(c *recordsConfig) { c.batch = n } }

// WithDictionaryArrays reads top-level string and binary columns as
// dictionary<int32, string or binary> arrays: from the column's own
// dictionary and indices when every page of a row group's chunk is
// dictionary-encoded, otherwise by encoding the values. Records then have
// those dictionary types where [File.Schema] has the plain ones.
func WithDictionaryArrays() RecordsOption { return func(c *recordsConfig) { c.asDict = true } }

// WithParallelism decodes up to n columns at once (default GOMAXPROCS).
func WithParallelism(n int) RecordsOption { return func(c *recordsConfig) { c.parallel = n } }

// Records yields the file's rows as records of at most the batch size
// (see WithBatchSize), row group after row group. An error ends the
// sequence.
func (f *File) Records(opts ...RecordsOption) iter.Seq2[*alkaid.Record, error] {
	cfg := recordsConfig{parallel: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.batch <= 0 {
		cfg.batch = DefaultBatchSize
	}
	return func(yield func(*alkaid.Record, error) bool) {
		b := newBudget(f.cfg.limits, f.size)
		fields, err := f.project(cfg.columns)
		if err != nil {
			yield(nil, err)
			return
		}
		plans, err := f.plan(fields, cfg.asDict)
		if err != nil {
			yield(nil, err)
			return
		}
		groups := cfg.rowGroups
		if groups == nil {
			for i := range f.meta.RowGroups {
				groups = append(groups, i)
			}
		}
		for _, g := range groups {
			if g < 0 || g >= len(f.meta.RowGroups) {
				yield(nil, fmt.Errorf("parquet: row group %d out of range [0, %d)", g, len(f.meta.RowGroups)))
				return
			}
			if len(cfg.preds) > 0 {
				ok, err := f.rowGroupMayMatch(g, cfg.preds)
				if err != nil {
					yield(nil, err)
					return
				}
				if !ok {
					continue
				}
			}
			var sel []rowRange
			if len(cfg.preds) > 0 {
				var skip bool
				sel, skip, err = f.pageSelection(g, cfg.preds)
				if err != nil {
					yield(nil, err)
					return
				}
				if skip {
					continue
				}
			}
			r, err := f.openRowGroup(g, plans, cfg.parallel, sel, b, cfg.stats)
			if err != nil {
				yield(nil, err)
				return
			}
			for {
				rec, err := r.next(int64(cfg.batch))
				if err != nil {
					yield(nil, err)
					return
				}
				if rec == nil {
					break
				}
				if sel == nil {
					if !yield(rec, nil) {
						return
					}
					continue
				}
				// The selected rows of a row group are read at once.
				for i := 0; i < rec.NumRows(); i += cfg.batch {
					if !yield(rec.Slice(i, min(i+cfg.batch, rec.NumRows())), nil) {
						return
					}
				}
			}
		}
	}
}

// ReadAll reads every row group into one table-like list of records.
func (f *File) ReadAll(opts ...RecordsOption) ([]*alkaid.Record, error) {
	var out []*alkaid.Record
	for r, err := range f.Records(opts...) {
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// project returns the indices of the top-level fields to read.
func (f *File) project(names []string) ([]int, error) {
	if names == nil {
		out := make([]int, f.schema.NumFields())
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	keep := make([]bool, f.schema.NumFields())
	for _, name := range names {
		found := false
		for i, c := range f.root.children {
			top := c.elem.Name
			if name == top || (len(name) > len(top) && name[:len(top)+1] == top+".") {
				keep[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("parquet: no column %q", name)
		}
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out, nil
}
