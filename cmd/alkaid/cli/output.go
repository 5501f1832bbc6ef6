package cli

// How every subcommand writes a file: under a temporary name beside the
// output, renamed into place only when complete, so that a failure (bad
// input, a full disk, a crash) never destroys a file already at the
// output path; and never onto one of its own inputs, which would truncate
// what is still being read.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// partialSuffix names what a failed command keeps of its output.
const partialSuffix = ".partial"

// outFile is an output file being written under a temporary name, or
// to a URL of a registered scheme (see remoteOut).
type outFile struct {
	io.Writer
	tmp  *os.File   // the temporary file, beside path; nil for a URL
	rem  *remoteOut // the output to a URL
	path string     // where it goes on success
	done bool
}

// createOutFile creates a temporary file beside path (symbolic links are
// followed, so the link keeps pointing at the new file), refusing a path
// that is the same file (device and inode) as one of inputs ("-" and ""
// are skipped). The file takes the mode of the file it replaces, else
// 0644. A URL of a registered scheme is written as remoteOut writes it,
// refused when it overlaps one of inputs.
func createOutFile(path string, inputs ...string) (*outFile, error) {
	if schemeOf(path) != "" {
		rem, err := createRemote(path, inputs)
		if err != nil {
			return nil, err
		}
		return &outFile{Writer: rem.w, rem: rem, path: path}, nil
	}
	if err := notAnInput(path, inputs); err != nil {
		return nil, err
	}
	final := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		final = resolved
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(final); err == nil {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		mode = st.Mode().Perm()
	}
	dir, prefix := filepath.Dir(final), tempPrefix(final)
	removeStaleTemps(dir, prefix)
	f, err := os.CreateTemp(dir, prefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &outFile{Writer: f, tmp: f, path: final}, nil
}

// tempPrefix starts the name of every temporary file written for the
// output at path: ".NAME.tmp-PID-RANDOM" beside it, PID being the
// writing process.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// removeStaleTemps removes the temporary files of an earlier write of the
// same output (names starting with prefix in dir) whose process is gone:
// a command killed (kill -9, a crash) leaves its temporary file behind,
// and the next write of that output cleans it up. Files of a process that
// still runs (another write of the same output) are left alone, as is
// anything not named as this command names them; failures are ignored
// (the file is left, as before).
func removeStaleTemps(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pidText, random, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || random == "" || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// notAnInput refuses an output that is one of the inputs, however spelled
// (another path, a hard link, a symbolic link).
func notAnInput(out string, inputs []string) error {
	if out == "-" {
		return nil
	}
	ost, err := os.Stat(out)
	if err != nil {
		return nil // not there yet: it cannot be an input
	}
	for _, in := range inputs {
		if in == "-" || in == "" {
			continue
		}
		if ist, err := os.Stat(in); err == nil && os.SameFile(ist, ost) {
			return usagef("output %s is the same file as input %s: refusing to overwrite what is being read", out, in)
		}
	}
	return nil
}

// commit syncs and closes the temporary file and renames it into place.
func (f *outFile) commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if f.rem != nil {
		return f.rem.commit()
	}
	err := f.tmp.Sync()
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("%s: %w", f.path, err)
	}
	return nil
}

// fail closes the temporary file after cause and returns cause with what
// became of the output: with keep (it holds something a reader can
// recover, such as complete record batches) it is kept as path.partial,
// else removed; a file already at path is left as it was.
func (f *outFile) fail(cause error, keep bool) error {
	if f.done {
		return cause
	}
	f.done = true
	if f.rem != nil {
		return f.rem.fail(cause)
	}
	f.tmp.Close()
	if keep {
		partial := f.path + partialSuffix
		if err := os.Rename(f.tmp.Name(), partial); err == nil {
			return fmt.Errorf("%w (what was written is kept in %s; %s is unchanged)", cause, partial, f.path)
		}
		return fmt.Errorf("%w (what was written is kept in %s; %s is unchanged)", cause, f.tmp.Name(), f.path)
	}
	if err := os.Remove(f.tmp.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return errors.Join(cause, err)
	}
	return cause
}

// completeDespite reports whether the output of an input that stopped
// with readErr goes in place: no error, or a file without footer (its
// writer died) read up to its last complete record batch, which is what
// can be had of it (the command says so and exits 1). After other errors
// the output is kept beside the output path.
func completeDespite(in *input, readErr error) bool {
	return readErr == nil || in.salvaged()
}

// keep finishes the output (so that what it holds is complete and valid)
// and keeps it beside the output path after cause, leaving a file already
// at the output path as it was. It returns cause, saying where.
func (o *output) keep(cause error) error {
	if o.f == nil {
		return errors.Join(cause, o.close())
	}
	err := o.w.Close()
	if ferr := o.buf.Flush(); err == nil {
		err = ferr
	}
	return o.f.fail(errors.Join(cause, err), true)
}

// ipcExtensions are the output extensions of IPC files and streams.
var ipcExtensions = []string{".ipc", ".arrow", ".feather", ".ipcs", ".arrows"}

// checkOutExt is the one check of an output path's extension, made by
// every command writing IPC or Parquet (convert, import, gen): the
// extension must name what is written, so that no IPC lands in a file
// named .csv or .parquet. Allowed are the IPC extensions, .parquet when
// Parquet is written (-to parquet may write any name but a foreign
// format's), no extension, and "-"; any other extension only with an
// explicit -to stream or -to file. Text extensions point to export.
func checkOutExt(path string, o *outFlags) error {
	ext := strings.ToLower(filepath.Ext(path))
	if path == "-" || ext == "" {
		return nil
	}
	if slices.Contains(ipcExtensions, ext) {
		if o.to == "parquet" {
			return usagef("%s: -to parquet does not write %s files: it would put Parquet into one; drop -to or name OUT .parquet", path, ext)
		}
		return nil
	}
	if ext == ".parquet" {
		if o.wantsParquet(path) {
			return nil
		}
		return usagef("%s: -to %s does not write Parquet and would write IPC into a .parquet file; drop -to or name OUT otherwise", path, o.to)
	}
	switch ext {
	case ".csv", ".tsv", ".txt", ".json", ".ndjson", ".jsonl":
		return usagef("%s: this command does not write %s files (it writes IPC and Parquet); use \"alkaid export\" to write CSV or newline-delimited JSON", path, ext)
	}
	if o.to == "" {
		return usagef("%s: this command does not write %s files; name OUT with one of %s or .parquet (or no extension), or say the form with -to", path, ext, strings.Join(ipcExtensions, " "))
	}
	return nil
}
