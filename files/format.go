package files

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// Format is a file format records are read from or written as.
type Format int

// The formats. FormatAuto, the zero value, means: find the format of a
// file being read by Detect, of a file being created by its extension.
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

// Extension is the file-name extension written for the format, e.g.
// ".parquet"; "" for FormatAuto and unknown values.
func (f Format) Extension() string {
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

// valid reports whether f is one of the formats (FormatAuto included).
func (f Format) valid() bool { return f >= FormatAuto && f <= FormatNDJSON }

// ErrUnknownFormat is returned (wrapped) by Detect, Open and Create for a
// file of none of the formats. It wraps datatype.ErrNotSupported.
var ErrUnknownFormat = datatype.Refine(datatype.ErrNotSupported, "not a Parquet, IPC, CSV or NDJSON file")

// parquetMagic starts and ends every Parquet file; an encrypted footer
// starts it with "PARE" instead.
var parquetMagic = []byte("PAR1")

// Detect picks the format of a file of size bytes read through ra and
// named name, by its first bytes: Parquet by its leading "PAR1" (or
// "PARE", an encrypted footer), an IPC file by either file magic (ALKAID1
// or ARROW1), an IPC stream by its leading continuation marker. A file
// none of these match is CSV or NDJSON by its extension (.csv, .tsv;
// .json, .jsonl, .ndjson), else an error wrapping ErrUnknownFormat. A
// file named as Parquet or IPC (.parquet, .arrow, .arrows, .ipc, .ipcs,
// .feather) without their magic is an error wrapping datatype.ErrInvalid.
func Detect(ra io.ReaderAt, size int64, name string) (Format, error) {
	head := make([]byte, max(min(size, 8), 0))
	if _, err := ra.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return FormatAuto, fmt.Errorf("files: %s: %w", name, err)
	}
	switch {
	case bytes.HasPrefix(head, parquetMagic), bytes.HasPrefix(head, []byte("PARE")):
		return FormatParquet, nil
	case ipc.DetectMagic(head) != "":
		return FormatIPCFile, nil
	case bytes.HasPrefix(head, []byte{0xff, 0xff, 0xff, 0xff}):
		return FormatIPCStream, nil
	}
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".csv", ".tsv":
		return FormatCSV, nil
	case ".json", ".jsonl", ".ndjson":
		return FormatNDJSON, nil
	case ".parquet", ".arrow", ".arrows", ".ipc", ".ipcs", ".feather":
		return FormatAuto, fmt.Errorf("files: %s: %w: a %s file starting with none of the Parquet and IPC magics", name, datatype.ErrInvalid, ext)
	}
	return FormatAuto, fmt.Errorf("files: %s: %w", name, ErrUnknownFormat)
}

// FormatOf is the format Create writes a file named name in, by its
// extension (see Create); an unknown extension is ErrUnknownFormat.
func FormatOf(name string) (Format, error) {
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".parquet":
		return FormatParquet, nil
	case ".arrow", ".ipc", ".feather":
		return FormatIPCFile, nil
	case ".arrows", ".ipcs":
		return FormatIPCStream, nil
	case ".csv", ".tsv":
		return FormatCSV, nil
	case ".json", ".jsonl", ".ndjson":
		return FormatNDJSON, nil
	}
	return FormatAuto, fmt.Errorf("files: %s: %w: no format has its extension; name one with WithFormat", name, ErrUnknownFormat)
}

// isTSV reports whether name is a tab-separated file (read and written
// as CSV with a tab delimiter).
func isTSV(name string) bool { return strings.EqualFold(path.Ext(name), ".tsv") }
