package cli

// Arguments naming a location of a file system registered with WithFS
// ("s3://bucket/prefix/file.parquet", "s3://bucket/prefix",
// "s3://bucket/prefix/*/part-*.parquet").

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strings"

	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/datatype"
)

// schemeOf returns the registered scheme arg starts with ("s3" for
// "s3://..."), or "".
func schemeOf(arg string) string {
	i := strings.Index(arg, "://")
	if i <= 0 {
		return ""
	}
	if _, ok := schemes[arg[:i]]; !ok {
		return ""
	}
	return arg[:i]
}

// remote is a URL argument split into the file system of its directory
// part and the name (or pattern) under it.
type remote struct {
	url     string
	fsys    fs.FS
	name    string // "." for the URL itself
	pattern bool   // name is a glob pattern
	dir     bool   // name is a directory (a prefix)
	shared  bool   // fsys is another remote's, closed with it
}

// openRemote opens the file system of url's directory part: the URL up
// to its first segment holding a pattern character, or up to its last
// segment (a file or a prefix, told apart by Stat).
// A URL under a prefix already opened (a dataset's file, after the
// dataset) is opened in that prefix's file system, which knows its
// listings and the footers it read: it costs no request again.
func openRemote(url string) (*remote, error) {
	if r, ok := remotes[url]; ok {
		return r, nil
	}
	r, err := openUnder(url)
	if r == nil && err == nil {
		r, err = openRemoteOnce(url)
	}
	if err != nil {
		return nil, err
	}
	if remotes != nil {
		remotes[url] = r
	}
	return r, nil
}

