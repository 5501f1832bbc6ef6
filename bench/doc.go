// Package bench holds side-by-side benchmarks of this library and
// arrow-go (github.com/apache/arrow-go/v18): each benchmark has an
// "alkaid" and an "arrowgo" sub-benchmark doing the same work on the same
// data, so that one run of
//
//	go test -run '^$' -bench . -count 6 -benchmem
//
// gives comparable medians. cmd/report turns that output into
// docs/BENCHMARKS.md and docs/benchmarks.svg (make bench-compare).
//
// The pair functions live outside the test files so that a quick test
// (pairs_test.go) checks that both sides of every pair compute the same
// result on small data.
package bench
