#!/usr/bin/env bash
# Regenerates flight/internal/pb from flight/proto/Flight.proto.
# Needs protoc (apt-get install -y protobuf-compiler) and, in PATH,
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
#   go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.5.1
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=internal/pb
rm -f "$out"/*.pb.go
protoc -I proto \
	--go_out="$out" --go_opt=paths=source_relative \
	--go-grpc_out="$out" --go-grpc_opt=paths=source_relative \
	proto/Flight.proto
gofmt -w "$out"
