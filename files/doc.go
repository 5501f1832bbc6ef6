// Package files opens and creates files of every format this module
// reads and writes — IPC streams, IPC files (either magic), Parquet, CSV
// and NDJSON — as one record source and one record sink.
//
// [Open] finds a file's format by its content ([Detect]: the Parquet and
// IPC magics, then the extension for the text formats) and returns an
// [alkaid.RecordReader] whose Close closes the file; [OpenReaderAt] does
// the same for a file read through an io.ReaderAt (an io/fs file, a
// remote object). [Create] writes a file in the format of its extension
// under a temporary name, renamed into place only once complete;
// [NewWriter] writes a format to an io.Writer. [WithFormat] names a format
// instead, and one option per format ([WithIPCOptions],
// [WithParquetOptions], [WithCSVOptions], [WithNDJSONOptions]) passes that
// format's options through.
//
// Format is the one list of file formats in the module: package dataset
// reads and writes its files in these formats, found by Detect.
package files
