package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
)

// maxStdinSpool bounds what a file on stdin may take on disk: a pipe
// cannot be read backwards, so a file there (an IPC file, a Parquet file:
// their footers are at their ends) is copied to a temporary file and read
// from there, in the memory reading it by path takes. A variable so that
// tests can lower it.
var maxStdinSpool int64 = 64 << 30

// stdinInput is stdin, looked at once by every command: a file (it starts
// with an IPC file magic or PAR1) is in file, copied to disk; anything
// else is a stream, read from stream without being copied.
type stdinInput struct {
	file   *spooled
	size   int64         // the file's bytes
	head   []byte        // the file's first bytes (up to 8)
	stream *bufio.Reader // stdin when it is not a file
}

// readStdin looks at stdin's first bytes and copies a file to disk.
func readStdin() (*stdinInput, error) {
	br := bufio.NewReaderSize(cmdStdin, 1<<20)
	head, _ := br.Peek(8)
	if f := headFormat(head); f != files.FormatIPCFile && f != files.FormatParquet {
		return &stdinInput{stream: br}, nil
	}
	head = append([]byte(nil), head...)
	f, size, err := spool(br, maxStdinSpool)
	if err != nil {
		return nil, err
	}
	return &stdinInput{file: f, size: size, head: head}, nil
}

// Close removes the copy of a file.
func (s *stdinInput) Close() error {
	if s.file != nil {
		return s.file.Close()
	}
	return nil
}

// spooled is a temporary file removed when closed (at once where the
// system allows removing an open file, so that nothing is left behind
// even when the process is killed).
type spooled struct {
	*os.File
	removed bool
}

func (s *spooled) Close() error {
	err := s.File.Close()
	if !s.removed {
		os.Remove(s.Name())
	}
	return err
}

// spool copies r to a temporary file (in $TMPDIR) up to limit bytes; a
// longer input is an error wrapping ErrLimit, its copy removed.
func spool(r io.Reader, limit int64) (*spooled, int64, error) {
	f, err := os.CreateTemp("", "alkaid-stdin-*")
	if err != nil {
		return nil, 0, fmt.Errorf("stdin: a file on stdin is copied to a temporary file to reach its footer: %w", err)
	}
	s := &spooled{File: f}
	s.removed = os.Remove(f.Name()) == nil
	n, err := io.Copy(f, io.LimitReader(r, limit+1))
	if err == nil && n > limit {
		err = fmt.Errorf("stdin: %w: a file on stdin is copied to a temporary file to reach its footer, and this one is over %d bytes; give its path instead", datatype.ErrLimit, limit)
	} else if err != nil {
		err = fmt.Errorf("stdin: copying a file on stdin to a temporary file to reach its footer: %w", err)
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		s.Close()
		return nil, 0, err
	}
	return s, n, nil
}
