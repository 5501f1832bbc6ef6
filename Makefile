# Alkaid for Go. Everything here also works without make: see README.md.
GO ?= go

.PHONY: run test bench fuzz vet fmt
run: ## the quickstart: build a record batch, write .ipc and .ipcs, read them back, print them
	$(GO) run ./examples/quickstart

test: ## everything CI checks
	bash scripts/test.sh

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v '^internal/flatbuf/')

bench: ## the library's benchmarks (one pass; use -count and benchstat to compare)
	$(GO) test -run='^$$' -bench=. -benchmem ./...

FUZZTIME ?= 10s
fuzz: ## a short smoke run of every fuzz target
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$f"; $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg; \
		done; \
	done

include Makefile.flatbuf.mk
