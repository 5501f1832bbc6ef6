// Package flight is an Arrow Flight client and server for Alkaid record
// batches: the Flight RPC protocol over gRPC, wire-compatible with Apache
// Arrow's Flight (the gRPC service arrow.flight.protocol.FlightService).
//
// Record batches and dictionaries travel as IPC messages inside FlightData
// (data_header: the Flatbuffers Message; data_body: the message body).
// [RecordWriter] encodes them straight from a record's buffers;
// [RecordReader] decodes them with the same verification and [ipc.Limits]
// as the ipc readers, so a peer sending hostile FlightData gets an error.
// A RecordWriter keeps each message to [DefaultMaxSendSize] bytes (what
// gRPC peers accept by default), sending a larger record batch as slices
// of its rows; [WithMaxSendSize], given to [Dial] or [NewServer], raises
// it.
//
// One [Option] type configures [Dial], [NewServer], [NewDirService] and
// [Fetch]: a concept has one option wherever it applies (WithTLS,
// WithMaxMessageSize and WithMaxSendSize for clients and servers,
// WithReadOptions and WithWriteOptions for clients and directory
// services), and an option given where it does not apply, or an invalid
// value, is the constructor's error.
//
// A server implements [Service], embedding [BaseService] so that calls it
// does not serve answer "unimplemented"; [NewServer] adds authentication
// (basic→bearer, or Arrow's BasicAuth handshake with an auth-token-bin
// token: [Client.Authenticate], [Client.AuthenticateBasicProto]),
// sessions ([WithSessions]: options set and read by the session actions,
// kept by Arrow's session cookie, which a client keeps with
// [WithSessionCookies]), TLS and message size limits, and [NewDirService] serves
// a directory of .ipc, .ipcs and .parquet files (a writable one stores
// DoPut uploads, acknowledged batch by batch, their app metadata kept and
// sent again by DoGet), each subdirectory also as a dataset (package
// dataset): one flight with an endpoint per file. A call that fails fails alone: a handler that
// panics answers codes.Internal, a DirService bounds the decoded batches
// its calls hold and the memory decoding a Parquet row group takes
// ([WithMemory]), and a client that stops reading is
// disconnected after the send timeout ([WithSendTimeout]). [Client] wraps every RPC
// and adds record-level helpers; [Fetch] reads a [FlightInfo] whose
// endpoints sit on several servers concurrently.
//
// The records speak the module's one shape: [RecordReader] (what
// [Client.Get] and [ExchangeStream.Reader] return) and the reader [Fetch]
// returns are alkaid.RecordReaders, so alkaid.ReadAll and alkaid.Copy
// take them; [RecordWriter], [PutStream] and [ExchangeStream] are
// alkaid.RecordWriters. App metadata rides beside the records:
// [RecordReader.AppMetadata] and [RecordReader.MetadataMessages] while
// reading, [RecordWriter.WriteWithAppMetadata] and
// [RecordWriter.WriteAppMetadata] while writing, and a put's answers
// through [PutStream.NextResult] and [PutStream.Results].
// [Client.CancelFlightInfo] and [Client.RenewFlightEndpoint] run the two
// actions Flight defines, and [ParseCancelFlightInfo],
// [ParseRenewFlightEndpoint] and [ActionResult] serve them.
//
// The protobuf message types are aliases of generated code that stays in
// an internal package. That code registers its messages under the
// protobuf package alkaid.flight.protocol (Arrow's names, numbers and
// types of fields, so the same bytes on the wire), not Arrow's
// arrow.flight.protocol, so that a program can link this package and
// arrow-go's Flight together. The gRPC service and method paths are
// Arrow's (/arrow.flight.protocol.FlightService/DoGet and so on): each
// package's clients and servers talk to the other's.
//
// Package flightsql (flight/flightsql) is Arrow Flight SQL on top of this
// package: a client and a server framework.
//
// The commands alkaid-flight-integration-server and
// alkaid-flight-integration-client are Arrow's Flight integration
// programs built on this package; flight/scripts/integration.sh runs
// them against arrow-go's on every integration JSON file of
// arrow-testing and every scenario they share, in both directions.
//
// Clients and servers of this package use their own gRPC codec, protobuf
// on the wire: a record batch's body is sent from the record's buffers
// and a received body is copied once, into memory of its own.
package flight
