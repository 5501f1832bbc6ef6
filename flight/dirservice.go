package flight

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
)

// DirService serves the data files of a directory, found at any depth:
// IPC files and streams and Parquet files, told by their content, and
// CSV and NDJSON files, told by their extension (see files.Detect). A
// flight is named by a PATH descriptor: the file's path relative to the
// directory, as one element with forward slashes or as several (a
// leading "/" is dropped, and a name of no file and without an IPC or
// Parquet extension means NAME.ipcs, as DoPut stores it); its ticket is
// that path. Uploads being stored (NAME.part) are not served. Files are
// read one record batch at a time as the client takes them, within the
// service's memory bounds ([WithMemory]), so a slow client holds the
// server to a batch or two (gRPC flow control blocks
// the sender); a Parquet file is read one row group at a time, the
// memory decoding it takes charged to the bounds too. Paths
// never leave the directory (os.Root), and a link leading out of it is
// answered as a missing file.
//
// A directory is served as a dataset (package dataset): its data files
// (Parquet, IPC, CSV, NDJSON) at any depth, under Hive partition
// directories (year=2024/…), read as one table. A PATH descriptor naming
// the directory gives one flight: the unified schema, one endpoint per
// file (partition columns included in its records), the total records
// when every file's footer states them, so that a client fetches the
// files in parallel ([Fetch]). ListFlights lists the top-level
// directories that hold data files as datasets, besides every file.
type DirService struct {
	BaseService
	root     *os.Root // nil for NewFSService's
	fsys     fs.FS    // the files served: root's, or NewFSService's
	writable bool
	read     []ipc.Option
	write    []ipc.Option
	mem      budget // decoded batches and Parquet decoding of DoGet calls
	batchMax int64  // the largest batch one call decodes
	locs     []*Location
	datasets datasetCache // the datasets described last, for DoGet
}

// NewDirService serves dir.
func NewDirService(dir string, opts ...Option) (*DirService, error) {
	s := &DirService{mem: budget{total: DefaultDirMemory}, batchMax: DefaultDirBatchMemory}
	if err := (&config{role: forDir, dir: s}).apply(opts); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("flight: serve %s: %w", dir, err)
	}
	s.root, s.fsys = root, root.FS()
	return s, nil
}

// NewFSService serves the files of fsys as NewDirService serves a
// directory's, read-only (WithWritable is an error): a file system over
// an object store's bucket, say, whose files must implement io.ReaderAt
// (as dataset.File says). Several servers serving one bucket share its
// data: list each other's URIs as locations (WithLocations), or let the
// client spread the endpoints over them.
func NewFSService(fsys fs.FS, opts ...Option) (*DirService, error) {
	if fsys == nil {
		return nil, fmt.Errorf("flight: NewFSService: %w: nil file system", ipc.ErrInvalid)
	}
	s := &DirService{fsys: fsys, mem: budget{total: DefaultDirMemory}, batchMax: DefaultDirBatchMemory}
	if err := (&config{role: forDir, dir: s}).apply(opts); err != nil {
		return nil, err
	}
	if s.writable {
		return nil, fmt.Errorf("flight: NewFSService: WithWritable: %w: a file system is served read-only", ipc.ErrInvalid)
	}
	return s, nil
}

// Close releases the directory (nothing for NewFSService's).
func (s *DirService) Close() error {
	if s.root == nil {
		return nil
	}
	return s.root.Close()
}

// kindOf is what the extension of name says it holds: "file" (IPC
// file), "stream" (IPC stream), "parquet" or "". It names uploads (see
// storedName); what a file holds is told by its content (see open).
func kindOf(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".ipc", ".arrow", ".feather":
		return "file"
	case ".ipcs", ".arrows":
		return "stream"
	case ".parquet":
		return "parquet"
	}
	return ""
}

// source is a flight's records: their schema and the batches, each
// taken from the service's memory budget before it is decoded; held is
// what the caller holds of the budget meanwhile (batches yielded and not
// given back), which is no reason for the call to wait.
type source struct {
	schema  *alkaid.Schema
	rows    int64 // -1 when unknown without reading the file
	size    int64
	batches func(ctx context.Context, held *int64) iter.Seq2[batch, error]
	close   func() error
}

// batch is a record read from a file, the app metadata stored with it,
// and the bytes taken for it from the service's budget (for the caller
// to give back once the batch is sent).
type batch struct {
	rec *alkaid.Record
	app []byte
	n   int64
}

// appMetadataKey is the custom metadata key under which a record batch
// message of a stored upload keeps the app metadata its FlightData
// carried, for DoGet to send it again.
const appMetadataKey = "alkaid.flight.app_metadata"

// appOf is the app metadata stored in a record batch's custom metadata.
func appOf(meta map[string]string) []byte {
	if v, ok := meta[appMetadataKey]; ok {
		return []byte(v)
	}
	return nil
}

// maxEcho is how much of a name a client sent that an error message
// repeats.
const maxEcho = 100

