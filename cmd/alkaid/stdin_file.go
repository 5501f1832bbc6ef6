package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// maxStdinFile is how much of an IPC file on stdin is held in memory to
// reach its footer: a pipe cannot be read backwards, so a file there is
// buffered whole (a file's batches are read in full by the commands
// anyway). A longer one is read as the stream it holds, as before.
// A variable so that tests can lower it.
var maxStdinFile int64 = 1 << 30

// stdinFile is stdin that starts with a file magic: in memory (whole)
// when it is at most maxStdinFile bytes, else a stream of all its bytes.
type stdinFile struct {
	whole []byte    // the whole input, or nil when it was too long
	rest  io.Reader // every byte of the input (from the magic) when whole is nil
}

// readStdinFile reads br, which starts with a file magic, into memory up
// to maxStdinFile bytes.
func readStdinFile(br *bufio.Reader) (*stdinFile, error) {
	raw, err := io.ReadAll(io.LimitReader(br, maxStdinFile+1))
	if err != nil {
		return nil, fmt.Errorf("stdin: %w", err)
	}
	if int64(len(raw)) <= maxStdinFile {
		return &stdinFile{whole: raw}, nil
	}
	return &stdinFile{rest: io.MultiReader(bytes.NewReader(raw), br)}, nil
}

// tooLong says why a file on stdin is read as a stream.
func (s *stdinFile) tooLong() error {
	return fmt.Errorf("a file on stdin is held in memory to reach its footer and this one is over %d bytes: read as a stream (give its path to read it through the footer)", maxStdinFile)
}
