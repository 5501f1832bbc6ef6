package gorecord

import (
	"errors"
	"fmt"
	"iter"
	"reflect"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// Errors a caller can branch on with errors.Is. Every error of this
// package starts with "gorecord: " and wraps one of them; all but
// ErrNotSupported are also [datatype.ErrInvalid].
var (
	// ErrNotSupported is datatype.ErrNotSupported: a Go type has no
	// column mapping (channels, funcs, interfaces without the json option,
	// complex numbers, recursive types, …). The message names the field
	// path and the Go type.
	ErrNotSupported = datatype.ErrNotSupported
	// ErrInvalidTag: an alkaid struct tag is malformed, contradicts
	// itself or does not apply to its field's type.
	ErrInvalidTag = datatype.Refine(datatype.ErrInvalid, "invalid alkaid tag")
	// ErrMismatch: a record's column does not fit the Go field it is read
	// into (wrong type, missing column or struct child).
	ErrMismatch = datatype.Refine(datatype.ErrInvalid, "column does not fit Go type")
	// ErrNull: a null slot was read into a Go type without nil, and
	// [WithZeroForNull] was not given.
	ErrNull = datatype.Refine(datatype.ErrInvalid, "null into non-nullable Go value")
	// ErrRange: a value does not fit the type it goes to: a time.Time
	// outside the years 1678 to 2262 written to a timestamp[ns] column,
	// or a duration or timestamp read into a time.Duration or time.Time
	// that cannot hold it (durations beyond about 292 years).
	ErrRange = datatype.Refine(datatype.ErrInvalid, "value out of range")
)

// Option configures [FromSlice], [NewWriter] and [NewReader], which build
// records, and [ToSlice], which reads them. An invalid value, or an option
// of the other direction ([WithZeroForNull] to a builder, a builder's
// option to ToSlice), makes them return an error wrapping
// datatype.ErrInvalid that names the option.
type Option func(*writeConfig)

type writeConfig struct {
	alloc       memory.Allocator
	metadata    datatype.Metadata
	batchRows   int
	zeroForNull bool
	err         error // the first invalid option
	// the first option given that only builders, or only ToSlice, take
	buildOnly, readOnly string
}

func (c *writeConfig) builds(name string) {
	if c.buildOnly == "" {
		c.buildOnly = name
	}
}

// DefaultBatchSize is the rows per record of [NewWriter] and [NewReader]
// without [WithBatchSize].
const DefaultBatchSize = 64 << 10

// WithBatchSize sets the rows per record that [NewWriter] and [NewReader]
// make (the last may have fewer; default [DefaultBatchSize]); rows must be
// 1 or more. FromSlice makes one record whatever it is.
func WithBatchSize(rows int) Option {
	return func(c *writeConfig) {
		c.builds("WithBatchSize")
		if rows < 1 {
			if c.err == nil {
				c.err = fmt.Errorf("gorecord: %w: WithBatchSize(%d): rows must be 1 or more", datatype.ErrInvalid, rows)
			}
			return
		}
		c.batchRows = rows
	}
}

// newWriteConfig is the configuration of a builder of records.
func newWriteConfig(opts []Option) (writeConfig, error) {
	c := writeConfig{batchRows: DefaultBatchSize}
	for _, o := range opts {
		o(&c)
	}
	if c.err == nil && c.readOnly != "" {
		c.err = fmt.Errorf("gorecord: %w: %s is an option of ToSlice, given to a builder of records", datatype.ErrInvalid, c.readOnly)
	}
	return c, c.err
}

// WithAllocator makes the builders allocate from a (default
// [memory.DefaultAllocator]).
func WithAllocator(a memory.Allocator) Option {
	return func(c *writeConfig) {
		c.builds("WithAllocator")
		c.alloc = a
	}
}

// WithSchemaMetadata sets the schema-level metadata of the records built
// (default none).
func WithSchemaMetadata(m datatype.Metadata) Option {
	return func(c *writeConfig) {
		c.builds("WithSchemaMetadata")
		c.metadata = m
	}
}

// WithZeroForNull makes [ToSlice] read a null into a Go type without nil
// (int64, string, a struct, …) as its zero value instead of failing with
// [ErrNull]. Pointers, slices, maps and []byte read nulls as nil either way.
func WithZeroForNull() Option {
	return func(c *writeConfig) {
		if c.readOnly == "" {
			c.readOnly = "WithZeroForNull"
		}
		c.zeroForNull = true
	}
}

// SchemaOf returns the schema of the records built from values of T, a
// struct type. The mapping is computed once per type and cached.
func SchemaOf[T any]() (*alkaid.Schema, error) {
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	return p.schema, nil
}

// rowBuilder holds one builder and one encoder per column.
type rowBuilder struct {
	schema   *alkaid.Schema
	builders []array.Builder
	fields   []fieldEnc
	rows     int
}

// chunkRows is how many rows the encoders take at a time: small enough
// for the rows to stay in cache while each column reads them.
const chunkRows = 256

func newRowBuilder(p *plan, c writeConfig) (*rowBuilder, error) {
	schema := p.schema
	if c.metadata.Len() > 0 {
		schema = schema.WithMetadata(c.metadata)
	}
	var bopts []array.BuilderOption
	if c.alloc != nil {
		bopts = append(bopts, array.WithAllocator(c.alloc))
	}
	rb := &rowBuilder{schema: schema, builders: make([]array.Builder, len(p.root.fields))}
	for i, f := range p.root.fields {
		b, err := array.TryNewBuilder(f.node.dt, bopts...)
		if err != nil {
			return nil, fmt.Errorf("gorecord: field %s: %w", f.node.path, err)
		}
		rb.builders[i] = b
	}
	fs, err := fieldEncoders(p.root, func(i int) array.Builder { return rb.builders[i] })
	if err != nil {
		return nil, err
	}
	rb.fields = fs
	return rb, nil
}

func (rb *rowBuilder) reserve(n int) {
	for _, b := range rb.builders {
		b.Reserve(n)
	}
}

// append encodes n rows at base (stride bytes apart), chunk by chunk.
func (rb *rowBuilder) append(base unsafe.Pointer, stride uintptr, n int) error {
	for start := 0; start < n; start += chunkRows {
		m := min(chunkRows, n-start)
		p := at(base, stride, start)
		for _, f := range rb.fields {
			if err := f.enc.appendRows(unsafe.Add(p, f.off), stride, m); err != nil {
				rb.discard()
				return err
			}
		}
		rb.rows += m
	}
	return nil
}

// finish returns the rows appended so far as a record and resets.
func (rb *rowBuilder) finish() (*alkaid.Record, error) {
	cols := make([]array.Array, len(rb.builders))
	for i, b := range rb.builders {
		cols[i] = b.NewArray()
	}
	n := rb.rows
	rb.rows = 0
	return alkaid.NewRecord(rb.schema, cols, n)
}

// discard drops the rows appended so far (after an error that left the
// columns of unequal length).
func (rb *rowBuilder) discard() {
	for _, b := range rb.builders {
		func() {
			defer func() { _ = recover() }() // a half-appended nested row may not finish
			b.NewArray()
		}()
	}
	rb.rows = 0
}

// FromSlice builds one record from rows: one column per field of T (see
// the package documentation for the mapping), one row per element.
func FromSlice[T any](rows []T, opts ...Option) (*alkaid.Record, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	rb, err := newRowBuilder(p, c)
	if err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		rb.reserve(len(rows))
		if err := rb.append(unsafe.Pointer(unsafe.SliceData(rows)), unsafe.Sizeof(rows[0]), len(rows)); err != nil {
			return nil, err
		}
	}
	return rb.finish()
}

