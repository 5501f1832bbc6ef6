package flight

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/ipc"
)

// A flight's path is at most maxNameLen bytes in at most maxNameDepth
// elements: a DoPut makes the directories of its path, and a client must
// not be able to make the server create thousands.
const (
	maxNameLen   = 1024
	maxNameDepth = 32
)

// flightName is the file of the directory a PATH descriptor names: its
// elements joined with "/" and cleaned as an absolute path, then taken
// relative to the directory. An absolute path (Arrow's integration
// clients name flights by their JSON file's path) names a file under the
// directory, and ".." never leads out of it.
func flightName(d *FlightDescriptor) (string, error) {
	if d == nil || d.Type != DescriptorPath || len(d.Path) == 0 {
		return "", status.Error(codes.InvalidArgument, "flight: expected a PATH descriptor")
	}
	name := strings.TrimPrefix(path.Clean("/"+strings.Join(d.Path, "/")), "/")
	switch depth := strings.Count(name, "/") + 1; {
	case name == "":
		return "", status.Error(codes.InvalidArgument, "flight: an empty path")
	case len(name) > maxNameLen || depth > maxNameDepth:
		return "", status.Errorf(codes.InvalidArgument, "flight: path %s has %d bytes in %d elements; at most %d bytes in %d are served", echo(name), len(name), depth, maxNameLen, maxNameDepth)
	}
	return name, nil
}

// storedName is the file an upload to name is stored in, and the file
// read for name: name itself when it ends in a served extension, name
// with .ipcs added otherwise.
func storedName(name string) string {
	if kindOf(name) == "" {
		return name + ".ipcs"
	}
	return name
}

// DoPut stores an upload as a new IPC stream file (see [WithWritable]),
// named by the descriptor's path with .ipcs added when it does not end
// in .ipcs or .arrows (the directories of the path are made as needed,
// inside the served one). Each message that carries app metadata is
// acknowledged with a PutResult carrying it, once its batch is written
// (messages without are not: a client that reads results only at the
// end is not held up by thousands of them); each batch's app metadata is
// stored with it, for DoGet to send again.
// GetFlightInfo of the same descriptor describes the stored file.
func (s *DirService) DoPut(stream DoPutServer) error {
	if !s.writable {
		return status.Error(codes.PermissionDenied, "flight: this directory is served read-only")
	}
	rr, err := NewRecordReader(stream, s.read...)
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "%v", err)
	}
	name, err := flightName(rr.Descriptor())
	if err != nil {
		return err
	}
	name = storedName(name)
	if !fs.ValidPath(name) || kindOf(name) != "stream" {
		return status.Errorf(codes.InvalidArgument, "flight: cannot store %s (a stream format file)", echo(name))
	}
	if _, err := s.root.Lstat(filepath.FromSlash(name)); err == nil {
		return status.Errorf(codes.AlreadyExists, "flight: %s exists", echo(name))
	}
	tmp := name + ".part"
	f, err := s.root.OpenFile(filepath.FromSlash(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		// the directories of the path, made inside the served one
		if err = s.root.MkdirAll(filepath.FromSlash(path.Dir(name)), 0o755); err == nil {
			f, err = s.root.OpenFile(filepath.FromSlash(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		}
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return status.Errorf(codes.AlreadyExists, "flight: %s is being stored", echo(name))
	case errors.Is(err, fs.ErrNotExist):
		return status.Errorf(codes.NotFound, "flight: cannot store %s: no such directory", echo(name))
	case err != nil:
		return status.Errorf(codes.InvalidArgument, "flight: cannot store %s", echo(name))
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			s.root.Remove(filepath.FromSlash(tmp))
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := ipc.NewStreamWriter(bw, rr.Schema(), s.write...)
	if err != nil {
		return status.Errorf(codes.Internal, "%v", err)
	}
	answer := func(app []byte) error {
		if app == nil {
			return nil
		}
		return stream.Send(&PutResult{AppMetadata: app})
	}
	for rec, err := range rr.Records() {
		if err != nil {
			return status.Errorf(codes.InvalidArgument, "%v", err)
		}
		for _, app := range rr.MetadataMessages() {
			if err := answer(app); err != nil {
				return err
			}
		}
		app := rr.AppMetadata()
		var meta map[string]string
		if app != nil {
			meta = map[string]string{appMetadataKey: string(app)}
		}
		if err := w.WriteWithMetadata(rec, meta); err != nil {
			return status.Errorf(codes.Internal, "%v", err)
		}
		if err := answer(app); err != nil {
			return err
		}
	}
	for _, app := range rr.MetadataMessages() {
		if err := answer(app); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return status.Errorf(codes.Internal, "%v", err)
	}
	if err := bw.Flush(); err != nil {
		return status.Errorf(codes.Internal, "%v", err)
	}
	if err := f.Close(); err != nil {
		return status.Errorf(codes.Internal, "%v", err)
	}
	// A hard link is made only where no entry of that name exists (a
	// file, a directory, or a symbolic link leading anywhere), so
	// nothing is replaced, even by a race with another upload.
	if err := s.root.Link(filepath.FromSlash(tmp), filepath.FromSlash(name)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return status.Errorf(codes.AlreadyExists, "flight: %s exists", echo(name))
		}
		return status.Errorf(codes.Internal, "flight: store %s: %v", echo(name), err)
	}
	s.root.Remove(filepath.FromSlash(tmp))
	ok = true
	return nil
}
