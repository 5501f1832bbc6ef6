// Package chunkpipe is the parallel pipeline of the text readers (csv,
// ndjson): one goroutine cuts the input into chunks in order, several
// parse chunks into batches at the same time, and the consumer receives
// the batches in input order, a few ahead of it, then the error of the
// earliest chunk that failed (the one a serial run would meet, whatever
// failed first in time). Its Buffer holds the input read but not yet
// cut, grown within the readers' record limit, so that chunks of whole
// records can be handed out without copying.
package chunkpipe
