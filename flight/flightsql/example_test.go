package flightsql_test

import (
	"context"
	"fmt"
	"net"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/flight"
	"github.com/alkaid-go/alkaid/flight/flightsql"
)

// infoServer serves the server information values and nothing else.
type infoServer struct{ flightsql.BaseServer }

func (infoServer) SqlInfo(_ context.Context, ids []uint32) (alkaid.RecordReader, error) {
	return flightsql.SqlInfoReader(map[uint32]any{
		uint32(flightsql.InfoServerName):     "example",
		uint32(flightsql.InfoServerReadOnly): true,
	}, ids)
}

// A Flight SQL server that answers GetSqlInfo, and a client asking it
// for its name.
func ExampleNewService() {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	srv, _ := flight.NewServer(flightsql.NewService(infoServer{}))
	go srv.Serve(l)
	defer srv.Stop()

	fc, _ := flight.Dial(l.Addr().String())
	defer fc.Close()
	c := flightsql.NewClient(fc)
	ctx := context.Background()
	fi, err := c.CommandInfo(ctx, &flightsql.GetSqlInfo{Info: []uint32{uint32(flightsql.InfoServerName)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := c.Read(ctx, fi)
	t, err := alkaid.ReadAll(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	values := t.Column(1).Chunks()[0].(*array.Union)
	fmt.Println(array.FormatValue(values, 0))

	// What the server does not serve is refused.
	_, err = c.Execute(ctx, flightsql.Statement{Query: "SELECT 1"})
	fmt.Println(err)
	// Output:
	// "example"
	// flightsql: CommandStatementQuery: rpc error: code = Unimplemented desc = flightsql: ExecuteStatement is not served
}
