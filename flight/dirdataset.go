package flight

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"iter"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/dataset"
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
		if k := kindOf(f); k != "parquet" && k != "file" {
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

// datasetTicket splits a dataset endpoint's ticket; ok is false for a
// file's ticket.
func datasetTicket(t string) (dir, file string, ok bool) {
	return strings.Cut(t, datasetSep)
}

// openDatasetFile opens the records of one file of the dataset in dir, as
// a scan of the dataset gives them (its unified schema, partition columns
// filled in), each batch taken from the service's memory budget before
// it is read. A file that is not one of the dataset's (or a path leaving
// the directory) is NotFound.
func (s *DirService) openDatasetFile(ctx context.Context, dir, file string) (*source, error) {
	if !s.isDir(dir) || !fs.ValidPath(file) || !strings.HasPrefix(file, dir+"/") {
		return nil, status.Errorf(codes.NotFound, "flight: no dataset file %s in %s", echo(file), echo(dir))
	}
	ds, err := s.openDataset(dir)
	if err != nil {
		return nil, err
	}
	scan, err := ds.Scan(ctx, dataset.WithFiles(file), dataset.WithConcurrency(1))
	if err != nil {
		if errors.Is(err, dataset.ErrInvalid) {
			return nil, status.Errorf(codes.NotFound, "flight: no dataset file %s in %s", echo(file), echo(dir))
		}
		return nil, status.Errorf(codes.Internal, "flight: %v", err)
	}
	next, stop := iter.Pull2(scan.Records())
	src := &source{schema: scan.Schema(), rows: -1, close: func() error { stop(); return nil }}
	i := 0
	guess := int64(firstGuess)
	src.next = func(ctx context.Context) (batch, error) {
		i++
		return s.readReserved(ctx, file, i-1, &guess, func() (*alkaid.Record, []byte, error) {
			rec, err, ok := next()
			if !ok {
				return nil, nil, io.EOF
			}
			if err != nil {
				return nil, nil, err
			}
			return rec, nil, nil
		})
	}
	return src, nil
}
