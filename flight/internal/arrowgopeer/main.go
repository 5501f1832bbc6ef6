// Command arrowgopeer is arrow-go's Flight client and server, driven by
// the flight package's interop tests in a separate process: a program
// cannot link two sets of generated code for the same protobuf package
// (arrow.flight.protocol), so arrow-go's Flight lives here, alone.
//
//	arrowgopeer serve  DATA OUTDIR        serve DATA (an IPC stream); print "ADDR host:port"
//	arrowgopeer client ADDR DATA OUTDIR   call ADDR's DoGet, DoPut, DoExchange with DATA
//
// Batch i is sent with app metadata "batch-i". What the peer receives goes
// to OUTDIR as IPC streams (NAME.arrows) with the app metadata of each
// message, one line each, beside them (NAME.meta).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "arrowgopeer:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 3 && args[0] == "serve":
		return serve(args[1], args[2])
	case len(args) == 4 && args[0] == "client":
		return client(args[1], args[2], args[3])
	}
	return errors.New("usage: arrowgopeer serve DATA OUTDIR | client ADDR DATA OUTDIR")
}

func load(path string) (*arrow.Schema, []arrow.RecordBatch, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r, err := ipc.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	var recs []arrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	return r.Schema(), recs, r.Err()
}

func appMeta(i int) []byte { return []byte(fmt.Sprintf("batch-%d", i)) }

// sink saves received records and their app metadata.
type sink struct {
	dir, name string
	schema    *arrow.Schema
	recs      []arrow.RecordBatch
	meta      []string
}

func (s *sink) save() error {
	if err := os.WriteFile(filepath.Join(s.dir, s.name+".meta"), []byte(strings.Join(s.meta, "\n")), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(s.dir, s.name+".arrows"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := ipc.NewWriter(f, ipc.WithSchema(s.schema))
	for _, r := range s.recs {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	return w.Close()
}

// drain reads a Flight data stream into a sink; each record's app
// metadata is passed to each (may be nil).
func drain(r flight.DataStreamReader, s *sink, each func([]byte) error) error {
	rr, err := flight.NewRecordReader(r)
	if err != nil {
		return err
	}
	defer rr.Release()
	s.schema = rr.Schema()
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		app := string(rr.LatestAppMetadata())
		s.recs, s.meta = append(s.recs, rec), append(s.meta, app)
		if each != nil {
			if err := each([]byte(app)); err != nil {
				return err
			}
		}
	}
	if err := rr.Err(); err != nil {
		return err
	}
	return s.save()
}

func send(w *flight.Writer, recs []arrow.RecordBatch) error {
	for i, r := range recs {
		if err := w.WriteWithAppMetadata(r, appMeta(i)); err != nil {
			return err
		}
	}
	return w.Close()
}

type server struct {
	flight.BaseFlightServer
	schema *arrow.Schema
	recs   []arrow.RecordBatch
	out    string
}

func (s *server) DoGet(_ *flight.Ticket, st flight.FlightService_DoGetServer) error {
	return send(flight.NewRecordWriter(st, ipc.WithSchema(s.schema)), s.recs)
}

func (s *server) DoPut(st flight.FlightService_DoPutServer) error {
	return drain(st, &sink{dir: s.out, name: "put"}, func(app []byte) error {
		return st.Send(&flight.PutResult{AppMetadata: app})
	})
}

// DoExchange sends back each record it receives, with its app metadata.
func (s *server) DoExchange(st flight.FlightService_DoExchangeServer) error {
	rr, err := flight.NewRecordReader(st)
	if err != nil {
		return err
	}
	defer rr.Release()
	w := flight.NewRecordWriter(st, ipc.WithSchema(rr.Schema()))
	for rr.Next() {
		if err := w.WriteWithAppMetadata(rr.RecordBatch(), rr.LatestAppMetadata()); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		return err
	}
	return w.Close()
}

func serve(data, out string) error {
	schema, recs, err := load(data)
	if err != nil {
		return err
	}
	srv := flight.NewServerWithMiddleware(nil)
	if err := srv.Init("127.0.0.1:0"); err != nil {
		return err
	}
	srv.RegisterFlightService(&server{schema: schema, recs: recs, out: out})
	fmt.Printf("ADDR %s\n", srv.Addr())
	go func() { // stop when the test closes stdin
		io.Copy(io.Discard, os.Stdin)
		srv.Shutdown()
	}()
	return srv.Serve()
}

func client(addr, data, out string) error {
	schema, recs, err := load(data)
	if err != nil {
		return err
	}
	c, err := flight.NewClientWithMiddleware(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, err := c.AuthenticateBasicToken(context.Background(), "ann", "secret")
	if err != nil {
		return fmt.Errorf("authenticate: %w", err)
	}
	info, err := c.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"mem"}})
	if err != nil {
		return fmt.Errorf("get flight info: %w", err)
	}
	if _, err := flight.DeserializeSchema(info.Schema, nil); err != nil {
		return fmt.Errorf("flight info schema: %w", err)
	}
	get, err := c.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		return fmt.Errorf("do get: %w", err)
	}
	if err := drain(get, &sink{dir: out, name: "get"}, nil); err != nil {
		return fmt.Errorf("do get: %w", err)
	}

	put, err := c.DoPut(ctx)
	if err != nil {
		return fmt.Errorf("do put: %w", err)
	}
	w := flight.NewRecordWriter(put, ipc.WithSchema(schema))
	w.SetFlightDescriptor(&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"from-arrow-go"}})
	if err := send(w, recs); err != nil {
		return fmt.Errorf("do put: %w", err)
	}
	if err := put.CloseSend(); err != nil {
		return err
	}
	var results []string
	for {
		pr, err := put.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("do put: %w", err)
		}
		results = append(results, string(pr.AppMetadata))
	}
	if err := os.WriteFile(filepath.Join(out, "putresults.meta"), []byte(strings.Join(results, "\n")), 0o644); err != nil {
		return err
	}

	ex, err := c.DoExchange(ctx)
	if err != nil {
		return fmt.Errorf("do exchange: %w", err)
	}
	var wg sync.WaitGroup
	var sendErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		sendErr = send(flight.NewRecordWriter(ex, ipc.WithSchema(schema)), recs)
		ex.CloseSend()
	}()
	err = drain(ex, &sink{dir: out, name: "exchange"}, nil)
	wg.Wait()
	if err := errors.Join(err, sendErr); err != nil {
		return fmt.Errorf("do exchange: %w", err)
	}
	return nil
}
