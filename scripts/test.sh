#!/usr/bin/env bash
# The whole test suite: what CI checks, runnable on a fresh machine with Go.
#   bash scripts/test.sh
# Steps: gofmt, go vet (also for arm64 where a package has architecture-
# specific files: the pure-Go fallbacks must compile),
# go test with and without assembly (noasm), the race detector on the
# packages with concurrency, the sub-modules' tests, and the Flatbuffers
# regeneration check when flatc is installed, and the Flight integration
# matrix against arrow-go (flight/scripts/integration.sh); objstore's tests
# run against SeaweedFS when it is built (ALKAID_WEED_BUILD_SECONDS=N lets
# this command spend N seconds building it) or else gofakes3. Tests that need ../shared skip with a message when
# it is absent.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Each step prints its name and, when it ends, how long it took.
last=""
started=$SECONDS
step() {
	if [[ -n "$last" ]]; then printf '(%s: %d s)\n' "$last" $((SECONDS - started)); fi
	last="$*"
	started=$SECONDS
	if [[ -n "$last" ]]; then printf '\n== %s\n' "$last"; fi
}
trap 'step ""; echo "(total: $SECONDS s)"' EXIT

step "gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null | grep -v '^internal/flatbuf/' || find . -name '*.go' -not -path './internal/flatbuf/*'))
if [[ -n "$bad" ]]; then
	echo "gofmt would change:"; echo "$bad"; exit 1
fi

step "go vet"
go vet ./...
# The pure-Go fallbacks must build for arm64 too. The noasm tests below
# already build every package on them (their files are `!amd64 || noasm`),
# so only the packages whose files differ between the two architectures
# are vetted for arm64: vetting all of them type-checked the whole module
# a second time, most of a cold run.
archfiles() { CGO_ENABLED=0 GOARCH=$1 go list -f '{{.ImportPath}} {{.GoFiles}} {{.SFiles}} {{.TestGoFiles}} {{.XTestGoFiles}}' ./... | sort; }
archpkgs=$(comm -3 <(archfiles amd64) <(archfiles arm64) | awk '{print $1}' | sort -u)
if [[ -n "$archpkgs" ]]; then
	GOARCH=arm64 go vet $archpkgs
fi

if command -v flatc >/dev/null 2>&1; then
	step "flatbuffers generated code is up to date"
	bash format/check.sh
else
	echo "(flatc not installed: skipping the regeneration check; CI installs it)"
fi

step "go test (assembly)"
go test -count=1 ./...

step "go test -tags noasm (pure Go)"
go test -count=1 -tags noasm ./...

if [[ "$(go env CGO_ENABLED)" == 1 ]]; then
	step "go test -race (concurrent code)"
	go test -count=1 -race -run 'Concurrent|Parallel|Race' ./ipc/ ./memory/ ./gorecord/ ./cdata/ ./csv/ ./ndjson/ ./internal/chunkpipe/ ./compute/ ./parquet/ ./dataset/
fi

if command -v protoc >/dev/null && command -v protoc-gen-go >/dev/null && command -v protoc-gen-go-grpc >/dev/null; then
	step "flight: generated protobuf code up to date"
	bash flight/proto/check.sh
fi

if [[ -f objstore/go.mod && "${ALKAID_WEED_BUILD_SECONDS:-0}" -gt 0 ]]; then
	# objstore's tests run against SeaweedFS's S3 server when it is built
	# (objstore/scripts/weed.sh, into $HOME/.cache/alkaid), else against
	# gofakes3 in the test process. A cold build takes about 35 minutes on
	# a busy 2-core machine, so this command builds it only when asked
	# (CI does: .ci/run), for at most ALKAID_WEED_BUILD_SECONDS; what it
	# compiled stays in Go's build cache and a later run finishes it.
	step "objstore: the S3 server its tests run (SeaweedFS, built once, cached)"
	timeout "$ALKAID_WEED_BUILD_SECONDS" bash objstore/scripts/weed.sh >/dev/null ||
		echo "(SeaweedFS not built yet: objstore's tests run against gofakes3 this time)"
fi

for mod in interop bench arrowbridge flight objstore; do
	if [[ -f "$mod/go.mod" ]]; then
		step "sub-module $mod"
		(cd "$mod" && go vet ./... && go test -count=1 ./...)
	fi
done
if [[ -f objstore/go.mod && "$(go env CGO_ENABLED)" == 1 ]]; then
	step "objstore: go test -race (concurrent reads, faults)"
	(cd objstore && go test -count=1 -race -run 'ReadAt|Requests|Faults' ./...)
fi

step "flight: integration programs against arrow-go's (about 30 s once built)"
bash flight/scripts/integration.sh
