package chunkpipe

import (
	"io"
	"iter"
)

// Source cuts the next chunk of input and returns it with the number of
// its first line; io.EOF (with no chunk) ends the input. It is called on
// one goroutine, in order, never after it returned an error.
type Source func() (chunk []byte, line int, err error)

// Parser turns a chunk into a batch. It is called on several goroutines
// at once.
type Parser[T any] func(chunk []byte, line int) (T, error)

// Pipeline is the configuration of [Run].
type Pipeline[T any] struct {
	// Workers is the number of goroutines that parse (at least one).
	Workers int
	// Next and Parse cut and parse chunks.
	Next  Source
	Parse Parser[T]
	// Skip, if set, drops the batches it reports (empty ones).
	Skip func(T) bool
	// Cut, if set, is told the length of each chunk once it is cut and
	// handed to a worker (for progress).
	Cut func(n int)
}

type job[T any] struct {
	chunk []byte
	line  int
	err   error
	res   chan result[T]
}

type result[T any] struct {
	v   T
	err error
}

// Run yields the batches of the input in order. An error, of cutting or of
// parsing, is yielded once, last, with the zero T: that of the earliest
// chunk that failed, as a serial run would, even when a later chunk failed
// sooner; the chunks after it are not yielded. At most Workers chunks are parsed and 2×Workers cut ahead of
// the consumer; when the loop stops early, the goroutines stop too.
func (p Pipeline[T]) Run() iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		done := make(chan struct{})
		defer close(done)
		workers := max(p.Workers, 1)
		jobs := make(chan *job[T], workers)
		order := make(chan *job[T], 2*workers)
		go p.cut(jobs, order, done)
		for range workers {
			go func() {
				for j := range jobs {
					v, err := p.Parse(j.chunk, j.line)
					j.res <- result[T]{v, err}
				}
			}()
		}
		for j := range order {
			if j.err != nil {
				yield(zero, j.err)
				return
			}
			r := <-j.res
			if r.err != nil {
				yield(zero, r.err)
				return
			}
			if p.Skip != nil && p.Skip(r.v) {
				continue
			}
			if !yield(r.v, nil) {
				return
			}
		}
	}
}

// cut feeds the chunks to the workers and, in the same order, to the
// consumer.
func (p Pipeline[T]) cut(jobs, order chan<- *job[T], done <-chan struct{}) {
	defer close(order)
	defer close(jobs)
	for {
		chunk, line, err := p.Next()
		if err == io.EOF {
			return
		}
		j := &job[T]{chunk: chunk, line: line, err: err, res: make(chan result[T], 1)}
		select {
		case order <- j:
		case <-done:
			return
		}
		if err != nil {
			return
		}
		if p.Cut != nil {
			p.Cut(len(chunk))
		}
		select {
		case jobs <- j:
		case <-done:
			return
		}
	}
}
