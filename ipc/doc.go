// Package ipc reads and writes the Alkaid IPC formats: the stream format
// (.ipcs: a schema message, dictionary and record batch messages, an
// end-of-stream marker) and the file format (.ipc: the ALKAID1 magic, the
// same messages, and a footer indexing them for random access). Both are
// wire-identical to Apache Arrow's; readers accept the ARROW1 magic and the
// ARROW: metadata namespace too, and writers emit them with
// [WithArrowCompat].
//
// Layers: [Decoder] turns bytes (fed with Write, no I/O) or whole messages
// into schemas, dictionaries and records; [StreamReader] and [FileReader]
// do the I/O on top of it; [StreamWriter] and [FileWriter] write.
// [ReadMessage] and [WriteMessage] expose single encapsulated messages for
// custom transports.
//
// Both readers are [alkaid.RecordReader]s (Schema, Records, Close): range
// over Records, or hand them to [alkaid.ReadAll] and [alkaid.Copy]. A
// stream is read once; a file may be read again, and by index with
// [FileReader.Record]. Both writers are [alkaid.RecordWriter]s. Close
// never closes an io.Reader or io.Writer passed in.
//
// Every constructor takes the one [Option] type: [WithConcurrency] (the
// goroutines that compress, decompress and copy big bodies; results and
// errors do not depend on it: workers report the error a serial run
// reports), [WithLimits], [WithValidation] and the other reader options,
// [WithCompression], [WithAlignment] and the other writer options. An
// invalid value, or an option of the other side, is an error of the
// constructor wrapping [ErrInvalid] that names the option; nothing is
// clamped.
//
// [WithColumns] reads a subset of the top-level columns: the buffers of
// the others are not decompressed or validated, the dictionaries only
// they use are not decoded, and a file read through an io.ReaderAt
// ([NewFileReader]) reads only the byte ranges of the selected buffers
// (located through the footer's blocks and each message's buffer list),
// so that a narrow column beside a wide one costs its own bytes.
//
// Bad input is an error, never a panic: every Flatbuffers table, vector and
// string is verified before it is read, every buffer range is checked
// against the message body, counts of nodes and buffers against the schema,
// and allocations are bounded by the input's size or by [Limits]. Returned
// arrays are validated ([array.ValidateSafe]) so that no accessor can read
// out of bounds; [array.ValidateFull] adds UTF-8 and value checks, and
// [array.ValidateStructure] skips the O(n) checks for data this process
// wrote itself.
//
// Memory bound for untrusted input: reading an uncompressed stream or file
// of n bytes allocates at most a small multiple of n plus a constant (the
// body of a message is allocated only once the input has shown it holds
// that many bytes). What is copied out of a message's Flatbuffers
// metadata is bounded by [Limits].MaxMetadataExpansion times its size,
// counting a string or table once per reference, so shared tables cannot
// multiply it; [Limits].MaxTables bounds the tables visited. The
// compressed buffers of a message may state at most
// [Limits].MaxCompressionRatio times its body plus 64 MiB, and those of a
// stream read in order the same for the stream as a whole (checked from
// the stated lengths before anything is allocated); a buffer cannot
// expand more than 256 (LZ4) or 32768 (ZSTD) times its size anyway, and
// the buffers of one message are capped together by
// [Limits].MaxDecompressed. A stream reader lets go of a batch when it
// moves to the next.
//
// Writers never write what default readers refuse: metadata past
// [Limits].MaxMetadataSize or [Limits].MaxTables is refused (ErrLimit)
// before the Flatbuffers builder runs and before any byte of the message
// is written, and compressed buffers that would exceed the default ratio
// are stored raw.
//
// Time is bounded the same way. A file's footer must list its dictionary
// and record batch blocks in the order they lie in the file, so a pass over
// a file decodes no message twice. A dictionary is validated once, when
// it arrives; each batch checks only its indices into it. Dictionary
// deltas extend the dictionary in place, its buffers doubling as they
// fill, rather than copying it whole per delta, bool values, validity
// bitmaps and dictionary-encoded values included (bitmaps are kept at up
// to eight bit shifts, at most one byte per value, so that the arrays
// handed out end on a byte that no later delta writes). The exceptions
// are the validity bitmaps of fixed-size list values and of structs with
// a union, run-end encoded or fixed-size list field, of which each batch
// gets its own copy (n/8 bytes for n values) once a value is null, and
// dictionary-encoded values whose own dictionary was replaced between
// deltas, which are concatenated.
//
// Writers write what a batch holds, not every buffer and child that a
// slice shares with the array it was cut from: the values of a view
// slice and the elements of a list-view slice are copied out when they
// take under half of what the slice shares (else the span they lie in is
// written), and dense union children are cut to the span the slots use.
//
// What independent writers write is kept and read as they read it. Field
// names, a list's child name included (some writers name it ""), are read
// and written exactly as given. A file is read through its footer: its
// stream part may start at the first batch (Arrow JS writes no leading
// schema message) or hold nothing; a malformed leading schema message is
// a warning ([FileReader.Warnings]) naming the writer's defect, an error
// only with [WithStrictSchemaMessage]. A union's field-node null count
// carries no meaning (unions have no validity bitmap; one writer counts
// its children's null slots there): every validation level accepts any
// count up to the length, readers load it as 0 and writers write 0.
//
// Big-endian input is byte-swapped to native order as it is read (refuse
// it with [WithoutByteSwap]). [OpenFile] memory-maps a file and builds
// arrays that point into the mapping; they stay valid after Close.
package ipc
