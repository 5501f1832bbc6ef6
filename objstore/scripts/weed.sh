#!/usr/bin/env bash
# Builds SeaweedFS's server (weed), the S3 server the objstore tests start,
# once per version into a cache outside the repository, and prints its path.
#   bash objstore/scripts/weed.sh            build unless cached
#   bash objstore/scripts/weed.sh --if-built prints the path only if built
# The module is fetched through the Go module proxy and built in its own
# source directory: `go install` refuses modules with replace directives,
# which SeaweedFS has. The cache is $ALKAID_CACHE (default
# $HOME/.cache/alkaid). A cold build takes minutes (see objstore/README.md).
set -euo pipefail
version=v0.0.0-20261109003541-7506e5f91cd6
out="${ALKAID_CACHE:-$HOME/.cache/alkaid}/weed/$version/weed"
if [[ -x "$out" ]]; then
	echo "$out"
	exit 0
fi
if [[ "${1:-}" == "--if-built" ]]; then
	echo "weed.sh: SeaweedFS $version is not built (bash objstore/scripts/weed.sh builds it)" >&2
	exit 1
fi
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "github.com/seaweedfs/seaweedfs@$version" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [[ -z "$dir" ]]; then
	echo "weed.sh: could not download github.com/seaweedfs/seaweedfs@$version" >&2
	exit 1
fi
(cd "$dir" && GOFLAGS=-mod=mod go build -o "$out.tmp" ./weed) >&2
mv "$out.tmp" "$out"
echo "$out"
