package dataset

import (
	"fmt"
	"io"
	"io/fs"
)

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
