# Flatbuffers code generation (owned by format/; included by the main Makefile).
#   make flatbuf        regenerate internal/flatbuf from format/*.fbs
#   make flatbuf-check  fail if internal/flatbuf is not what format/*.fbs generates
# Both need flatc (version in format/flatc.version) and gofmt in PATH.

FLATBUF_DIR := $(dir $(lastword $(MAKEFILE_LIST)))

.PHONY: flatbuf flatbuf-check

flatbuf:
	bash $(FLATBUF_DIR)format/regen.sh

flatbuf-check:
	bash $(FLATBUF_DIR)format/check.sh
