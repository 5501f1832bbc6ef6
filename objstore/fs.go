package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// FS is the io/fs file system of the objects of a Store under a prefix:
// an object "prefix/a/b.parquet" is the file "a/b.parquet", and a
// prefix "prefix/a/" is the directory "a". It is an fs.ReadDirFS and
// fs.StatFS whose files are [File]s (io.ReaderAt), and a
// dataset.WriteFS. An FS is safe for concurrent use.
//
// An FS remembers the directories it listed, so that opening their
// files costs no request, and the head and tail blocks it read of
// objects; its own writes update what it remembers, others' writes are
// seen by a new FS.
type FS struct {
	store  Store
	prefix string
	sem    chan struct{}

	mu   sync.Mutex
	dirs map[string]map[string]Entry // listed directory -> base name -> entry
	// fresh holds the listings lookup made, for the next ReadDir.
	fresh map[string][]Entry
	meta  map[string]*objMeta // object key -> its cached blocks
	lru   []string            // keys of meta, oldest first
}

// maxMeta bounds how many objects' head and tail blocks an FS keeps.
const maxMeta = 256

// NewFS returns the file system of the objects of store under prefix
// ("" for the whole bucket; a trailing "/" is implied).
func NewFS(store Store, prefix string, opts ...Option) (*FS, error) {
	c, err := newConfig(opts, fsOptions)
	if err != nil {
		return nil, err
	}
	return newFS(store, prefix, c)
}

func newFS(store Store, prefix string, c *config) (*FS, error) {
	prefix = strings.Trim(prefix, "/")
	if prefix != "" && !fs.ValidPath(prefix) {
		return nil, fmt.Errorf("objstore: %w: prefix %q is not a clean slash-separated path", ErrInvalid, prefix)
	}
	if prefix != "" {
		prefix += "/"
	}
	return &FS{store: store, prefix: prefix, sem: make(chan struct{}, c.concurrency),
		dirs: map[string]map[string]Entry{}, fresh: map[string][]Entry{}, meta: map[string]*objMeta{}}, nil
}

// Close closes the store when it is an io.Closer (an S3 closes its idle
// connections). Files open stay readable.
func (f *FS) Close() error {
	if c, ok := f.store.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// String names the FS's location, e.g. "s3://bucket/prefix".
func (f *FS) String() string { return strings.TrimSuffix(f.store.String()+"/"+f.prefix, "/") }

func (f *FS) key(name string) string {
	if name == "." {
		return f.prefix
	}
	return f.prefix + name
}

func (f *FS) dirKey(name string) string {
	if name == "." {
		return f.prefix
	}
	return f.prefix + name + "/"
}

// lookup finds name: in the listing of its directory when that was
// listed, else by listing it as a directory (the listing is kept for the
// ReadDir that usually follows) and, when nothing is under it, with a
// HEAD request.
func (f *FS) lookup(op, name string) (Entry, error) {
	if !fs.ValidPath(name) {
		return Entry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return Entry{Key: f.prefix, Dir: true}, nil
	}
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	f.mu.Lock()
	listed, ok := f.dirs[dir]
	e, found := listed[base]
	f.mu.Unlock()
	if ok && found {
		return e, nil
	}
	ents, err := f.list(name)
	if err != nil {
		return Entry{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	if len(ents) > 0 {
		f.mu.Lock()
		f.fresh[name] = ents
		f.mu.Unlock()
		return Entry{Key: f.dirKey(name), Dir: true}, nil
	}
	e, err = f.store.Stat(context.Background(), f.key(name))
	if err != nil {
		return Entry{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return e, nil
}

// list lists directory name with one listing, remembering it; a
// directory listed before is not listed again.
func (f *FS) list(name string) ([]Entry, error) {
	f.mu.Lock()
	if m, ok := f.dirs[name]; ok {
		ents := make([]Entry, 0, len(m))
		for _, e := range m {
			ents = append(ents, e)
		}
		f.mu.Unlock()
		sortEntries(ents)
		return ents, nil
	}
	ents, ok := f.fresh[name]
	delete(f.fresh, name)
	f.mu.Unlock()
	if !ok {
		var err error
		if ents, err = f.store.List(context.Background(), f.dirKey(name)); err != nil {
			return nil, err
		}
	}
	m := make(map[string]Entry, len(ents))
	for _, e := range ents {
		m[path.Base(e.Key)] = e
	}
	f.mu.Lock()
	f.dirs[name] = m
	f.mu.Unlock()
	return ents, nil
}

// Open opens name: a directory, or a [File] reading the object. Opening
// a file sends no request when its directory was listed.
func (f *FS) Open(name string) (fs.File, error) {
	e, err := f.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if e.Dir {
		return &dir{fs: f, name: name}, nil
	}
	return f.openFile(name, e), nil
}

// Stat describes name.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	e, err := f.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return info{name: path.Base(name), e: e}, nil
}

// ReadDir lists directory name with one listing request (per 1000
// entries) the first time, from what the FS remembers after, in lexical
// order; a directory with no object under it does not exist.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	ents, err := f.list(name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	if len(ents) == 0 && name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		out[i] = fs.FileInfoToDirEntry(info{name: path.Base(e.Key), e: e})
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// sortEntries sorts a listing by key.
func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
}

// forget drops what the FS remembers of name and its directory's
// listing, after a write.
func (f *FS) forget(name string) {
	dir := path.Dir(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	for d := dir; ; d = path.Dir(d) {
		delete(f.dirs, d)
		delete(f.fresh, d)
		if d == "." {
			break
		}
	}
	delete(f.meta, f.key(name))
}

// Create starts writing file name, which appears when the returned
// writer is closed and every part of it stored; a write that fails
// aborts the upload (no object, no incomplete upload), as does the
// writer's Abort method (interface{ Abort() error }).
func (f *FS) Create(name string) (io.WriteCloser, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "create", Path: name, Err: fs.ErrInvalid}
	}
	u, err := f.store.Create(context.Background(), f.key(name))
	if err != nil {
		return nil, &fs.PathError{Op: "create", Path: name, Err: err}
	}
	f.forget(name)
	return &writer{fs: f, name: name, u: u}, nil
}

// Rename copies oldname to newname on the server, then deletes oldname.
func (f *FS) Rename(oldname, newname string) error {
	for _, n := range []string{oldname, newname} {
		if !fs.ValidPath(n) || n == "." {
			return &fs.PathError{Op: "rename", Path: n, Err: fs.ErrInvalid}
		}
	}
	defer f.forget(oldname)
	defer f.forget(newname)
	if err := f.store.Copy(context.Background(), f.key(oldname), f.key(newname)); err != nil {
		return &fs.PathError{Op: "rename", Path: oldname, Err: err}
	}
	if err := f.store.Delete(context.Background(), f.key(oldname)); err != nil {
		return &fs.PathError{Op: "rename", Path: oldname, Err: err}
	}
	return nil
}

// Remove deletes file name.
func (f *FS) Remove(name string) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrInvalid}
	}
	defer f.forget(name)
	if err := f.store.Delete(context.Background(), f.key(name)); err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	return nil
}

