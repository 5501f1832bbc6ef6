package flight

import (
	"github.com/alkaid-go/alkaid/flight/internal/pb"
)

// Protocol messages. They are the generated protobuf types; their fields
// follow Arrow's Flight.proto.
type (
	// FlightDescriptor names a flight by path or by an opaque command.
	FlightDescriptor = pb.FlightDescriptor
	// FlightInfo describes a flight: schema, endpoints, sizes.
	FlightInfo = pb.FlightInfo
	// FlightEndpoint is one part of a flight: a ticket and its locations.
	FlightEndpoint = pb.FlightEndpoint
	// Location is the URI of a server.
	Location = pb.Location
	// Ticket is an opaque token redeemed with DoGet.
	Ticket = pb.Ticket
	// FlightData is one IPC message of a data stream.
	FlightData = pb.FlightData
	// PutResult is a server's answer during DoPut.
	PutResult = pb.PutResult
	// Action is a named request with an opaque body.
	Action = pb.Action
	// ActionType describes an action a server offers.
	ActionType = pb.ActionType
	// Result is one answer of an action.
	Result = pb.Result
	// Criteria filters ListFlights.
	Criteria = pb.Criteria
	// Empty is the argument of ListActions.
	Empty = pb.Empty
	// SchemaResult holds an encapsulated schema message.
	SchemaResult = pb.SchemaResult
	// PollInfo is the progress of a long-running query.
	PollInfo = pb.PollInfo
	// HandshakeRequest is one client message of a handshake.
	HandshakeRequest = pb.HandshakeRequest
	// HandshakeResponse is one server message of a handshake.
	HandshakeResponse = pb.HandshakeResponse
	// BasicAuth carries a user name and password.
	BasicAuth = pb.BasicAuth
)

// Service is what a Flight server implements: one method per RPC. Embed
// [BaseService] and override the calls you serve.
type Service = pb.FlightServiceServer

// BaseService answers every call with codes.Unimplemented.
type BaseService = pb.UnimplementedFlightServiceServer

// Server-side streams of the streaming RPCs.
type (
	// DoGetServer sends FlightData to a DoGet caller.
	DoGetServer = pb.FlightService_DoGetServer
	// DoPutServer receives a DoPut upload and sends PutResults.
	DoPutServer = pb.FlightService_DoPutServer
	// DoExchangeServer receives and sends FlightData.
	DoExchangeServer = pb.FlightService_DoExchangeServer
	// HandshakeServer exchanges handshake messages.
	HandshakeServer = pb.FlightService_HandshakeServer
	// ListFlightsServer sends FlightInfos.
	ListFlightsServer = pb.FlightService_ListFlightsServer
	// DoActionServer sends action Results.
	DoActionServer = pb.FlightService_DoActionServer
	// ListActionsServer sends ActionTypes.
	ListActionsServer = pb.FlightService_ListActionsServer
)

// The kinds of FlightDescriptor.
const (
	DescriptorUnknown = pb.FlightDescriptor_UNKNOWN
	DescriptorPath    = pb.FlightDescriptor_PATH
	DescriptorCmd     = pb.FlightDescriptor_CMD
)

// LocationReuseConnection is the URI of a location that means "the
// server that gave the FlightInfo, over the connection already open to
// it" ([Fetch] reads such an endpoint through the client it was given).
const LocationReuseConnection = "arrow-flight-reuse-connection://?"

// PathDescriptor returns a descriptor naming a path.
func PathDescriptor(path ...string) *FlightDescriptor {
	return &FlightDescriptor{Type: DescriptorPath, Path: path}
}

// CmdDescriptor returns a descriptor carrying an opaque command.
func CmdDescriptor(cmd []byte) *FlightDescriptor {
	return &FlightDescriptor{Type: DescriptorCmd, Cmd: cmd}
}
