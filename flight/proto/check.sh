#!/usr/bin/env bash
# Fails when flight/internal/pb is not what proto/regen.sh generates from
# proto/Flight.proto (same tools as regen.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
protoc -I proto \
	--go_out="$tmp" --go_opt=paths=source_relative \
	--go-grpc_out="$tmp" --go-grpc_opt=paths=source_relative \
	proto/Flight.proto
gofmt -w "$tmp"
diff -ru "$tmp" internal/pb
echo "flight/internal/pb is up to date"
