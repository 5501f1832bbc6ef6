#!/usr/bin/env bash
# Arrow Flight integration matrix against arrow-go, on loopback.
#   bash flight/scripts/integration.sh [-v] [FILTER]
# Builds arrow-go's integration client and server (the version interop/
# requires, fetched through the Go module proxy) and ours, then runs every
# integration JSON file of ../shared/conformance/arrow-testing and every
# scenario listed below, in each direction: arrow-go client -> arrow-go
# server (the baseline), our client -> arrow-go server, arrow-go client ->
# our server, our client -> our server. A case counts for us when arrow-go
# passes it against itself; the script fails when such a case fails in a
# direction involving us. FILTER (a grep pattern) restricts the cases; -v
# prints the failing client's output. The files are read from
# $ALKAID_SHARED/conformance (ALKAID_SHARED defaults to ../shared beside
# the repository); without them only the scenarios run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)

verbose=0
if [[ "${1:-}" == -v ]]; then verbose=1; shift; fi
filter=${1:-.}

data="${ALKAID_SHARED:-$root/../shared}/conformance/arrow-testing"

# Scenarios both sides implement.
scenarios=(auth:basic_proto middleware ordered location:reuse_connection poll_flight_info app_metadata_flight_info_endpoint
	expiration_time:do_get expiration_time:list_actions expiration_time:cancel_flight_info expiration_time:renew_flight_endpoint session_options
	flight_sql flight_sql:extension flight_sql:ingestion)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin="$tmp/bin"
mkdir -p "$bin" "$tmp/json"

ver=$(cd interop && go list -m -f '{{.Version}}' github.com/apache/arrow-go/v18)
echo "== building arrow-go $ver integration programs"
dir=$(cd interop && go mod download -json "github.com/apache/arrow-go/v18@$ver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
(cd "$dir" && GOFLAGS=-mod=mod go build -o "$bin/" ./arrow/internal/flight_integration/cmd/...)
echo "== building ours"
(cd flight && go build -o "$bin/" ./cmd/alkaid-flight-integration-server ./cmd/alkaid-flight-integration-client)

# The JSON files, uncompressed (arrow-go's client reads plain JSON), each
# named by its directory and file so that names stay unique.
if [[ -d "$data" ]]; then
	while IFS= read -r f; do
		rel=${f#"$data/"}
		name=$(echo "${rel%.gz}" | tr / _)
		gunzip -c "$f" >"$tmp/json/$name"
	done < <(find "$data" -name '*.json.gz' | sort)
else
	echo "skip the JSON round trips: $data is absent (the Arrow integration JSON files live there)"
fi

# run SERVER CLIENT ARGS...: starts SERVER on a free port, runs CLIENT
# against it; succeeds when the client does.
run() {
	local server=$1 client=$2; shift 2
	local sargs=()
	if [[ "$1" == -scenario ]]; then sargs=(-scenario "$2"); fi
	rm -f "$tmp/server.out"
	: >"$tmp/server.out" # before the server starts: never read a previous run's port
	"$bin/$server" -port 0 "${sargs[@]}" >>"$tmp/server.out" 2>&1 &
	local pid=$! port=
	for _ in $(seq 100); do
		port=$(sed -n 's/^Server listening on localhost:\([0-9]*\)$/\1/p' "$tmp/server.out")
		[[ -n "$port" ]] && break
		sleep 0.1
	done
	local ok=0
	if [[ -n "$port" ]] && timeout 120 "$bin/$client" -host localhost -port "$port" "$@" >"$tmp/client.out" 2>&1; then
		ok=1
	fi
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	if [[ $ok == 0 ]]; then
		# always say why: a failure seen once in CI must be readable from its log
		local n=5
		[[ $verbose == 1 ]] && n=20
		echo "    $client against $server on port ${port:-(none: the server did not say it was listening)}, $*:"
		sed 's/^/    client: /' "$tmp/client.out" | tail -$n
		sed 's/^/    server: /' "$tmp/server.out" | tail -$n
	fi
	[[ $ok == 1 ]]
}

A=arrow-flight-integration
O=alkaid-flight-integration
failed=0
retried=0
results=()
check() { # NAME ARGS...
	local name=$1; shift
	if ! run $A-server $A-client "$@"; then
		results+=("SKIP  $name (arrow-go fails it against itself)")
		return
	fi
	local line="" bad=0
	for pair in "$O-client>$A-server:$A-server:$O-client" "$A-client>$O-server:$O-server:$A-client" "$O-client>$O-server:$O-server:$O-client"; do
		IFS=: read -r label server client <<<"$pair"
		label=${label//-integration/}
		if run "$server" "$client" "$@"; then
			line+=" ok:$label"
		elif run "$server" "$client" "$@"; then
			# passed when run again: counted, and named so it is not forgotten
			line+=" ok-on-retry:$label"
			retried=$((retried + 1))
		else
			line+=" FAIL:$label"
			bad=1
		fi
	done
	if [[ $bad == 1 ]]; then
		failed=$((failed + 1)); results+=("FAIL  $name:$line")
	elif [[ $line == *ok-on-retry* ]]; then
		results+=("PASS  $name (a direction failed once, then passed:$line)")
	else
		results+=("PASS  $name")
	fi
	printf '%s\n' "${results[-1]}"
}

echo "== JSON round trips"
for f in "$tmp"/json/*.json; do
	[[ -e "$f" ]] || continue
	name=$(basename "$f")
	grep -q -- "$filter" <<<"$name" || continue
	check "$name" -path "$f"
done
echo "== scenarios"
for s in "${scenarios[@]}"; do
	grep -q -- "$filter" <<<"scenario $s" || continue
	check "scenario $s" -scenario "$s"
done

echo
printf '%s\n' "${results[@]}" | grep '^SKIP' || true
passed=$(printf '%s\n' "${results[@]}" | grep -c '^PASS' || true)
echo "== $passed passed in every direction, $failed failed ($retried direction(s) passed only when run again)"
[[ $failed == 0 && $passed -gt 0 ]] # nothing passing means the programs did not run
