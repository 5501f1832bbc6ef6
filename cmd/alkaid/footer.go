package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

// fileFooter is what schema and info read of a file through its footer,
// as every file reader does: some writers start the file's stream part at
// the first batch (Arrow JS) or write a malformed leading schema message,
// so the footer, not the first message, is where a file's schema is.
type fileFooter struct {
	reader  *ipc.FileReader
	version int         // metadata version (1 = V1, …, 5 = V5)
	fields  int         // top-level fields
	dicts   []dictField // dictionary-encoded fields, depth first
	// firstBlock is the offset of the first dictionary or record batch
	// block, or of the footer when the file has none: where the messages
	// the footer indexes start.
	firstBlock int64
	// footerStart is the offset of the footer: the file's messages end
	// before it.
	footerStart int64
}

// readFileFooter opens f (of size bytes, starting with magic) through its
// footer. The file's tail (footer length, footer, magic) is read once and
// both ipc.NewFileReader, which verifies it, and this function read that
// copy: what is looked at here is what was verified, even if the file
// changes meanwhile.
func readFileFooter(f io.ReaderAt, size int64, magic string, opts ...ipc.Option) (*fileFooter, error) {
	tail := int64(len(magic) + 4)
	var lenBuf [4]byte
	if size < 8+tail {
		return nil, fmt.Errorf("ipc: %w: file of %d bytes is too short for a footer", ipc.ErrInvalid, size)
	}
	if _, err := f.ReadAt(lenBuf[:], size-tail); err != nil {
		return nil, err
	}
	n := int64(int32(binary.LittleEndian.Uint32(lenBuf[:])))
	if n <= 0 || n > size-8-tail {
		// Let the reader say what is wrong, in its words.
		_, err := ipc.NewFileReader(f, size, opts...)
		if err == nil {
			err = fmt.Errorf("ipc: %w: footer length %d out of range", ipc.ErrInvalid, n)
		}
		return nil, err
	}
	start := size - tail - n
	pinned := make([]byte, size-start)
	if _, err := f.ReadAt(pinned, start); err != nil {
		return nil, err
	}
	fr, err := ipc.NewFileReader(&pinnedTail{ReaderAt: f, off: start, tail: pinned}, size, opts...)
	if err != nil {
		return nil, err
	}
	return &fileFooter{reader: fr, version: fr.Version(), fields: fr.Schema().NumFields(), dicts: fr.DictionaryFields(),
		firstBlock: fr.DataOffset(), footerStart: fr.FooterOffset()}, nil
}

// pinnedTail reads bytes from off on from tail, the rest from ReaderAt.
type pinnedTail struct {
	io.ReaderAt
	off  int64
	tail []byte
}

// ReadAt implements io.ReaderAt.
func (p *pinnedTail) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	if off < p.off {
		head := b[:min(int64(len(b)), p.off-off)]
		m, err := p.ReaderAt.ReadAt(head, off)
		if m < len(head) || len(head) == len(b) {
			return m, err
		}
		n, off = m, p.off
	}
	if off-p.off >= int64(len(p.tail)) {
		return n, io.EOF
	}
	m := copy(b[n:], p.tail[off-p.off:])
	if n+m < len(b) {
		return n + m, io.EOF
	}
	return n + m, nil
}

// warn prints the reader's warnings (faults it read past) to stderr, one
// line each, prefixed with the command and the file's name.
func (ff *fileFooter) warn(cmd, name string) {
	for _, w := range ff.reader.Warnings() {
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
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer file.Close()
		st, err := file.Stat()
		if err != nil {
			return nil, nil, err
		}
		head = make([]byte, 8)
		n, _ := io.ReadFull(file, head)
		f, size, head = file, st.Size(), head[:n]
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
	magic := ipc.DetectMagic(head)
	if magic != "" {
		ff, footerErr := readFileFooter(f, size, magic, opts...)
		if footerErr == nil {
			ff.warn(cmd, name)
			return ff.reader.Schema(), ff.dicts, nil
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
