// Package dataset reads many files as one table: discovery, partitions,
// schema unification, pruned parallel scans and partitioned writes.
//
// # Discovery
//
// [Open] takes a directory of an io/fs.FS (walked recursively in lexical
// order, following symbolic links; a loop is [ErrSymlinkLoop]) or one file;
// [OpenGlob] a pattern ("**" crosses directories); [OpenFiles] an explicit
// list. Files and directories whose names start with "." or "_" (_SUCCESS,
// _metadata, _temporary, .crc) or end in ".tmp" are left out, as Spark and
// pyarrow leave them out; a directory such as "_k=1" is a partition and
// kept, and so is a directory named HiveNull. Each file's format is found by
// [files.Detect] from its content — Parquet ("PAR1"), an IPC file of either
// magic (ALKAID1, ARROW1), an IPC stream — or its extension (.csv, .tsv;
// .json, .jsonl, .ndjson), unless [WithFormat] names one;
// a file named as Parquet or IPC (.parquet, .arrow, …) without their magic
// is an error, other files are left out.
// Files are read through [File] (an fs.File that is also an io.ReaderAt),
// so a file system over another store plugs in by serving such files.
//
// # Partitions
//
// [Partitioning] reads partition columns from directory names: [Hive]
// (key=value, values percent-escaped, [HiveNull] for null) or [Directory]
// (one value per level, named by position). Key types are given or
// inferred (int64, then date32, then utf8); a value that does not parse
// as its key's type is [ErrPartitionValue]. Partition columns follow the
// files' columns, plain or (Partitioning.Dictionary) dictionary-encoded.
//
// # Schema
//
// Unless [WithSchema] gives it, the schema is the union of the files'
// schemas, in order of first appearance. A column a file lacks reads as
// nulls there. Types of one column in different files widen:
//
//   - null and T to T;
//   - integers of one signedness to the wider; a signed and an unsigned
//     one to a signed type wider than the unsigned (int32 and uint32 to
//     int64; uint64 and a signed type do not widen);
//   - integers and floats (not float16) to float64;
//   - utf8 and large_utf8 to large_utf8, binary and large_binary to
//     large_binary;
//   - timestamps of one time zone to the finer unit.
//
// Other differences are an [ErrSchemaConflict] naming the column and both
// files. The schema's metadata is the files' when every file has the
// same, none otherwise. A file's column is converted to the dataset's type as it is read
// (compute.Cast).
//
// # Scans
//
// [Dataset.Scan] plans a [Scan]: projection ([WithColumns], nested fields
// by dotted path), a filter expression of package expr ([WithFilter],
// e.g. expr.Parse("year = 2024 AND amount > 100")), batch size,
// concurrency, readahead (the memory held ahead of the consumer) and
// order. A [Scan] is
// a record source: its Schema and its Records, an iter.Seq2 of records
// and errors, read on demand. Each file's filter is simplified with its
// partition values (expr.Simplify): files for which it becomes false are
// not opened; Parquet row groups whose column statistics rule it out
// are skipped (expr.MayMatch), and the comparisons of columns with
// literals it keeps skip more through bloom filters and the page index
// (parquet.WithPredicates); remaining rows are filtered
// exactly by the expression, before partition columns are filled in. Parquet
// files are opened (their footers read) ahead of their turn on up to the
// concurrency goroutines; their row groups and whole files of the other
// formats are started while their estimated memory fits in the readahead
// ([WithReadahead]), decoded in parallel, at most the concurrency at
// once, and yielded in file order unless [WithUnordered]. Breaking out of the
// loop or cancelling the context stops every goroutine of the scan before
// the loop ends. [Scan.Stats] counts files, row groups and pages
// pruned, rows and bytes read. [Dataset.CountRows] answers from Parquet
// footers (without opening the files when discovery read them) and from
// IPC files' footers and batch metadata when the filter is on partition
// columns only.
//
// A file that fails to read gives a [FileError] naming it, or, with
// [WithSkipCorrupt], is skipped and counted.
//
// # Writing
//
// [Write] writes an alkaid.RecordReader (such as a [Scan]) to a [WriteFS] ([DirFS]
// for a local directory): partitioned by columns in Hive or directory
// layout, files named from a template and cut at a row count, in any of
// the formats ([WithFormat]) with their writers' options. Existing data is an error, or
// overwritten file by file, or deleted partition by partition. Every file
// is written under a hidden temporary name and renamed once all are
// complete, so a write that fails leaves no partial file and the data that
// was there before.
//
// # Options
//
// One option type, [Option], serves [Open], [OpenFiles] and [OpenGlob],
// [Dataset.Scan] and [Dataset.CountRows], and [Write]. Each option's
// documentation says which of these it applies to; given to another call
// it makes that call fail with an [ErrInvalid] error naming both (e.g.
// "dataset: WithPartitionBy applies to Write, not to Scan"), and so does
// an invalid value, naming the option. An option of both discovery and
// writing means the same on each side: [WithFormat] is the format files
// are read or written in, and [WithParquetOptions], [WithIPCOptions],
// [WithCSVOptions] and [WithNDJSONOptions] pass options to the format's
// readers when opening and to its writers when writing.
package dataset
