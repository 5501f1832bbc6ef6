package join

import (
	"fmt"
	"iter"
	"sync"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// Records yields the join's batches. Output order is deterministic and
// the same for any concurrency: the left side's batches in order, within
// one the left rows in order, each followed by its matching right rows
// in the right side's order (an unmatched left row of an outer join
// where its match would be); then, for right and full outer joins and
// right semi and anti joins, the right rows those output at the end, in
// the right side's order. Batches have at most WithBatchSize rows.
//
// Each call probes the left side anew: a left side that can be iterated
// once (a stream) can be joined once. Breaking out of the loop stops
// the probing goroutines before Records returns.
func (j *Reader) Records() iter.Seq2[*alkaid.Record, error] {
	return func(yield func(*alkaid.Record, error) bool) {
		if j.table == nil {
			yield(nil, invalid("Records after Close"))
			return
		}
		var matched []atomic.Bool
		switch j.typ {
		case RightOuter, FullOuter, RightSemi, RightAnti:
			matched = make([]atomic.Bool, j.build.NumRows())
		}
		var ok bool
		if j.cfg.concurrency == 1 {
			ok = j.serial(yield, matched)
		} else {
			ok = j.parallel(yield, matched)
		}
		if !ok || matched == nil {
			return
		}
		var idx []int64
		for r := range matched {
			if matched[r].Load() == (j.typ == RightSemi) {
				idx = append(idx, int64(r))
			}
		}
		recs, err := j.output(nil, nil, idx)
		if err != nil {
			yield(nil, fmt.Errorf("join: right rows after the left side: %w", err))
			return
		}
		for _, r := range recs {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// prober holds one goroutine's scratch space.
type prober struct {
	keys    keyBatch
	heads   []int32
	li, ri  []int64 // candidate pairs, reused batch after batch
	matched []atomic.Bool
}

func (j *Reader) serial(yield func(*alkaid.Record, error) bool, matched []atomic.Bool) bool {
	p := &prober{matched: matched}
	n := 0
	for rec, err := range j.left.Records() {
		if err != nil {
			return yield(nil, fmt.Errorf("join: reading the left side after %d batches: %w", n, err))
		}
		recs, err := j.probe(p, rec)
		if err != nil {
			return yield(nil, fmt.Errorf("join: left batch %d: %w", n, err))
		}
		for _, r := range recs {
			if !yield(r, nil) {
				return false
			}
		}
		n++
	}
	return true
}

type result struct {
	recs []*alkaid.Record
	err  error
}

type job struct {
	n   int
	rec *alkaid.Record
	out chan result
}

// parallel probes batches on cfg.concurrency goroutines and yields their
// output in the left side's order, so that the first error yielded is
// the one a serial run would meet.
func (j *Reader) parallel(yield func(*alkaid.Record, error) bool, matched []atomic.Bool) bool {
	workers := j.cfg.concurrency
	done := make(chan struct{})
	jobs := make(chan job)
	order := make(chan chan result, 2*workers)
	var wg sync.WaitGroup
	defer func() {
		close(done)
		wg.Wait()
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		defer close(order)
		n := 0
		for rec, err := range j.left.Records() {
			ch := make(chan result, 1)
			if err != nil {
				ch <- result{err: fmt.Errorf("join: reading the left side after %d batches: %w", n, err)}
				select {
				case order <- ch:
				case <-done:
				}
				return
			}
			select {
			case order <- ch:
			case <-done:
				return
			}
			select {
			case jobs <- job{n, rec, ch}:
			case <-done:
				return
			}
			n++
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &prober{matched: matched}
			for jb := range jobs {
				recs, err := j.probe(p, jb.rec)
				if err != nil {
					err = fmt.Errorf("join: left batch %d: %w", jb.n, err)
				}
				jb.out <- result{recs, err}
			}
		}()
	}
	for ch := range order {
		res := <-ch
		if res.err != nil {
			yield(nil, res.err)
			return false
		}
		for _, r := range res.recs {
			if !yield(r, nil) {
				return false
			}
		}
	}
	return true
}

// probe joins one left batch with the hash table.
func (j *Reader) probe(p *prober, rec *alkaid.Record) ([]*alkaid.Record, error) {
	n := rec.NumRows()
	if err := j.encode(&p.keys, rec, j.leftKey); err != nil {
		return nil, err
	}
	p.heads = grow(p.heads, n)
	j.table.lookup(&p.keys, p.heads)
	heads, next := p.heads, j.table.next

	if j.filter == nil {
		switch j.typ {
		case LeftSemi, LeftAnti:
			var idx []int64
			for i, h := range heads {
				if (h >= 0) == (j.typ == LeftSemi) {
					idx = append(idx, int64(i))
				}
			}
			return j.output(rec, idx, nil)
		case RightSemi, RightAnti:
			for _, h := range heads {
				for r := h; r >= 0; r = next[r] {
					mark(p.matched, r)
				}
			}
			return nil, nil
		}
	}

	// Candidate pairs: left row li[k] with right row ri[k]. Their
	// memory is reused for the next batch: output copies them.
	if cap(p.li) < n {
		p.li, p.ri = make([]int64, 0, n), make([]int64, 0, n)
	}
	li, ri := p.li[:0], p.ri[:0]
	defer func() { p.li, p.ri = li[:0], ri[:0] }()
	for i, h := range heads {
		for r := h; r >= 0; r = next[r] {
			li = append(li, int64(i))
			ri = append(ri, int64(r))
		}
	}
	if j.filter != nil {
		var err error
		if li, ri, err = j.applyFilter(rec, li, ri); err != nil {
			return nil, err
		}
	}
	if p.matched != nil {
		for _, r := range ri {
			mark(p.matched, int32(r))
		}
	}
	switch j.typ {
	case Inner, RightOuter:
		return j.output(rec, li, ri)
	case LeftOuter, FullOuter:
		ol := make([]int64, 0, len(li)+n)
		or := make([]int64, 0, len(li)+n)
		k := 0
		for i := range int64(n) {
			if k < len(li) && li[k] == i {
				for ; k < len(li) && li[k] == i; k++ {
					ol, or = append(ol, i), append(or, ri[k])
				}
				continue
			}
			ol, or = append(ol, i), append(or, -1)
		}
		return j.output(rec, ol, or)
	case LeftSemi, LeftAnti:
		var idx []int64
		k := 0
		for i := range int64(n) {
			has := false
			for ; k < len(li) && li[k] == i; k++ {
				has = true
			}
			if has == (j.typ == LeftSemi) {
				idx = append(idx, i)
			}
		}
		return j.output(rec, idx, nil)
	}
	return nil, nil // right semi and anti output at the end
}

func mark(m []atomic.Bool, r int32) {
	if !m[r].Load() {
		m[r].Store(true)
	}
}

// applyFilter keeps the candidate pairs where the residual filter is
// true.
func (j *Reader) applyFilter(rec *alkaid.Record, li, ri []int64) ([]int64, []int64, error) {
	if len(li) == 0 {
		return li, ri, nil
	}
	lt, rt := indexArray(li), indexArray(ri)
	cols := make([]array.Array, 0, j.full.NumFields())
	for _, c := range rec.Columns() {
		a, err := compute.Take(c, lt)
		if err != nil {
			return nil, nil, err
		}
		cols = append(cols, a)
	}
	for _, c := range j.build.Columns() {
		a, err := compute.Take(c, rt)
		if err != nil {
			return nil, nil, err
		}
		cols = append(cols, a)
	}
	cand, err := alkaid.NewRecord(j.full, cols, len(li))
	if err != nil {
		return nil, nil, err
	}
	v, err := j.filter.Eval(cand)
	if err != nil {
		return nil, nil, fmt.Errorf("filter: %w", err)
	}
	mask, ok := v.(*array.Boolean)
	if !ok {
		return nil, nil, fmt.Errorf("filter: %s evaluated to %s, not boolean: %w", j.filter, v.DataType(), datatype.ErrInvalid)
	}
	k := 0
	for i := range li {
		if mask.IsValid(i) && mask.Value(i) {
			li[k], ri[k] = li[i], ri[i]
			k++
		}
	}
	return li[:k], ri[:k], nil
}

// indexArray makes take indices of idx, -1 standing for null.
func indexArray(idx []int64) *array.Int64 {
	var valid []bool
	for i, v := range idx {
		if v < 0 {
			if valid == nil {
				valid = make([]bool, len(idx))
				for k := range i {
					valid[k] = true
				}
			}
			continue
		}
		if valid != nil {
			valid[i] = true
		}
	}
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b.AppendValues(idx, valid)
	return b.Finish()
}

// output gathers the selected columns: left columns from rec at li,
// right ones from the build side at ri (nil li: every left column
// null). It returns batches of at most the batch size.
func (j *Reader) output(rec *alkaid.Record, li, ri []int64) ([]*alkaid.Record, error) {
	rows := max(len(li), len(ri))
	if rows == 0 {
		return nil, nil
	}
	nl := j.full.NumFields() - j.build.NumCols()
	needLeft, needRight := false, false
	for _, c := range j.sel {
		needLeft, needRight = needLeft || c < nl, needRight || c >= nl
	}
	if !needLeft {
		li = nil
	}
	if !needRight {
		ri = nil
	}
	var recs []*alkaid.Record
	for lo := 0; lo < rows; lo += j.cfg.batchSize {
		hi := min(lo+j.cfg.batchSize, rows)
		var lt, rt *array.Int64
		if li != nil {
			lt = indexArray(li[lo:hi])
		}
		if ri != nil {
			rt = indexArray(ri[lo:hi])
		}
		cols := make([]array.Array, len(j.sel))
		for i, c := range j.sel {
			var err error
			switch {
			case c < nl && lt != nil:
				cols[i], err = compute.Take(rec.Column(c), lt)
			case c >= nl && rt != nil:
				cols[i], err = compute.Take(j.build.Column(c-nl), rt)
			default:
				cols[i], err = nulls(j.full.Field(c).Type, hi-lo)
			}
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", j.full.Field(c).Name, err)
			}
		}
		r, err := alkaid.NewRecord(j.schema, cols, hi-lo)
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return recs, nil
}

func nulls(t datatype.DataType, n int) (array.Array, error) {
	b, err := array.TryNewBuilder(t)
	if err != nil {
		return nil, err
	}
	b.AppendNulls(n)
	return b.NewArray(), nil
}