// Writer appends values of T and writes them as records of a chosen
// number of rows ([WithBatchSize]) to an [alkaid.RecordWriter]: an IPC,
// Parquet, CSV or NDJSON writer made with the schema [SchemaOf] gives. It
// is not safe for concurrent use.
//
//	w, _ := gorecord.NewWriter[Trade](ipcWriter)
//	for t := range trades { w.Append(t) }
//	w.Flush()
type Writer[T any] struct {
	rb    *rowBuilder
	batch int
	out   alkaid.RecordWriter
	one   [1]T
}

// NewWriter returns a writer that writes a record to out each time the
// batch size of rows have been appended, and from Flush the rest. The
// records written are out's to keep. out is not closed by the Writer.
func NewWriter[T any](out alkaid.RecordWriter, opts ...Option) (*Writer[T], error) {
	if out == nil {
		return nil, fmt.Errorf("gorecord: %w: NewWriter with a nil RecordWriter", datatype.ErrInvalid)
	}
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	rb, err := newRowBuilder(p, c)
	if err != nil {
		return nil, err
	}
	return &Writer[T]{rb: rb, batch: c.batchRows, out: out}, nil
}

// Schema is the schema of the records written.
func (w *Writer[T]) Schema() *alkaid.Schema { return w.rb.schema }

// Buffered is the number of rows appended but not yet written.
func (w *Writer[T]) Buffered() int { return w.rb.rows }

