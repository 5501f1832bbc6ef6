package integration

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
)

// ReadIPC reads the IPC file or stream at path into a [File] (without
// dictionaries by id), as [ReadIPCAt] reads it.
func ReadIPC(path string, opts ...Option) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	file, err := ReadIPCAt(f, st.Size(), opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file, nil
}

// ReadIPCAt reads the IPC file or stream of size bytes in r into a
// [File] (without dictionaries by id). A file is recognised by its
// magic, Alkaid's or Arrow's, and read through its footer; anything else
// is read as a stream. Arrays are checked with [array.ValidateFull], less
// what [SkipValueChecks] leaves out.
func ReadIPCAt(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	cfg := newReadConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	var head [8]byte
	n, err := r.ReadAt(head[:min(size, int64(len(head)))], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if ipc.DetectMagic(head[:n]) == "" {
		return ReadIPCStream(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<16), opts...)
	}
	fr, err := ipc.NewFileReader(r, size, cfg.ipcOptions()...)
	if err != nil {
		return nil, err
	}
	defer fr.Close()
	file := &File{Schema: fr.Schema()}
	for rec, err := range fr.Records() {
		if err != nil {
			return nil, err
		}
		file.Records = append(file.Records, rec)
	}
	return file, nil
}

// ReadIPCStream reads an IPC stream from r into a [File], checked as
// [ReadIPC] checks it.
func ReadIPCStream(r io.Reader, opts ...Option) (*File, error) {
	cfg := newReadConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	sr, err := ipc.NewStreamReader(r, cfg.ipcOptions()...)
	if err != nil {
		return nil, err
	}
	file := &File{Schema: sr.Schema()}
	for rec, err := range sr.Records() {
		if err != nil {
			return nil, err
		}
		file.Records = append(file.Records, rec)
	}
	return file, nil
}

// WriteIPCFile writes f's schema and records in the IPC file format
// (Alkaid's magic unless opts include [ipc.WithArrowCompat]).
func WriteIPCFile(w io.Writer, f *File, opts ...ipc.Option) error {
	fw, err := ipc.NewFileWriter(w, f.Schema, opts...)
	if err != nil {
		return err
	}
	if err := writeAll(fw, f.Records); err != nil {
		return err
	}
	return fw.Close()
}

// WriteIPCStream writes f's schema and records in the IPC stream format.
func WriteIPCStream(w io.Writer, f *File, opts ...ipc.Option) error {
	sw, err := ipc.NewStreamWriter(w, f.Schema, opts...)
	if err != nil {
		return err
	}
	if err := writeAll(sw, f.Records); err != nil {
		return err
	}
	return sw.Close()
}

func writeAll(w interface{ Write(*alkaid.Record) error }, recs []*alkaid.Record) error {
	for i, rec := range recs {
		if err := w.Write(rec); err != nil {
			return fmt.Errorf("record %d: %w", i, err)
		}
	}
	return nil
}
