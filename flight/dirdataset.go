package flight

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"slices"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
)

// datasetSep separates a dataset endpoint's ticket: the dataset's
// directory, then the path of one of its files. A NUL is in no path, so a
// ticket holding one is never a file's.
const datasetSep = "\x00"

// isDir reports whether name is a directory inside the served one
// (through links that stay inside it).
func (s *DirService) isDir(name string) bool {
	if !fs.ValidPath(name) || name == "." {
		return false
	}
	st, err := fs.Stat(s.fsys, name)
	return err == nil && st.IsDir()
}

// openDataset discovers the dataset in the directory dir: its data files
// at any depth under Hive partition directories (see package dataset).
// A directory holding no data file is NotFound; one whose files cannot
// be read as one table is DataLoss.
func (s *DirService) openDataset(dir string) (*dataset.Dataset, error) {
	d, err := dataset.Open(s.fsys, dir, dataset.WithPartitioning(dataset.Partitioning{Style: dataset.Hive}))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, status.Errorf(codes.NotFound, "flight: no flight %s", echo(dir))
		}
		if errors.Is(err, fs.ErrPermission) {
			return nil, status.Errorf(codes.PermissionDenied, "flight: flight %s cannot be read", echo(dir))
		}
		return nil, status.Errorf(codes.DataLoss, "flight: dataset %s: %v", echo(dir), err)
	}
	if len(d.Files()) == 0 {
		return nil, status.Errorf(codes.NotFound, "flight: no flight %s (a directory holding no data file)", echo(dir))
	}
	return d, nil
}

// datasetInfo describes the dataset in the directory dir as one flight:
// its unified schema, one endpoint per file (the ticket names the
// directory and the file), its total records when every file's footer
// states them (Parquet and IPC files) and the files' total size.
func (s *DirService) datasetInfo(ctx context.Context, dir string, d *FlightDescriptor) (*FlightInfo, error) {
	ds, err := s.openDataset(dir)
	if err != nil {
		return nil, err
	}
	s.datasets.put(dir, ds)
	if d == nil {
		d = PathDescriptor(dir)
	}
	schema, err := EncodeSchema(ds.Schema(), s.write...)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "%v", err)
	}
	fi := &FlightInfo{Schema: schema, FlightDescriptor: d, TotalRecords: -1, Ordered: true}
	counted := true
	for _, f := range ds.Files() {
		fi.Endpoint = append(fi.Endpoint, &FlightEndpoint{Ticket: &Ticket{Ticket: []byte(dir + datasetSep + f)}, Location: s.locs})
		if st, err := fs.Stat(s.fsys, f); err == nil {
			fi.TotalBytes += st.Size()
		}
		if format, err := s.detect(f); err != nil || (format != files.FormatParquet && format != files.FormatIPCFile) {
			counted = false
		}
	}
	if counted {
		if n, _, err := ds.CountRows(ctx); err == nil {
			fi.TotalRecords = n
		}
	}
	return fi, nil
}

// detect is the format of the served file name (see files.Detect).
func (s *DirService) detect(name string) (files.Format, error) {
	f, err := s.fsys.Open(name)
	if err != nil {
		return files.FormatAuto, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return files.FormatAuto, err
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return files.FormatAuto, fmt.Errorf("flight: %s: %w: the file system's files do not read at an offset", name, ipc.ErrNotSupported)
	}
	return files.Detect(ra, st.Size(), name)
}

// datasetTicket splits a dataset endpoint's ticket; ok is false for a
// file's ticket.
func datasetTicket(t string) (dir, file string, ok bool) {
	return strings.Cut(t, datasetSep)
}

// openDatasetFile opens the records of one file of the dataset in dir, as
// a scan of the dataset gives them (its unified schema, partition columns
// filled in), each batch taken from the service's memory budget before
// it is read. A file that is not one of the dataset's (or a path leaving
// the directory) is NotFound. The dataset is the one the last
// description of dir opened (see datasetCache), opened again when the
// file is not one of its files.
func (s *DirService) openDatasetFile(ctx context.Context, dir, file string) (*source, error) {
	if !s.isDir(dir) || !fs.ValidPath(file) || !strings.HasPrefix(file, dir+"/") {
		return nil, status.Errorf(codes.NotFound, "flight: no dataset file %s in %s", echo(file), echo(dir))
	}
	ds := s.datasets.get(dir)
	if ds == nil || !slices.Contains(ds.Files(), file) {
		var err error
		if ds, err = s.openDataset(dir); err != nil {
			return nil, err
		}
	}
	scan, err := ds.Scan(ctx, dataset.WithFiles(file), dataset.WithConcurrency(1))
	if err != nil {
		if errors.Is(err, dataset.ErrInvalid) {
			return nil, status.Errorf(codes.NotFound, "flight: no dataset file %s in %s", echo(file), echo(dir))
		}
		return nil, status.Errorf(codes.Internal, "flight: %v", err)
	}
	return &source{
		schema: scan.Schema(),
		rows:   -1,
		batches: func(ctx context.Context, held *int64) iter.Seq2[batch, error] {
			return s.reserved(ctx, held, file, scan.Records(), func() []byte { return nil })
		},
		close: func() error { return nil },
	}, nil
}

// maxCachedDatasets bounds the datasets a service keeps opened.
const maxCachedDatasets = 64

// datasetCache holds the dataset of each directory described last, so
// that fetching its files (one DoGet per endpoint) does not discover the
// dataset again for each: a client fetches what the FlightInfo it was
// given describes. Every description (GetFlightInfo, ListFlights) opens
// the dataset anew and replaces the cached one.
type datasetCache struct {
	mu sync.Mutex
	m  map[string]*dataset.Dataset
}

func (c *datasetCache) get(dir string) *dataset.Dataset {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[dir]
}

func (c *datasetCache) put(dir string, d *dataset.Dataset) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*dataset.Dataset{}
	}
	if _, ok := c.m[dir]; !ok && len(c.m) >= maxCachedDatasets {
		for k := range c.m { // any one makes room
			delete(c.m, k)
			break
		}
	}
	c.m[dir] = d
}