// Append appends one row, writing a record when the batch is full. v is
// read during the call and not kept. After an error the rows buffered are
// dropped.
func (w *Writer[T]) Append(v T) error {
	w.one[0] = v
	err := w.AppendSlice(w.one[:])
	var zero T
	w.one[0] = zero
	return err
}

// AppendSlice appends rows, writing a record each time the batch is
// full; it is much faster per row than Append for many rows.
func (w *Writer[T]) AppendSlice(rows []T) error {
	for len(rows) > 0 {
		k := min(len(rows), w.batch-w.rb.rows)
		if err := w.rb.append(unsafe.Pointer(unsafe.SliceData(rows)), unsafe.Sizeof(rows[0]), k); err != nil {
			return err
		}
		rows = rows[k:]
		if w.rb.rows >= w.batch {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Flush writes the buffered rows as a record, if there are any.
func (w *Writer[T]) Flush() error {
	if w.rb.rows == 0 {
		return nil
	}
	rec, err := w.rb.finish()
	if err != nil {
		return err
	}
	return w.out.Write(rec)
}

// NewReader returns an [alkaid.RecordReader] of rows: records of the
// batch size of rows ([WithBatchSize]; the last one shorter) with the
// schema [SchemaOf] gives. It can be iterated as often as rows can;
// Close does nothing.
func NewReader[T any](rows iter.Seq[T], opts ...Option) (alkaid.RecordReader, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	schema := p.schema
	if c.metadata.Len() > 0 {
		schema = schema.WithMetadata(c.metadata)
	}
	records := func(yield func(*alkaid.Record, error) bool) {
		y := &yieldWriter{yield: yield}
		rb, err := newRowBuilder(p, c)
		if err != nil {
			yield(nil, err)
			return
		}
		w := &Writer[T]{rb: rb, batch: c.batchRows, out: y}
		for v := range rows {
			if err := w.Append(v); err != nil {
				if !y.stopped {
					yield(nil, err)
				}
				return
			}
		}
		if err := w.Flush(); err != nil && !y.stopped {
			yield(nil, err)
		}
	}
	return alkaid.NewRecordReader(schema, records, nil), nil
}

// yieldWriter hands the records written to a range loop; once the loop
// has stopped, writes fail.
type yieldWriter struct {
	yield   func(*alkaid.Record, error) bool
	stopped bool
}

var errStopped = errors.New("gorecord: the loop stopped")

func (y *yieldWriter) Write(rec *alkaid.Record) error {
	if y.stopped || !y.yield(rec, nil) {
		y.stopped = true
		return errStopped
	}
	return nil
}

func (y *yieldWriter) Close() error { return nil }

// ToSlice reads a record into a new slice of T, one element per row.
// Columns are matched to T's fields by name (columns without a field are
// ignored); a missing column, or a column whose type does not fit its
// field, is an error wrapping [ErrMismatch] that names both. A null read
// into a Go type without nil is an error wrapping [ErrNull] unless
// [WithZeroForNull] is given.
//
// Strings and []byte values of one column share one allocation; each
// []byte has its capacity capped at its length, so appending to it copies.
func ToSlice[T any](rec *alkaid.Record, opts ...Option) ([]T, error) {
	var c writeConfig
	for _, o := range opts {
		o(&c)
	}
	if c.buildOnly != "" {
		return nil, fmt.Errorf("gorecord: %w: %s is an option of builders of records, given to ToSlice", datatype.ErrInvalid, c.buildOnly)
	}
	if c.err != nil {
		return nil, c.err
	}
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	bd := &binder{zeroForNull: c.zeroForNull}
	schema := rec.Schema()
	type col struct {
		idx int
		off uintptr
		dec decoder
	}
	cols := make([]col, len(p.root.fields))
	for i, f := range p.root.fields {
		ci := schema.FieldIndex(f.name)
		if ci < 0 {
			return nil, fmt.Errorf("gorecord: %w: no column %q for field %s", ErrMismatch, f.name, f.node.path)
		}
		d, err := bd.bind(f.node, schema.Field(ci).Type)
		if err != nil {
			return nil, fmt.Errorf("gorecord: column %q: %w", f.name, err)
		}
		cols[i] = col{ci, f.offset, d}
	}
	n := rec.NumRows()
	out := make([]T, n)
	if n == 0 {
		return out, nil
	}
	base := unsafe.Pointer(unsafe.SliceData(out))
	stride := unsafe.Sizeof(out[0])
	for i, c := range cols {
		if err := c.dec.decode(rec.Column(c.idx), 0, n, unsafe.Add(base, c.off), stride); err != nil {
			return nil, fmt.Errorf("gorecord: column %q: %w", p.root.fields[i].name, err)
		}
	}
	return out, nil
}
