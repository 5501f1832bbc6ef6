package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/alkaid-go/alkaid/ipc"
)

// Format is a file format a dataset file is read in or written as.
type Format int

// The formats. FormatAuto, the default, picks each file's format by its
// content: Parquet by its leading "PAR1", an IPC file by either file magic
// (ALKAID1 or ARROW1), an IPC stream by its leading continuation marker;
// a file none of these match is CSV or NDJSON by its extension (.csv;
// .tsv; .json, .jsonl, .ndjson), and otherwise not part of the dataset.
const (
	FormatAuto Format = iota
	FormatParquet
	FormatIPCFile
	FormatIPCStream
	FormatCSV
	FormatNDJSON
)

var formatNames = [...]string{"auto", "parquet", "ipc-file", "ipc-stream", "csv", "ndjson"}

// String is the format's name, e.g. "parquet".
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// extension is the file-name extension written for the format.
func (f Format) extension() string {
	switch f {
	case FormatParquet:
		return ".parquet"
	case FormatIPCFile:
		return ".arrow"
	case FormatIPCStream:
		return ".arrows"
	case FormatCSV:
		return ".csv"
	case FormatNDJSON:
		return ".ndjson"
	}
	return ""
}

// File is what a dataset reads a file through: an fs.File that also reads
// at an offset, so that Parquet footers and column chunks and IPC record
// batches are fetched by range. *os.File (os.DirFS) and the files of
// testing/fstest.MapFS satisfy it; a file system over another store plugs
// in by returning such files from Open.
type File interface {
	fs.File
	io.ReaderAt
}

// openFile opens name in fsys as a File with its size.
func openFile(fsys fs.FS, name string) (File, int64, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, 0, err
	}
	rf, ok := f.(File)
	if !ok {
		f.Close()
		return nil, 0, fmt.Errorf("%w: the file system's files do not implement io.ReaderAt", ErrNotSupported)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return rf, st.Size(), nil
}

// sniff picks the format of the file at name from its first bytes, then
// its extension; ok is false when it is none of the formats.
func sniff(f io.ReaderAt, size int64, name string) (Format, bool, error) {
	head := make([]byte, min(size, 8))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return 0, false, err
	}
	switch {
	case bytes.HasPrefix(head, []byte("PAR1")):
		return FormatParquet, true, nil
	case ipc.DetectMagic(head) != "":
		return FormatIPCFile, true, nil
	case bytes.HasPrefix(head, []byte{0xff, 0xff, 0xff, 0xff}):
		return FormatIPCStream, true, nil
	}
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".csv":
		return FormatCSV, true, nil
	case ".json", ".jsonl", ".ndjson":
		return FormatNDJSON, true, nil
	case ".parquet", ".arrow", ".arrows", ".ipc", ".ipcs", ".feather":
		return 0, false, fmt.Errorf("%w: a %s file starting with none of the Parquet and IPC magics", ErrInvalid, ext)
	}
	return 0, false, nil
}
