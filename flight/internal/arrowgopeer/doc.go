// Package arrowgopeer holds arrow-go's side of the flight package's
// benchmarks (bench_test.go): the same DoGet and DoPut over arrow-go's
// Flight client and server, run next to the flight package's own.
package arrowgopeer