// writer is a file being written: Close commits the upload.
type writer struct {
	fs   *FS
	name string
	u    Upload
}

func (w *writer) Write(p []byte) (int, error) {
	n, err := w.u.Write(p)
	if err != nil {
		err = &fs.PathError{Op: "write", Path: w.name, Err: err}
	}
	return n, err
}

func (w *writer) Close() error {
	defer w.fs.forget(w.name)
	if err := w.u.Commit(); err != nil {
		return &fs.PathError{Op: "close", Path: w.name, Err: err}
	}
	return nil
}

// Abort discards what was written instead of closing: the upload is
// aborted, so no object appears and no incomplete upload is left.
func (w *writer) Abort() error {
	defer w.fs.forget(w.name)
	if err := w.u.Abort(); err != nil {
		return &fs.PathError{Op: "abort", Path: w.name, Err: err}
	}
	return nil
}

// info is the fs.FileInfo of an entry.
type info struct {
	name string
	e    Entry
}

func (i info) Name() string { return i.name }
func (i info) Size() int64  { return i.e.Size }
func (i info) Mode() fs.FileMode {
	if i.e.Dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i info) ModTime() time.Time { return i.e.ModTime }
func (i info) IsDir() bool        { return i.e.Dir }
func (i info) Sys() any           { return i.e }

// dir is an open directory.
type dir struct {
	fs   *FS
	name string
	ents []fs.DirEntry
	read bool
}

func (d *dir) Stat() (fs.FileInfo, error) {
	return info{name: path.Base(d.name), e: Entry{Key: d.fs.dirKey(d.name), Dir: true}}, nil
}

func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}

func (d *dir) Close() error { return nil }

// ReadDir lists the directory (see fs.ReadDirFile).
func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		ents, err := d.fs.ReadDir(d.name)
		if err != nil {
			return nil, err
		}
		d.ents, d.read = ents, true
	}
	if n <= 0 {
		out := d.ents
		d.ents = nil
		return out, nil
	}
	if len(d.ents) == 0 {
		return nil, io.EOF
	}
	k := min(n, len(d.ents))
	out := d.ents[:k]
	d.ents = d.ents[k:]
	return out, nil
}
