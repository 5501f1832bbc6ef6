// Package fbcheck holds tests, and nothing else, that prove the generated
// package internal/flatbuf is wire-identical to Apache Arrow's IPC metadata:
// they decode the schemas, dictionary batches and record batches of the
// Arrow integration golden files (../shared/conformance/arrow-testing) with
// the generated code and compare them with the JSON description of each
// file, and they build messages with the generated builders and read them
// back.
//
// The tests read trusted files with the raw generated accessors, which do no
// bounds checking; the ipc package is where untrusted input is validated.
package fbcheck
