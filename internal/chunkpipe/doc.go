// Package chunkpipe is the parallel pipeline of the text readers (csv,
// ndjson): one goroutine cuts the input into chunks in order, several
// parse chunks into batches at the same time, and the consumer receives
// the batches in input order, a few ahead of it, with the first error
// last.
package chunkpipe
