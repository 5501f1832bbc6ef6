#!/usr/bin/env bash
# Fails when internal/flatbuf differs from what format/regen.sh generates from
# format/*.fbs, i.e. when a schema was changed without regenerating or a
# generated file was edited by hand. Installs nothing: needs flatc (the version
# in format/flatc.version) and gofmt in PATH.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
committed="$root/internal/flatbuf"

die() { echo "format/check.sh: FAIL: $*" >&2; exit 1; }

command -v flatc >/dev/null 2>&1 ||
	die "flatc not found in PATH; install the FlatBuffers compiler $(cat "$here/flatc.version") (Debian/Ubuntu: apt-get install flatbuffers-compiler) and rerun"
[[ -d "$committed" ]] || die "$committed does not exist; run format/regen.sh"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# regen.sh also enforces the pinned flatc version; do not let the environment relax it here.
FLATC_ANY_VERSION= "$here/regen.sh" "$tmp/flatbuf" >/dev/null ||
	die "could not regenerate (see the message above)"

# Compare the whole directory, so stray or missing files count too.
if ! diff -r -u "$committed" "$tmp/flatbuf" >"$tmp/diff.txt"; then
	head -n 200 "$tmp/diff.txt" >&2
	die "internal/flatbuf is out of date with format/*.fbs (diff above, committed vs regenerated).
Run format/regen.sh (or: make flatbuf) and commit the result; never edit internal/flatbuf by hand."
fi
echo "format/check.sh: OK: internal/flatbuf matches format/*.fbs"
