package flight

import (
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// queryService runs queries that can be cancelled through the
// CancelFlightInfo action.
type queryService struct {
	BaseService
}

func (queryService) DoAction(a *Action, s DoActionServer) error {
	if a.Type != ActionCancelFlightInfo {
		return status.Errorf(codes.Unimplemented, "no action %q", a.Type)
	}
	info, err := ParseCancelFlightInfo(a)
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	fmt.Printf("server: cancel %q\n", info.GetEndpoint()[0].GetTicket().GetTicket())
	res, err := ActionResult(&CancelFlightInfoResult{Status: CancelCancelled})
	if err != nil {
		return err
	}
	return s.Send(res)
}

// A client cancels a query it no longer needs; the server reads the
// request with ParseCancelFlightInfo and answers with ActionResult.
func ExampleClient_CancelFlightInfo() {
	addr, stop := exampleServer(queryService{})
	defer stop()
	c, _ := Dial(addr)
	defer c.Close()

	info := &FlightInfo{Endpoint: []*FlightEndpoint{{Ticket: &Ticket{Ticket: []byte("query-7")}}}}
	st, err := c.CancelFlightInfo(context.Background(), info)
	fmt.Println("client:", st, err)
	// Output:
	// server: cancel "query-7"
	// client: CANCEL_STATUS_CANCELLED <nil>
}
