package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// maxLinkDepth bounds how many symbolic links to directories one path may
// pass through, for file systems whose FileInfo os.SameFile cannot compare.
const maxLinkDepth = 40

// hidden reports whether a file or directory named name is left out of a
// discovered dataset, as Spark and pyarrow leave it out: names starting
// with "." or "_" (_SUCCESS, _metadata, _temporary, .crc files) and names
// ending in ".tmp". A directory name holding "=" is a Hive partition, and
// HiveNull a null partition value: both are kept.
func hidden(name string, dir bool) bool {
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".tmp") {
		return true
	}
	return strings.HasPrefix(name, "_") && !(dir && (strings.Contains(name, "=") || name == HiveNull))
}

// walker lists the files under a directory in lexical order, following
// symbolic links and refusing loops.
type walker struct {
	fsys  fs.FS
	match func(name string) bool // nil: every file
	add   func(name string)      // called with each file, in order
}

// ancestor is a directory enclosing the one being walked: its path, and
// its FileInfo once known (read only when a symbolic link to a directory
// must be compared with it).
type ancestor struct {
	name string
	info fs.FileInfo
}

// walk adds the files under dir (a directory), whose ancestors (dir
// included) are stack, with w.add.
func (w *walker) walk(dir string, stack []ancestor, links int) error {
	ents, err := fs.ReadDir(w.fsys, dir)
	if err != nil {
		return fileErr(dir, err)
	}
	for _, e := range ents {
		name := path.Join(dir, e.Name())
		isDir := e.IsDir()
		var info fs.FileInfo
		if e.Type()&fs.ModeSymlink != 0 {
			info, err = fs.Stat(w.fsys, name)
			if err != nil {
				if errors.Is(err, syscall.ELOOP) {
					err = fmt.Errorf("%w: %v", ErrSymlinkLoop, err)
				}
				return fileErr(name, err)
			}
			isDir = info.IsDir()
		}
		if hidden(e.Name(), isDir) {
			continue
		}
		if !isDir {
			if w.match == nil || w.match(name) {
				w.add(name)
			}
			continue
		}
		depth := links
		if info != nil {
			depth++
			if depth > maxLinkDepth {
				return fileErr(name, fmt.Errorf("%w: more than %d links deep", ErrSymlinkLoop, maxLinkDepth))
			}
			for k := range stack {
				a := &stack[k]
				if a.info == nil {
					if a.info, err = fs.Stat(w.fsys, a.name); err != nil {
						return fileErr(a.name, err)
					}
				}
				if os.SameFile(a.info, info) {
					return fileErr(name, fmt.Errorf("%w: links back to an enclosing directory", ErrSymlinkLoop))
				}
			}
		}
		if err := w.walk(name, append(stack, ancestor{name, info}), depth); err != nil {
			return err
		}
	}
	return nil
}

// listDir calls add with each file of the directory or file root, in
// order, as it finds them (so that they can be probed while the listing
// goes on).
func listDir(fsys fs.FS, root string, match func(string) bool, add func(string)) error {
	root = path.Clean(root)
	info, err := fs.Stat(fsys, root)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			err = fmt.Errorf("%w: %v", ErrSymlinkLoop, err)
		}
		return fileErr(root, err)
	}
	if !info.IsDir() {
		add(root)
		return nil
	}
	w := &walker{fsys: fsys, match: match, add: add}
	return w.walk(root, []ancestor{{root, info}}, 0)
}

// globBase is the directory part of pattern before its first segment
// holding a pattern character.
func globBase(pattern string) string {
	segs := strings.Split(pattern, "/")
	i := 0
	for i < len(segs)-1 && !strings.ContainsAny(segs[i], `*?[\`) {
		i++
	}
	if i == 0 {
		return "."
	}
	return strings.Join(segs[:i], "/")
}

// globMatch matches name against pattern segment by segment with
// path.Match, where a "**" segment matches any number of segments.
func globMatch(pattern, name string) (bool, error) {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(ps, ns []string) (bool, error) {
	for len(ps) > 0 {
		if ps[0] == "**" {
			for k := 0; k <= len(ns); k++ {
				if ok, err := matchSegs(ps[1:], ns[k:]); ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		}
		if len(ns) == 0 {
			return false, nil
		}
		ok, err := path.Match(ps[0], ns[0])
		if !ok || err != nil {
			return false, err
		}
		ps, ns = ps[1:], ns[1:]
	}
	return len(ns) == 0, nil
}

// listGlob checks pattern and returns the directory its partition
// segments are relative to and a lister of the files matching it (see
// listDir).
func listGlob(fsys fs.FS, pattern string) (base string, list func(add func(string)) error, err error) {
	for _, seg := range strings.Split(pattern, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return "", nil, fmt.Errorf("dataset: glob %q: %w: %v", pattern, ErrInvalid, err)
		}
	}
	base = globBase(pattern)
	match := func(name string) bool {
		ok, _ := globMatch(pattern, name)
		return ok
	}
	return base, func(add func(string)) error { return listDir(fsys, base, match, add) }, nil
}