// echo quotes a name a client sent for an error message, cut to maxEcho
// bytes (a client may send megabytes).
func echo(name string) string {
	if len(name) <= maxEcho {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%q… (%d bytes)", name[:maxEcho], len(name))
}

// open opens a served file. A name that is not one (missing, of no
// format files.Detect knows, an upload being stored, outside the
// directory, or a link leading out of it) is NotFound, with the same
// message whichever it is; a file that cannot be read is DataLoss.
func (s *DirService) open(name string) (*source, error) {
	if !fs.ValidPath(name) || strings.HasSuffix(name, ".part") {
		return nil, status.Errorf(codes.NotFound, "flight: no flight %s (a relative path of a data file)", echo(name))
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, status.Errorf(codes.PermissionDenied, "flight: flight %s cannot be read", echo(name))
		}
		return nil, status.Errorf(codes.NotFound, "flight: no flight %s", echo(name))
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, status.Errorf(codes.Internal, "flight: stat %s: %v", echo(name), err)
	}
	ra, ok := f.(io.ReaderAt)
	if !st.Mode().IsRegular() || !ok {
		f.Close()
		return nil, status.Errorf(codes.NotFound, "flight: no flight %s", echo(name))
	}
	format, err := files.Detect(ra, st.Size(), name)
	if errors.Is(err, files.ErrUnknownFormat) {
		f.Close()
		return nil, status.Errorf(codes.NotFound, "flight: no flight %s (a relative path of a data file)", echo(name))
	}
	src := &source{size: st.Size(), close: f.Close, rows: -1}
	if err == nil {
		err = s.openFormat(src, name, ra, st.Size(), format)
	}
	if err != nil {
		f.Close()
		return nil, status.Errorf(codes.DataLoss, "flight: %s: %v", echo(name), err)
	}
	return src, nil
}

// openFormat makes src read the file f of size bytes in format. A
// Parquet file is read a row group at a time (see openParquet); the
// other formats through a files reader, each batch with the app metadata
// an IPC file or stream stored with it (see DoPut).
func (s *DirService) openFormat(src *source, name string, f io.ReaderAt, size int64, format files.Format) error {
	if format == files.FormatParquet {
		return s.openParquet(src, name, f, size)
	}
	r, err := files.OpenReaderAt(f, size, name, files.WithFormat(format), files.WithIPCOptions(s.read...))
	if err != nil {
		return err
	}
	src.schema = r.Schema()
	// IPC batches carry metadata of their own, replayed as app metadata.
	meta := func() map[string]string { return nil }
	if bm, ok := r.(alkaid.BatchMetadata); ok {
		meta = bm.Metadata
	}
	recs := r.Records()
	src.batches = func(ctx context.Context, held *int64) iter.Seq2[batch, error] {
		return s.reserved(ctx, held, name, recs, func() []byte { return appOf(meta()) })
	}
	return nil
}

// firstGuess is the bytes taken before reading the first batch of a
// file, whose size is known only once it is read.
const firstGuess = 1 << 20

// reserved yields the records of recs as batches, the app metadata of
// each from app, taking bytes from the service's budget before each is
// decoded: the size of the batch before (at first firstGuess), so that a
// call waits for room before it decodes, then settling on the batch's
// own size. What a yielded batch took (its n) is the caller's to give
// back.
func (s *DirService) reserved(ctx context.Context, held *int64, name string, recs iter.Seq2[*alkaid.Record, error], app func() []byte) iter.Seq2[batch, error] {
	return func(yield func(batch, error) bool) {
		taken := min(int64(firstGuess), s.batchMax) // for the batch being decoded
		if err := s.mem.take(ctx, taken, *held); err != nil {
			yield(batch{}, err)
			return
		}
		defer func() { s.mem.give(taken) }()
		i := 0
		for rec, err := range recs {
			if err != nil {
				yield(batch{}, err)
				return
			}
			n := batchBytes(rec.Schema(), int64(rec.NumRows()))
			if n <= taken {
				s.mem.give(taken - n)
			} else {
				s.mem.give(taken)
				if err := s.reserve(ctx, name, fmt.Sprintf("batch %d", i), n, 0, *held); err != nil {
					taken = 0
					yield(batch{}, err)
					return
				}
			}
			taken = 0
			if !yield(batch{rec, app(), n}, nil) {
				return
			}
			i++
			g := min(n, s.batchMax)
			if err := s.mem.take(ctx, g, *held); err != nil {
				yield(batch{}, err)
				return
			}
			taken = g
		}
	}
}

// info describes the file name; d is the descriptor asked for (nil:
// the file's path).
func (s *DirService) info(name string, d *FlightDescriptor) (*FlightInfo, error) {
	src, err := s.open(name)
	if err != nil {
		return nil, err
	}
	defer src.close()
	if d == nil {
		d = PathDescriptor(name)
	}
	schema, err := EncodeSchema(src.schema, s.write...)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "%v", err)
	}
	return &FlightInfo{
		Schema:           schema,
		FlightDescriptor: d,
		Endpoint:         []*FlightEndpoint{{Ticket: &Ticket{Ticket: []byte(name)}, Location: s.locs}},
		TotalRecords:     src.rows,
		TotalBytes:       src.size,
		Ordered:          true,
	}, nil
}

