// Package flightsql is Arrow Flight SQL over package flight: a client
// that runs SQL text or Substrait plans, prepared statements with bound
// parameters, updates, bulk ingestion, transactions and savepoints and
// every metadata command; and a server framework, where a [Server] (embed
// [BaseServer] and override what you serve) answers the commands and
// [NewService] turns it into a flight.Service that decodes, dispatches and
// encodes them.
//
// Commands are the protocol messages of Arrow's FlightSql.proto, aliased
// here ([StatementQuery], [GetTables], …). On the wire each is packed in a
// google.protobuf.Any whose type URL is Arrow's,
// type.googleapis.com/arrow.flight.protocol.sql.NAME, and carried as the
// cmd of a FlightDescriptor, a Ticket or an Action body.
//
// Results are records ([alkaid.RecordReader]); the metadata commands have
// fixed schemas ([CatalogsSchema], [TablesSchema], …) and [SqlInfoReader]
// encodes server information values.
package flightsql
