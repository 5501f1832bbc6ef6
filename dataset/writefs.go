package dataset

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// WriteFS is a file system a dataset is written to: an fs.FS (to find
// existing data) that also creates, renames and removes files. Names are
// slash-separated and valid in the sense of fs.ValidPath.
type WriteFS interface {
	fs.FS
	// Create creates or truncates the file name for writing, making its
	// parent directories.
	Create(name string) (io.WriteCloser, error)
	// Rename renames a file, replacing one of the new name.
	Rename(oldname, newname string) error
	// Remove removes a file.
	Remove(name string) error
}

// DirFS is the WriteFS of the operating system's directory root.
func DirFS(root string) WriteFS { return dirFS{FS: os.DirFS(root), root: root} }

type dirFS struct {
	fs.FS
	root string
}

func (d dirFS) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(d.root, filepath.FromSlash(name)), nil
}

func (d dirFS) Create(name string) (io.WriteCloser, error) {
	p, err := d.path("create", name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return nil, err
	}
	return os.Create(p)
}

func (d dirFS) Rename(oldname, newname string) error {
	o, err := d.path("rename", oldname)
	if err != nil {
		return err
	}
	n, err := d.path("rename", newname)
	if err != nil {
		return err
	}
	return os.Rename(o, n)
}

func (d dirFS) Remove(name string) error {
	p, err := d.path("remove", name)
	if err != nil {
		return err
	}
	return os.Remove(p)
}

// String names the directory.
func (d dirFS) String() string { return fmt.Sprintf("DirFS(%q)", d.root) }

// existingFiles lists the files under dir in fsys, none when dir does not
// exist.
func existingFiles(fsys fs.FS, dir string) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errorsIsNotExist(err) {
				return fs.SkipAll
			}
			return err
		}
		if !e.IsDir() {
			out = append(out, path.Clean(p))
		}
		return nil
	})
	return out, err
}
