package parquet

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
	"github.com/alkaid-go/alkaid/parquet/internal/thrift"
)

// readConfig is what a File's options set.
type readConfig struct {
	limits   Limits
	checkCRC bool
	// schemaWarn: a stored ARROW:schema that cannot be used is a
	// warning (File.Warnings), not an error.
	schemaWarn  bool
	decrypt     *FileDecryption
	columns     []string // nil: all
	rowGroups   []int    // nil: all
	batch       int
	concurrency int
	preds       []Predicate
	asDict      bool
	stats       *ReadStats
	filter      *rowFilter
}

// defaultReadConfig is a File's configuration before its options.
func defaultReadConfig() readConfig {
	return readConfig{limits: DefaultLimits, checkCRC: true, batch: DefaultBatchSize}
}

// File is an open Parquet file.
type File struct {
	r      io.ReaderAt
	size   int64
	cfg    readConfig
	meta   format.FileMetaData
	root   *node
	leaves []*node
	// schema is the file's, readSchema that of what its options read;
	// plan is the plan of that reading, or nil when lazy makes it (see
	// setPlan).
	schema     *alkaid.Schema
	readSchema *alkaid.Schema
	plan       *readPlan
	lazy       *lazyPlan
	// data holds the whole file when it is in memory (NewFileBytes,
	// OpenFile): chunks are then sliced, not copied.
	data   []byte
	region *memory.Region
	// warnings are the problems passed over (WithStoredSchemaWarnings).
	warnings []string
	// dec decrypts an encrypted file's chunks (nil: not encrypted).
	dec *fileDecryptor
	// early holds the fetches Prefetch started, shared with the Files
	// Select makes.
	early *early
}

// magic opens and closes every Parquet file; "PARE" marks an encrypted
// footer.
var (
	magic    = []byte("PAR1")
	magicEnc = []byte("PARE")
)

// NewFile reads the footer of the Parquet file of size bytes in r and
// plans the reading its options ask for (columns, row groups, and the
// row groups and pages predicates rule out; without such options, the
// first read makes the plan); an option of a Writer, or an invalid option
// value, is an error naming it.
func NewFile(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	f, err := newFile(r, size, opts)
	if err != nil {
		return nil, err
	}
	if err := f.setPlan(); err != nil {
		return nil, err
	}
	return f, nil
}

// setPlan plans the File's reading: now when its options select or
// filter, so that what they ask for that cannot be done is an error of
// the call that gives them; else at the first read that needs the plan
// (opening many files to look at their schemas and row groups, as a
// dataset does, makes none).
func (f *File) setPlan() error {
	if f.planLater() {
		f.readSchema, f.plan, f.lazy = f.schema, nil, &lazyPlan{}
		return nil
	}
	p, err := f.makePlan()
	if err != nil {
		return err
	}
	f.readSchema, f.plan, f.lazy = p.schema, p, nil
	return nil
}

// lazyPlan is a plan made when first needed.
type lazyPlan struct {
	once sync.Once
	plan *readPlan
	err  error
}

// planned returns the File's plan, making it if it is lazy.
func (f *File) planned() (*readPlan, error) {
	if f.plan != nil {
		return f.plan, nil
	}
	l := f.lazy
	l.once.Do(func() { l.plan, l.err = f.makePlan() })
	return l.plan, l.err
}

// planLater reports whether the File reads the whole file as its schema
// says: no projection, row group selection, predicate, row filter or
// dictionary arrays. Its plan then reads every field of the file's
// schema, and making it cannot fail (opening mapped every leaf's type).
func (f *File) planLater() bool {
	c := &f.cfg
	return c.columns == nil && c.rowGroups == nil && c.preds == nil && c.filter == nil && !c.asDict
}

