// Package cdata implements the Arrow C Data Interface and C Stream
// Interface: records, arrays with their fields, schemas and streams of
// records cross into and out of C (and any library that speaks the
// interface: DuckDB, Polars, pyarrow, ADBC drivers, arrow-go) without
// copying their buffers.
//
// # Exporting
//
// [ExportRecord], [ExportArray], [ExportSchema], [ExportField] and
// [ExportStream] fill structs that the caller allocated (in C memory or
// pinned Go memory). Exported buffers are Alkaid's own memory, pinned: they
// stay alive and unmoved until the consumer calls the struct's release
// callback, however long that takes, and are then the garbage collector's
// again. A consumer that never calls release leaks them.
//
// # Importing
//
// [ImportRecord], [ImportArray], [ImportSchema], [ImportField] and
// [ImportStream] take ownership of a producer's structs (they are moved:
// the caller's struct is left marked released) and build arrays over the
// producer's buffers without copying. The producer's release callback runs
// exactly once, when the garbage collector finds no array referencing the
// buffers any more (a runtime cleanup), never earlier. Imported arrays are
// checked like arrays read from IPC: buffer and child counts, lengths,
// offsets and format strings first, then [array.ValidateSafe] by default,
// so that no accessor of an imported array can panic; [WithValidation]
// with [array.ValidateFull] adds UTF-8 and value checks, and with
// [array.ValidateStructure] keeps only the structural checks, for
// producers known to be correct. A malformed struct gives an error naming
// what is wrong and where, wrapping [ErrInvalid]. (Nothing can check that
// the pointers a C producer hands over point where it says: a producer
// that lies about its memory can still crash the process.)
//
// What a producer can make an import do is bounded: nesting to 64 levels,
// and the nodes visited to [DefaultMaxNodes] ([WithMaxNodes] raises it),
// counted once per reference, since a producer may point many children at
// one node and a small graph could otherwise stand for an exponential
// tree; the metadata of all nodes together to 64 MiB. Beyond them the
// import fails with an error wrapping [ErrLimit].
//
// Extension types travel as their storage with the ARROW:extension:name
// and ARROW:extension:metadata field metadata; on import ALKAID: keys are
// accepted too and registered types are resolved.
//
// # Streams
//
// [ExportStream] exports any [alkaid.RecordReader] (an IPC or Parquet
// reader, a table, …): get_next hands out the batches its Records yields,
// and get_last_error the message of the error it yields; releasing the
// stream closes the reader. [ImportStream] returns a [StreamReader], an
// alkaid.RecordReader read once, whose errors carry the producer's
// get_last_error message and wrap [ErrStream].
//
// The package needs cgo. Without it (CGO_ENABLED=0, or no C compiler) it
// holds only this documentation, and the rest of the module builds as
// usual.
package cdata
