// Package ctest holds C programs for package cdata's tests: a consumer of
// exported streams that checks the interface's invariants and adds the
// values up, and a producer of arrays and streams, correct or broken in a
// chosen way, that counts its release calls. Pointers cross as
// unsafe.Pointer: each cgo package has its own Go types for the C structs.
//
// It needs cgo; without it the package holds only this documentation.
package ctest