// newFile reads the footer; the plan is made by the caller.
func newFile(r io.ReaderAt, size int64, opts []Option) (*File, error) {
	o, err := apply(options{read: defaultReadConfig()}, opts, forRead|atOpen)
	if err != nil {
		return nil, err
	}
	f := &File{r: r, size: size, cfg: o.read, early: &early{}}
	if size < 12 {
		return nil, invalidf("file of %d bytes is too short for Parquet", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, ioErr(err, "reading the footer")
	}
	encFooter := bytes.Equal(tail[4:], magicEnc)
	if !encFooter && !bytes.Equal(tail[4:], magic) {
		return nil, invalidf("no PAR1 magic at the end of the file")
	}
	var head [4]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return nil, ioErr(err, "reading the header")
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
		return nil, ioErr(err, "reading the footer")
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
	if err := f.applyStoredSchema(fields); err != nil {
		if !f.cfg.schemaWarn {
			return nil, err
		}
		f.warnings = append(f.warnings, err.Error())
	}
	f.schema = alkaid.NewSchema(fields, md)
	for i := range f.meta.RowGroups {
		if err := f.checkRowGroup(i); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// NewFileBytes reads a Parquet file held in memory, as NewFile does;
// column chunks are read from data without a copy (decoded values never
// alias it).
func NewFileBytes(data []byte, opts ...Option) (*File, error) {
	f, err := newFile(bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		return nil, err
	}
	f.data = data
	if err := f.setPlan(); err != nil {
		return nil, err
	}
	return f, nil
}

// OpenFile opens the Parquet file at path, memory-mapped where the
// platform allows it (see memory.MapFile: the file must not shrink while
// it is open). Decoded values are copied out of the mapping, so records
// outlive the File.
func OpenFile(path string, opts ...Option) (*File, error) {
	region, err := memory.MapFile(path)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	f, err := NewFileBytes(region.Bytes(), opts...)
	if err != nil {
		return nil, &pathError{path: path, err: err}
	}
	f.region = region
	return f, nil
}

// Close exists for the alkaid.RecordReader interface: the mapping of
// OpenFile is released by the garbage collector once neither the File,
// the Files selected from it, nor anything read from them references it,
// so Close does nothing and they stay usable. It never closes the
// io.ReaderAt given to NewFile.
func (f *File) Close() error { return nil }

// Schema is the Alkaid schema of the records read: the file's, or of the
// fields WithColumns selects, with the types WithDictionaryArrays gives.
func (f *File) Schema() *alkaid.Schema { return f.readSchema }

// NumRows is the number of rows in the file, whatever the options select.
func (f *File) NumRows() int64 { return f.meta.NumRows }

// NumRowGroups is the number of row groups.
func (f *File) NumRowGroups() int { return len(f.meta.RowGroups) }

// Warnings are the problems of the file that reading passed over: an
// unusable ARROW:schema key under [WithStoredSchemaWarnings].
func (f *File) Warnings() []string { return f.warnings }

// applyStoredSchema restores to fields, the file's, from the ARROW:schema
// key, the field metadata and the types that map one to one onto what was
// read (time zones, and types of the same layout). A key that does not
// decode, or whose fields are not the file's, is an error, and leaves
// fields as they are: reading on would change the types the writer stored
// without saying so.
func (f *File) applyStoredSchema(fields []datatype.Field) error {
	var stored *alkaid.Schema
	for _, kv := range f.meta.KeyValueMetadata {
		if kv.Key == "ARROW:schema" && kv.Value != nil {
			var err error
			if stored, err = decodeStoredSchema(*kv.Value); err != nil {
				return err
			}
		}
	}
	if stored == nil {
		return nil
	}
	if stored.NumFields() != len(fields) {
		return invalidf("ARROW:schema key has %d fields, the Parquet schema %d", stored.NumFields(), len(fields))
	}
	for i := range fields {
		sf := stored.Field(i)
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
	for i := range fields {
		sf := stored.Field(i)
		fields[i].Metadata = sf.Metadata
		fields[i].Type = sf.Type
	}
	return nil
}

// decodedStored is an ARROW:schema key's value and the schema it decodes
// to.
type decodedStored struct {
	key    string
	schema *alkaid.Schema
}

// lastStored is the key decodeStoredSchema decoded last: the files of a
// dataset, opened one after another, mostly store the same one.
var lastStored atomic.Pointer[decodedStored]

// decodeStoredSchema decodes the base64 IPC schema message of the
// ARROW:schema key (schemas are immutable: the key decoded last is
// shared).
func decodeStoredSchema(s string) (*alkaid.Schema, error) {
	if last := lastStored.Load(); last != nil && last.key == s {
		return last.schema, nil
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return nil, invalidf("ARROW:schema key: not base64: %v", err)
		}
	}
	if len(raw) >= 4 && binary.LittleEndian.Uint32(raw) != 0xffffffff {
		// Pre-0.15 framing: length without the continuation marker.
		raw = append([]byte{0xff, 0xff, 0xff, 0xff}, raw...)
	}
	raw = append(raw, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0)
	r, err := ipc.NewStreamReaderBytes(raw)
	if err != nil {
		return nil, invalidf("ARROW:schema key: not an IPC schema message: %v", err)
	}
	lastStored.Store(&decodedStored{key: s, schema: r.Schema()})
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
		if f.dec != nil && f.dec.locked[i][j] != nil {
			continue // read only when asked for, then refused
		}
		where := func() string { return fmt.Sprintf("row group %d column %q", i, pathString(f.leaves[j].path)) }
		if f.dec == nil && (cc.CryptoMetadata != nil || cc.EncryptedColumnMetadata != nil) {
			return invalidf("%s: an encrypted column in a file without encryption", where())
		}
		if cc.FilePath != nil {
			return unsupportedf("%s: data in another file (%q)", where(), *cc.FilePath)
		}
		if cc.MetaData == nil {
			return invalidf("%s: no column metadata", where())
		}
		if cc.MetaData.Type != *f.leaves[j].elem.Type {
			return invalidf("%s: type %s where the schema says %s", where(), cc.MetaData.Type, *f.leaves[j].elem.Type)
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

// Select returns another reader of the same file, sharing its footer
// (nothing is read again but the page indexes its predicates need): the
// File's options, then opts, which may be those that choose what is read
// and how it is cut (WithColumns, WithRowGroups, WithPredicates,
// WithBatchSize, WithDictionaryArrays, WithConcurrency, WithReadStats).
// The options taken when a file is opened (limits, decryption, CRC
// checks, stored-schema warnings) are the File's and an error here.
// A caller reading several projections or row groups of one file (a
// dataset scan, a server sending row groups) selects them from the File
// it opened rather than opening it again, which would read and decode
// the footer each time.
func (f *File) Select(opts ...Option) (*File, error) {
	o, err := apply(options{read: f.cfg}, opts, forRead)
	if err != nil {
		return nil, err
	}
	g := *f
	g.cfg = o.read
	if err := g.setPlan(); err != nil {
		return nil, err
	}
	return &g, nil
}

// Records yields the rows the File's options select as records of at
// most the batch size (see WithBatchSize), row group after row group, by
// the File's plan. An error ends the sequence. Each call reads the file
// anew.
func (f *File) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		p, err := f.planned()
		if err != nil {
			yield(nil, err)
			return
		}
		batch := f.cfg.batch
		b := newBudget(f.cfg.limits, f.size)
		for _, gp := range p.groups {
			r, err := f.openRowGroup(gp, p, workers(f.cfg.concurrency), b, f.cfg.stats)
			if err != nil {
				yield(nil, err)
				return
			}
			for {
				rec, err := r.next(int64(batch))
				if err != nil {
					yield(nil, err)
					return
				}
				if rec == nil {
					r.release()
					break
				}
				if p.filter != nil && rec.NumRows() == 0 {
					continue // the row filter kept none
				}
				if gp.sel == nil {
					if !yield(rec, nil) {
						return
					}
					continue
				}
				// The selected rows of a row group are read at once.
				for i := 0; i < rec.NumRows(); i += batch {
					if !yield(rec.Slice(i, min(i+batch, rec.NumRows())), nil) {
						return
					}
				}
			}
		}
	}
}
