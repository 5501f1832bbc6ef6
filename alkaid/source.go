package alkaid

import (
	"fmt"
	"iter"

	"github.com/alkaid-go/alkaid/array"
)

// RecordReader is the one shape of a source of record batches in this
// module: the IPC stream and file readers, the Parquet, CSV and NDJSON
// readers, the C Stream importer, Flight's data streams, datasets and
// [Table] all implement it, and [ReadAll], [Copy] and the command-line tool
// take any of them.
//
// Records yields the batches in order, each with Schema's schema, then
// stops; an error is yielded once, with a nil record, and ends the
// sequence. Breaking out of the loop early is allowed. A reader over a
// stream (an io.Reader, a network stream) can be iterated once: a second
// call of Records yields an error. Readers over random-access input
// (files, tables) may be iterated again.
//
// Close releases what the reader holds: files it opened itself, network
// streams, goroutines. It never closes an io.Reader or file the caller
// passed in, it may be called more than once, and batches already yielded
// stay valid after it.
//
// The shape is a Go 1.23 iterator rather than Next/Record/Err or Read with
// io.EOF because a range loop cannot forget the error check or the end
// condition, and because a producer that is itself a loop (a file's row
// groups, a directory's files) is written as one.
type RecordReader interface {
	Schema() *Schema
	Records() iter.Seq2[*Record, error]
	Close() error
}

// RecordWriter is the one shape of a sink of record batches: the IPC
// stream and file writers, the Parquet, CSV and NDJSON writers and
// Flight's puts implement it. A writer is created with the schema every
// record must have; Write refuses a record of another schema with an error
// wrapping ErrInvalid. Close writes what the format needs at the end
// (footers, end-of-stream markers), flushes, and releases what the writer
// opened itself; it never closes an io.Writer the caller passed in. A
// writer is not safe for concurrent use.
type RecordWriter interface {
	Write(rec *Record) error
	Close() error
}

// BatchMetadata is implemented by the readers whose record batches carry
// metadata of their own (the custom metadata of IPC messages: the IPC
// stream and file readers): Metadata returns that of the batch Records yielded last, nil when it
// had none. A consumer that keeps such metadata (a converter, a server
// replaying it) asks any RecordReader for it with a type assertion.
type BatchMetadata interface {
	Metadata() map[string]string
}

// ReadAll reads every record batch of r into a table. It does not close
// r. An error names how many batches were read before it.
func ReadAll(r RecordReader) (*Table, error) {
	var recs []*Record
	for rec, err := range r.Records() {
		if err != nil {
			return nil, fmt.Errorf("alkaid: read all: after %d record batches: %w", len(recs), err)
		}
		recs = append(recs, rec)
	}
	return TableFromRecords(r.Schema(), recs)
}

// Copy writes every record batch of r to w and returns the number of rows
// written. It closes neither.
func Copy(w RecordWriter, r RecordReader) (int64, error) {
	var rows int64
	n := 0
	for rec, err := range r.Records() {
		if err != nil {
			return rows, fmt.Errorf("alkaid: copy: reading after %d record batches: %w", n, err)
		}
		if err := w.Write(rec); err != nil {
			return rows, fmt.Errorf("alkaid: copy: writing record batch %d: %w", n, err)
		}
		rows += int64(rec.NumRows())
		n++
	}
	return rows, nil
}

// NewRecordReader makes a RecordReader of a schema and a sequence of
// batches, for producers written as iterators. close, if not nil, is
// called by Close (once).
func NewRecordReader(schema *Schema, records iter.Seq2[*Record, error], close func() error) RecordReader {
	return &seqReader{schema: schema, records: records, close: close}
}

type seqReader struct {
	schema  *Schema
	records iter.Seq2[*Record, error]
	close   func() error
	closed  bool
}

func (r *seqReader) Schema() *Schema                    { return r.schema }
func (r *seqReader) Records() iter.Seq2[*Record, error] { return r.records }

func (r *seqReader) Close() error {
	if r.closed || r.close == nil {
		return nil
	}
	r.closed = true
	return r.close()
}

// Records yields t's rows as record batches, without copying: one batch
// per stretch of rows where no column's chunk ends. A table with no rows
// yields nothing. It never yields an error; the error half is there so
// that a Table is a [RecordReader].
func (t *Table) Records() iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		if t.rows == 0 {
			return
		}
		start := 0
		for _, end := range t.boundaries() {
			cols := make([]array.Array, len(t.columns))
			for i, c := range t.columns {
				part := c.Slice(start, end)
				cols[i] = part.chunks[0]
			}
			r := &Record{schema: t.schema, columns: cols, rows: end - start}
			if !yield(r, nil) {
				return
			}
			start = end
		}
	}
}

// Close does nothing: a table holds nothing to release. It is there so
// that a Table is a [RecordReader].
func (t *Table) Close() error { return nil }
