// Package optside is the bookkeeping of a package whose one option type
// serves both its readers and its writers (csv, ndjson): while options
// run, it records the first option meant only for readers, the first
// meant only for writers and the first bad value, so that each
// constructor refuses what is not for it with one error naming it.
package optside

import (
	"fmt"

	"github.com/alkaid-go/alkaid/datatype"
)

// Sides is what the options given so far say about themselves. The zero
// value is not ready: make it with New.
type Sides struct {
	pkg            string // message prefix, e.g. "csv"
	err            error  // the first bad value
	reader, writer string // the first reader-only and writer-only option
}

// New returns the bookkeeping of package pkg (its name starts messages).
func New(pkg string) Sides { return Sides{pkg: pkg} }

// Reader marks option name as one only readers take.
func (s *Sides) Reader(name string) {
	if s.reader == "" {
		s.reader = name
	}
}

// Writer marks option name as one only writers take.
func (s *Sides) Writer(name string) {
	if s.writer == "" {
		s.writer = name
	}
}

// Badf records a bad option value (the first one counts), as an error
// wrapping datatype.ErrInvalid.
func (s *Sides) Badf(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf(s.pkg+": %w: "+format, append([]any{datatype.ErrInvalid}, args...)...)
	}
}

// ForReader returns the first bad value, or an error naming a
// writer-only option given to a Reader.
func (s *Sides) ForReader() error {
	if s.err != nil {
		return s.err
	}
	if s.writer != "" {
		return fmt.Errorf("%s: %w: %s is an option of a Writer, not of a Reader", s.pkg, datatype.ErrInvalid, s.writer)
	}
	return nil
}

// ForWriter returns the first bad value, or an error naming a
// reader-only option given to a Writer.
func (s *Sides) ForWriter() error {
	if s.err != nil {
		return s.err
	}
	if s.reader != "" {
		return fmt.Errorf("%s: %w: %s is an option of a Reader, not of a Writer", s.pkg, datatype.ErrInvalid, s.reader)
	}
	return nil
}
