#!/usr/bin/env bash
# Fails when flight/internal/pb is not what proto/regen.sh generates from
# proto/alkaid_flight.proto (same tools as regen.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
proto/regen.sh "$tmp"
diff -ru "$tmp" internal/pb
echo "flight/internal/pb is up to date"
