#!/usr/bin/env bash
# Regenerates the Go package internal/flatbuf from format/*.fbs.
#
#   format/regen.sh            regenerate internal/flatbuf in place
#   format/regen.sh DIR        write the package into DIR instead (used by check.sh)
#
# Output is deterministic for a given flatc version (pinned in
# format/flatc.version) and gofmt. Every file of the output directory is
# generated: old *.go files there are deleted first, so never put
# hand-written code in internal/flatbuf.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
out="${1:-$root/internal/flatbuf}"

# Schemas in a fixed order; all of them belong to namespace org.alkaid.flatbuf.
schemas=(Schema.fbs Tensor.fbs SparseTensor.fbs Message.fbs File.fbs)

die() { echo "format/regen.sh: $*" >&2; exit 1; }

command -v flatc >/dev/null 2>&1 ||
	die "flatc not found in PATH; install the FlatBuffers compiler $(cat "$here/flatc.version") (Debian/Ubuntu: apt-get install flatbuffers-compiler)"
command -v gofmt >/dev/null 2>&1 || die "gofmt not found in PATH; install the Go toolchain"

want="$(tr -d '[:space:]' <"$here/flatc.version")"
have="$(flatc --version | awk '{print $NF}')"
if [[ "$have" != "$want" && "${FLATC_ANY_VERSION:-}" != 1 ]]; then
	die "flatc $have found, but the committed code was generated with flatc $want (format/flatc.version).
Different flatc versions emit different Go code. Install flatc $want, or, to move the project
to flatc $have on purpose, run with FLATC_ANY_VERSION=1, update format/flatc.version and
format/README.md, and commit the regenerated code."
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# --go-namespace flatbuf: Go package "flatbuf", written to $tmp/flatbuf/.
(cd "$here" && flatc --go --go-namespace flatbuf --no-warnings -o "$tmp" "${schemas[@]}")
gen="$tmp/flatbuf"
compgen -G "$gen/*.go" >/dev/null || die "flatc produced no Go files in $gen"
# Same formatting as the rest of the module (also turns /// into // /).
gofmt -w "$gen"

mkdir -p "$out"
rm -f "$out"/*.go
cp "$gen"/*.go "$out"/
echo "format/regen.sh: wrote $(ls "$gen"/*.go | wc -l) files to $out (flatc $have)"
