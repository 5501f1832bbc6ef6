#!/usr/bin/env bash
# Fails when flight/internal/pb and flight/internal/sqlpb are not what
# proto/regen.sh generates from proto/*.proto (same tools as regen.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
proto/regen.sh "$tmp"
diff -ru "$tmp/pb" internal/pb
diff -ru "$tmp/sqlpb" internal/sqlpb
echo "flight/internal/pb and flight/internal/sqlpb are up to date"