// openUnder opens url in the file system of the longest prefix opened
// that holds it; nil and no error when none does.
func openUnder(url string) (*remote, error) {
	var under *remote
	for u, r := range remotes {
		if r.dir && strings.HasPrefix(url, strings.TrimSuffix(u, "/")+"/") && (under == nil || len(u) > len(under.url)) {
			under = r
		}
	}
	if under == nil {
		return nil, nil
	}
	rest := strings.Trim(url[len(strings.TrimSuffix(under.url, "/")):], "/")
	r := &remote{url: url, fsys: under.fsys, name: path.Join(under.name, rest), shared: true}
	if strings.ContainsAny(rest, globChars) {
		r.pattern = true
		return r, nil
	}
	st, err := fs.Stat(r.fsys, r.name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	r.dir = st.IsDir()
	return r, nil
}

func openRemoteOnce(url string) (*remote, error) {
	scheme := schemeOf(url)
	open := schemes[scheme]
	rest := strings.TrimSuffix(url[len(scheme)+3:], "/")
	segs := strings.Split(rest, "/")
	fail := func(err error) (*remote, error) { return nil, fmt.Errorf("%s: %w", url, err) }
	if len(segs) == 1 { // the whole bucket
		fsys, err := open(url)
		if err != nil {
			return fail(err)
		}
		return &remote{url: url, fsys: fsys, name: ".", dir: true}, nil
	}
	i := 1
	for i < len(segs)-1 && !strings.ContainsAny(segs[i], globChars+`\`) {
		i++
	}
	base := scheme + "://" + strings.Join(segs[:i], "/")
	fsys, err := open(base)
	if err != nil {
		return fail(err)
	}
	r := &remote{url: url, fsys: fsys, name: strings.Join(segs[i:], "/")}
	if strings.ContainsAny(r.name, globChars) {
		r.pattern = true
		return r, nil
	}
	st, err := fs.Stat(fsys, r.name)
	if err != nil {
		if c, ok := fsys.(io.Closer); ok {
			c.Close()
		}
		return fail(err)
	}
	r.dir = st.IsDir()
	return r, nil
}

// openRemoteFile opens the file at url for reading at offsets.
func openRemoteFile(url string) (fileInput, int64, io.Closer, error) {
	r, err := openRemote(url)
	if err != nil {
		return nil, 0, nil, err
	}
	if r.dir || r.pattern {
		return nil, 0, nil, fmt.Errorf("%s: is a directory or pattern, not a file", url)
	}
	f, err := r.fsys.Open(r.name)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s: %w", url, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, fmt.Errorf("%s: %w", url, err)
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		f.Close()
		return nil, 0, nil, fmt.Errorf("%s: %w: the %s file system's files do not read at offsets (io.ReaderAt)",
			url, datatype.ErrNotSupported, schemeOf(url))
	}
	return io.NewSectionReader(ra, 0, st.Size()), st.Size(), f, nil
}

// isRemoteDataset reports whether url names a prefix or a pattern.
func isRemoteDataset(url string) bool {
	r, err := openRemote(url)
	return err == nil && (r.dir || r.pattern)
}

// joinRemote joins a dataset's file name to the URL of its root.
func joinRemote(root, name string) string {
	return strings.TrimSuffix(root, "/") + "/" + path.Clean(name)
}

// remoteOverlaps reports whether one of the URLs a and b (a pattern
// taken up to its first segment with a pattern character) lies within
// the other.
func remoteOverlaps(a, b string) bool {
	if schemeOf(a) == "" || schemeOf(b) == "" {
		return false
	}
	clean := func(u string) string {
		if i := strings.IndexAny(u, globChars); i >= 0 {
			u = u[:i]
			u = u[:strings.LastIndexByte(u, '/')+1]
		}
		return strings.TrimSuffix(u, "/") + "/"
	}
	a, b = clean(a), clean(b)
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// openPathFile opens the file at path, a local path or a URL of a
// registered scheme, for reading at offsets.
func openPathFile(path string) (fileInput, int64, io.Closer, error) {
	if schemeOf(path) != "" {
		return openRemoteFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return f, st.Size(), f, nil
}

// remoteOut is a file being written to a URL of a registered scheme
// whose file system is a dataset.WriteFS: under a temporary name beside
// it (".NAME.tmp-PID-RANDOM", which datasets leave out), renamed into
// place once complete. A failed write leaves nothing: the temporary file
// is aborted when its writer can abort (an object store's upload then
// never becomes an object), else closed and removed.
type remoteOut struct {
	url   string
	fsys  dataset.WriteFS
	name  string // the file's name in fsys
	tmp   string // the name written
	w     io.WriteCloser
	close func() // closes fsys when it is an io.Closer
}

// aborter is a writer that can discard what was written.
type aborter interface{ Abort() error }

// createRemote starts writing the file at url, refusing a URL that lies
// within one of the inputs or holds one.
func createRemote(url string, inputs []string) (*remoteOut, error) {
	for _, in := range inputs {
		if remoteOverlaps(in, url) {
			return nil, usagef("output %s overlaps input %s: refusing to write where it reads", url, in)
		}
	}
	scheme := schemeOf(url)
	i := strings.LastIndexByte(url, '/')
	dir, name := url[:i], url[i+1:]
	if i < len(scheme)+3 || name == "" || name == "." || name == ".." || strings.ContainsAny(name, globChars) {
		return nil, usagef("%s: not the URL of a file to write (%s://BUCKET/PATH/NAME)", url, scheme)
	}
	fsys, err := schemes[scheme](dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	r := &remoteOut{url: url, name: name, close: func() {}}
	if c, ok := fsys.(io.Closer); ok {
		r.close = func() { c.Close() }
	}
	var ok bool
	if r.fsys, ok = fsys.(dataset.WriteFS); !ok {
		r.close()
		return nil, fmt.Errorf("%s: %w: the %s file system cannot be written (no dataset.WriteFS)", url, datatype.ErrNotSupported, scheme)
	}
	r.tmp = fmt.Sprintf("%s%d-%d", tempPrefix(name), os.Getpid(), rand.Uint32())
	if r.w, err = r.fsys.Create(r.tmp); err != nil {
		r.close()
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	return r, nil
}

// commit completes the temporary file and renames it into place.
func (r *remoteOut) commit() error {
	defer r.close()
	err := r.w.Close()
	if err == nil {
		err = r.fsys.Rename(r.tmp, r.name)
	}
	if err != nil {
		r.fsys.Remove(r.tmp)
		return fmt.Errorf("%s: %w", r.url, err)
	}
	return nil
}

// fail discards the temporary file after cause, which it returns (with
// a failure to clean up, if any).
func (r *remoteOut) fail(cause error) error {
	defer r.close()
	if a, ok := r.w.(aborter); ok {
		if err := a.Abort(); err != nil {
			return errors.Join(cause, fmt.Errorf("%s: %w", r.url, err))
		}
		return cause
	}
	r.w.Close()
	if err := r.fsys.Remove(r.tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return errors.Join(cause, fmt.Errorf("%s: %w", r.url, err))
	}
	return cause
}
