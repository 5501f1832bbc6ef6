package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

// warnFile prints the file reader's warnings (faults it read past) to
// stderr, one line each, prefixed with the command and the file's name.
func warnFile(fr *ipc.FileReader, cmd, name string) {
	for _, w := range fr.Warnings() {
		fmt.Fprintf(cmdStderr, "alkaid %s: warning: %s: %v\n", cmd, name, w)
	}
}

// openSchema reads the schema of path: through the footer for a file
// whose footer reads (warnings go to stderr; with strict a malformed
// leading schema message is an error), from the first message for a
// stream or a file whose footer is unreadable; a Parquet file's from its
// footer. A file on stdin is copied to disk to reach its footer.
func openSchema(cmd, path string, strict bool) (*alkaid.Schema, []dictField, error) {
	var opts []ipc.Option
	if strict {
		opts = append(opts, ipc.WithStrictSchemaMessage())
	}
	var (
		f    fileInput
		size int64
		head []byte
		name = path
	)
	if path == "-" {
		name = "stdin"
		sin, err := readStdin()
		if err != nil {
			return nil, nil, err
		}
		defer sin.Close()
		if sin.file == nil {
			return readSchemaFrom(sin.stream)
		}
		f, size, head = sin.file, sin.size, sin.head
	} else {
		file, n, closer, err := openPathFile(path)
		if err != nil {
			return nil, nil, err
		}
		defer closer.Close()
		head = make([]byte, 8)
		k, _ := file.ReadAt(head, 0)
		f, size, head = file, n, head[:k]
	}
	if isParquetHead(head) {
		pf, err := parquet.NewFile(f, size, pqRead.options()...)
		if err != nil {
			return nil, nil, err
		}
		return pf.Schema(), nil, nil
	}
	if err := headlessParquet(name, f, size, head); err != nil {
		return nil, nil, err
	}
	if ipc.DetectMagic(head) != "" {
		// Through the footer, as every file reader does: some writers
		// start the file's stream part at the first batch (Arrow JS) or
		// write a malformed leading schema message.
		fr, footerErr := ipc.NewFileReader(f, size, opts...)
		if footerErr == nil {
			warnFile(fr, cmd, name)
			return fr.Schema(), fr.DictionaryFields(), nil
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, nil, err
		}
		s, dicts, err := readSchemaFrom(bufio.NewReader(f))
		if err != nil {
			return nil, nil, fmt.Errorf("footer unreadable (%v) and the first message: %w", footerErr, err)
		}
		fmt.Fprintf(cmdStderr, "alkaid %s: warning: %s: footer unreadable (%v); the schema is the leading message's\n", cmd, name, footerErr)
		return s, dicts, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	return readSchemaFrom(bufio.NewReader(f))
}
