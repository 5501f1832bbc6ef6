#!/usr/bin/env bash
# Regenerates flight/internal/pb from flight/proto/alkaid_flight.proto and
# flight/internal/sqlpb from flight/proto/alkaid_flight_sql.proto (into
# directories pb and sqlpb of $1 when given: check.sh uses it).
# Needs protoc (apt-get install -y protobuf-compiler) and, in PATH,
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
#   go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.5.1
#
# The proto package is alkaid.flight.protocol (so that arrow-go's Flight
# can share a program with ours), but gRPC method paths are on the wire
# and must be Arrow's: the service name in the generated service code is
# rewritten to arrow.flight.protocol.FlightService.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
base=${1:-internal}
out=$base/pb
sqlout=$base/sqlpb
mkdir -p "$out" "$sqlout"
rm -f "$out"/*.pb.go "$sqlout"/*.pb.go
protoc -I proto --go_out="$sqlout" --go_opt=paths=source_relative proto/alkaid_flight_sql.proto
protoc -I proto \
	--go_out="$out" --go_opt=paths=source_relative \
	--go-grpc_out="$out" --go-grpc_opt=paths=source_relative \
	proto/alkaid_flight.proto
svc="$out/alkaid_flight_grpc.pb.go"
sed -i 's/"\/alkaid\.flight\.protocol\.FlightService\//"\/arrow.flight.protocol.FlightService\//; s/ServiceName: "alkaid\.flight\.protocol\.FlightService"/ServiceName: "arrow.flight.protocol.FlightService"/' "$svc"
if grep -q 'alkaid\.flight\.protocol\.FlightService' "$svc"; then
	echo "regen.sh: $svc still names alkaid.flight.protocol.FlightService:" >&2
	grep -n 'alkaid\.flight\.protocol\.FlightService' "$svc" >&2
	exit 1
fi
if [ "$(grep -c '"/arrow\.flight\.protocol\.FlightService/' "$svc")" != 10 ]; then
	echo "regen.sh: $svc does not have the 10 Flight method paths" >&2
	exit 1
fi
gofmt -w "$out" "$sqlout"
