package csv

import (
	"fmt"
	"io"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// infer returns a field per column, typed from the sample (or, with
// WithInferAll, from the whole input, which is then read again).
func (rd *Reader) infer() ([]*datatype.Field, error) {
	ins := make([]textval.Inferrer, rd.width)
	for i := range ins {
		ins[i] = textval.Inferrer{True: rd.cfg.trues, False: rd.cfg.falses, Layouts: rd.cfg.layouts, BinaryFallback: rd.cfg.utf8Binary, TrimSpace: rd.cfg.trimSpace}
	}
	sp := rd.splitter()
	// One index serves every chunk; it is sized up front for the sample,
	// whose records are counted: grown by doubling, its copying and
	// clearing cost inference about a sixth of its time.
	var f fields
	observe := func(chunk []byte, line int) error {
		f.reset()
		if err := sp.split(chunk, line, &f); err != nil {
			return err
		}
		for row := range f.rows {
			for c := range rd.width {
				at := row*rd.width + c
				if v := f.bytes(chunk, at); f.cells[at].quoted || !rd.isNull(v) {
					ins[c].Observe(v)
				}
			}
		}
		return nil
	}
	if rd.cfg.inferAll {
		for {
			chunk, line, err := rd.src.next(rd.cfg.batchRows)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if err := observe(chunk, line); err != nil {
				return nil, err
			}
		}
		if _, err := rd.in.(io.Seeker).Seek(rd.start, io.SeekStart); err != nil {
			return nil, fmt.Errorf("csv: WithInferAll: seeking the input: %w", err)
		}
		names := rd.names
		if err := rd.begin(); err != nil {
			return nil, err
		}
		rd.names = names
	} else {
		sample, recs, err := rd.src.peek(rd.cfg.inferRows)
		if err != nil {
			return nil, err
		}
		// recs×width cells, but no more than a cell per byte of the
		// sample and record: a record of width cells has at least
		// width-1 bytes, so short records (an error) cannot make the
		// index bigger than the input.
		n := len(sample) + recs
		if recs > 0 && rd.width <= n/recs {
			n = recs * rd.width
		}
		f.cells = make([]cell, 0, n)
		f.lines = make([]int, 0, recs)
		if err := observe(sample, rd.src.line); err != nil {
			return nil, err
		}
	}
	out := make([]*datatype.Field, rd.width)
	fields := make([]datatype.Field, rd.width)
	for i := range out {
		fields[i] = datatype.Field{Name: rd.names[i], Type: ins[i].Type(), Nullable: true}
		out[i] = &fields[i]
	}
	return out, nil
}
