package flight

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

func exampleRecords() (*alkaid.Schema, []*alkaid.Record) {
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "star", Type: datatype.String},
		{Name: "magnitude", Type: datatype.Float64, Nullable: true},
	}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.String, `["Alkaid", "Mizar", "Alioth"]`),
		arrayjson.MustParse(datatype.Float64, `[1.86, null, 1.77]`),
	}, -1)
	if err != nil {
		panic(err)
	}
	return schema, []*alkaid.Record{rec}
}

// exampleServer serves svc on a loopback port.
func exampleServer(svc Service, opts ...Option) (addr string, stop func()) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv, err := NewServer(svc, opts...)
	if err != nil {
		panic(err)
	}
	go srv.Serve(l)
	return l.Addr().String(), srv.Stop
}

// A directory of IPC files served over Flight, and one file fetched back.
func ExampleNewDirService() {
	dir, _ := os.MkdirTemp("", "flight-example")
	defer os.RemoveAll(dir)
	schema, recs := exampleRecords()
	f, _ := os.Create(filepath.Join(dir, "stars.ipcs"))
	w, _ := ipc.NewStreamWriter(f, schema)
	w.Write(recs[0])
	w.Close()
	f.Close()

	svc, _ := NewDirService(dir)
	defer svc.Close()
	addr, stop := exampleServer(svc)
	defer stop()

	c, _ := Dial("grpc://" + addr)
	defer c.Close()
	ctx := context.Background()
	for info, err := range c.Flights(ctx, nil) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("flight:", info.FlightDescriptor.Path)
		r, err := Fetch(ctx, c, info)
		if err != nil {
			fmt.Println(err)
			return
		}
		for rec, err := range r.Records() {
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Print(rec)
		}
		r.Close()
	}
	// Output:
	// flight: [stars.ipcs]
	// record: 3 rows
	//   star: ["Alkaid" "Mizar" "Alioth"]
	//   magnitude: [1.86 (null) 1.77]
}

// A server that asks for a user name and password: the client logs in
// once (Handshake) and its bearer token goes with every later call.
func ExampleWithAuth() {
	schema, recs := exampleRecords()
	auth := NewStaticAuth(map[string]string{"ann": "secret"})
	addr, stop := exampleServer(newMemService(schema, recs), WithAuth(auth))
	defer stop()

	c, _ := Dial(addr)
	defer c.Close()
	ctx := context.Background()
	if _, err := c.GetFlightInfo(ctx, PathDescriptor("mem")); err != nil {
		fmt.Println("before login:", status.Code(err))
	}
	if err := c.Authenticate(ctx, "ann", "secret"); err != nil {
		fmt.Println(err)
		return
	}
	info, err := c.GetFlightInfo(ctx, PathDescriptor("mem"))
	fmt.Println("after login:", info.GetTotalRecords(), "rows,", err)
	// Output:
	// before login: Unauthenticated
	// after login: 3 rows, <nil>
}