// ListFlights lists every served file, and the datasets: each directory
// of the served one (at the top level, not hidden) that holds data files.
func (s *DirService) ListFlights(_ *Criteria, stream ListFlightsServer) error {
	return fs.WalkDir(s.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && !strings.Contains(p, "/") && !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "_") {
			if fi, err := s.datasetInfo(stream.Context(), p, nil); err == nil {
				if err := stream.Send(fi); err != nil {
					return err
				}
			}
		}
		if d.IsDir() {
			return nil
		}
		fi, err := s.info(p, nil)
		if err != nil {
			return nil // unreadable files are left out of the listing
		}
		return stream.Send(fi)
	})
}

// GetFlightInfo describes one file, named by a PATH descriptor as
// DoPut names it: relative to the directory (a leading "/" is dropped),
// .ipcs added when no file has the name and it has no IPC or Parquet
// extension. A path naming a directory describes the dataset in it as
// one flight (see DirService).
func (s *DirService) GetFlightInfo(ctx context.Context, d *FlightDescriptor) (*FlightInfo, error) {
	name, err := flightName(d)
	if err != nil {
		return nil, err
	}
	if s.isDir(name) {
		return s.datasetInfo(ctx, name, d)
	}
	if fs.ValidPath(name) {
		if _, err := fs.Stat(s.fsys, name); err != nil {
			name = storedName(name)
		}
	}
	return s.info(name, d)
}

// PollFlightInfo describes one file as GetFlightInfo does, complete at
// once: no descriptor to poll again, progress 1.
func (s *DirService) PollFlightInfo(ctx context.Context, d *FlightDescriptor) (*PollInfo, error) {
	fi, err := s.GetFlightInfo(ctx, d)
	if err != nil {
		return nil, err
	}
	done := 1.0
	return &PollInfo{Info: fi, Progress: &done}, nil
}

// GetSchema gives one file's schema.
func (s *DirService) GetSchema(_ context.Context, d *FlightDescriptor) (*SchemaResult, error) {
	fi, err := s.GetFlightInfo(context.Background(), d)
	if err != nil {
		return nil, err
	}
	return &SchemaResult{Schema: fi.Schema}, nil
}

// DoGet streams one file's record batches, or those of one file of a
// dataset (a ticket of an endpoint of a directory's flight) as a scan
// of the dataset gives them: in its unified schema, partition columns
// filled in. A dataset file's batches come from a scan that reads at
// most one row group (or, for a file of another format, one file) ahead
// of the batch sent. Each is decoded once the one
// before it has been handed to gRPC, within the service's memory bounds
// ([WithMemory]); a file that cannot be read fails this call alone.
func (s *DirService) DoGet(t *Ticket, stream DoGetServer) error {
	name := string(t.Ticket)
	ctx := stream.Context()
	var src *source
	var err error
	if dir, file, ok := datasetTicket(name); ok {
		src, err = s.openDatasetFile(ctx, dir, file)
	} else {
		src, err = s.open(name)
	}
	if err != nil {
		return err
	}
	defer src.close()
	w, err := NewRecordWriter(stream, src.schema, s.write...)
	if err != nil {
		return status.Errorf(codes.Internal, "%v", err)
	}
	if err := w.WriteSchema(); err != nil {
		return err
	}
	// the bytes of the batch sent last, given back once the next one is
	// sent (gRPC has let go of the last by then), or once gRPC has let go
	// of both when the call ends (see afterSends)
	var held int64
	defer func() {
		n := held
		afterSends(ctx, func() { s.mem.give(n) })
	}()
	for b, err := range src.batches(ctx, &held) {
		if err != nil {
			if _, ok := status.FromError(err); ok {
				return err
			}
			return status.Errorf(codes.DataLoss, "flight: %s: %v", echo(name), err)
		}
		if err := w.WriteWithAppMetadata(b.rec, b.app); err != nil {
			held += b.n // queued, maybe, with the one before
			return err
		}
		s.mem.give(held)
		held = b.n
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return status.FromContextError(err).Err()
	}
	return nil
}

// SendAll writes the records of r to w, the schema first even when r
// has none, stopping when ctx is done (the client went away). A read
// error becomes a DataLoss status. It closes neither r nor w.
func SendAll(ctx context.Context, w *RecordWriter, r alkaid.RecordReader) error {
	if err := w.WriteSchema(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return status.FromContextError(err).Err()
	}
	for rec, err := range r.Records() {
		if err != nil {
			return status.Errorf(codes.DataLoss, "flight: %v", err)
		}
		if err := w.Write(rec); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
	}
	return nil
}
