# Alkaid for Go. Everything here also works without make: see README.md.
GO ?= go

.PHONY: run test bench fuzz vet fmt flight-integration
run: ## the quickstart: build a record batch, write .ipc and .ipcs, read them back, print them
	$(GO) run ./examples/quickstart

test: ## everything CI checks
	bash scripts/test.sh

flight-integration: ## Arrow Flight integration programs against arrow-go's, both directions (part of test)
	bash flight/scripts/integration.sh

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v '^internal/flatbuf/')

bench: ## the library's benchmarks (one pass; use -count and benchstat to compare)
	$(GO) test -run='^$$' -bench=. -benchmem ./...

FUZZTIME ?= 10s
# Each new interesting input is minimised for at most this many calls:
# with Go's default (60s per input) targets with inputs of a few KB spent
# their whole run minimising (5-40 executions in minutes).
FUZZMINIMIZE ?= 100x
fuzz: ## a short smoke run of every fuzz target
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$f"; $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZE) $$pkg; \
		done; \
	done

include Makefile.flatbuf.mk

# Side-by-side benchmarks against arrow-go (the bench module): raw output in
# docs/benchmarks-raw.txt, table in docs/BENCHMARKS.md, chart in docs/benchmarks.svg.
BENCH_COUNT ?= 6
BENCH_TIME ?= 0.5s
BENCH_CMD = $(GO) test -run='^$$' -bench=. -benchmem -count=$(BENCH_COUNT) -benchtime=$(BENCH_TIME) -timeout=60m
.PHONY: bench-compare
bench-compare: ## alkaid vs arrow-go, same data, same run; writes docs/BENCHMARKS.md and docs/benchmarks.svg
	@mkdir -p docs
	cd bench && $(BENCH_CMD) . > ../docs/benchmarks-raw.txt || { cat ../docs/benchmarks-raw.txt; exit 1; }
	cd bench && $(GO) run ./cmd/report -in ../docs/benchmarks-raw.txt -md ../docs/BENCHMARKS.md -svg ../docs/benchmarks.svg \
		-notes notes.md -gomod go.mod -commit "$$(git rev-parse --short HEAD 2>/dev/null)" \
		-cmd "cd bench && $(subst $$$$,$$,$(BENCH_CMD)) ."
