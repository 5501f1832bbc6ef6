package dataset

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/parquet"
)

// result is what a unit sends the consumer: a record or the error that
// ends the scan.
type result struct {
	rec *alkaid.Record
	err error
}

// handle is a file opened for a scan, shared by its units and closed by
// the last to release it.
type handle struct {
	src      *source
	f        File
	r        *fileReader
	refs     atomic.Int32
	skipped  atomic.Bool
	readCols []string            // the file's columns to read
	outCols  []string            // those of them the scan's output needs
	preds    []parquet.Predicate // the file's filter's conditions Parquet can decide
	where    *expr.Expr          // the file's filter (see fileFilter), for a Parquet file
	// filter is the file's filter bound (nil when every row passes),
	// made once by the first record's fileMask.
	filterOnce sync.Once
	filter     *expr.Bound
	filterErr  error
	// rowFilter is the file's filter bound to the scan's rowSchema, for
	// the Parquet reader's row filter (see rowFilterColumns).
	rowOnce   sync.Once
	rowFilter *expr.Bound
	rowErr    error

	// sized is the file with the scan's columns selected, for the
	// estimates of unitSize, made once.
	sizeOnce sync.Once
	sized    *parquet.File

	mu     sync.Mutex
	consts map[int]array.Array // partition columns built so far, by field
}

// constant is rows rows of the partition value one of dataset field i:
// a slice of the longest such column built for the file so far.
func (h *handle) constant(i int, one array.Array, rows int, dict bool) (array.Array, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.consts[i]
	if a == nil || a.Len() < rows {
		var err error
		if a, err = constColumn(one, rows, dict); err != nil {
			return nil, err
		}
		if h.consts == nil {
			h.consts = map[int]array.Array{}
		}
		h.consts[i] = a
	}
	if a.Len() == rows {
		return a, nil
	}
	return array.Slice(a, 0, rows), nil
}

func (h *handle) release() {
	if h.refs.Add(-1) == 0 && h.f != nil {
		h.f.Close()
	}
}

// unopened is a handle of a Parquet file that a scan counting rows only
// reads nothing of: its row group sizes came with discovery.
func unopened(src *source) *handle {
	h := &handle{src: src}
	h.refs.Store(1)
	return h
}

// unit is a part of the scan read by one goroutine: a row group of an
// open Parquet file (h), a whole file of another format to open (src), or
// a file that failed to open (err). hold is what it took of the scan's
// readahead.
type unit struct {
	h        *handle
	src      *source
	rowGroup int
	err      error
	hold     int64
	// decoders is the concurrency the unit's row group decodes its
	// columns at: 1 (0) when units run in parallel.
	decoders int
}

// maxUnits is the most units a scan has in flight, however small their
// estimates: each unit's share of the readahead is at least 1/maxUnits.
const maxUnits = 256

// run reads the units on goroutines, at most the concurrency decoding at
// once and as many started as the readahead allows (see WithReadahead),
// and yields their records in unit order or as they come.
func (s *Scan) run(yield func(*alkaid.Record, error) bool) {
	deliver := func(r result) bool {
		if r.err != nil {
			yield(nil, r.err)
			return false
		}
		s.stats.rows.add(int64(r.rec.NumRows()))
		return yield(r.rec, nil)
	}
	keep, errs := s.prune()
	pre := s.openOnly(keep, errs)
	if s.atMostOneUnit(keep, errs, pre) {
		s.runInline(keep, errs, pre, deliver)
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	n := s.cfg.concurrency
	room := newBudget(s.cfg.readahead, n)
	cpu := make(chan struct{}, n)
	ahead := s.openAhead(ctx, keep, errs, pre)
	if s.cfg.unordered {
		out := make(chan result, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var workers sync.WaitGroup
			s.dispatch(ctx, room, keep, errs, ahead, func(u unit) {
				workers.Add(1)
				go func() {
					defer workers.Done()
					defer room.give(u.hold)
					s.work(ctx, cpu, u, out)
				}()
			})
			workers.Wait()
			close(out)
		}()
		for r := range out {
			if !deliver(r) {
				return
			}
		}
	} else {
		type job struct {
			ch   chan result
			hold int64
		}
		jobs := make(chan job, maxUnits)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(jobs)
			s.dispatch(ctx, room, keep, errs, ahead, func(u unit) {
				ch := make(chan result, 1)
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer close(ch)
					s.work(ctx, cpu, u, ch)
				}()
				select {
				case jobs <- job{ch, u.hold}:
				case <-ctx.Done():
				}
			})
		}()
		for j := range jobs {
			for r := range j.ch {
				if !deliver(r) {
					return
				}
			}
			room.give(j.hold)
		}
	}
	if err := s.ctx.Err(); err != nil {
		yield(nil, err)
	}
}

// opened is a Parquet file opened ahead of its turn (see openAhead).
type opened struct {
	h   *handle
	err error
}

// prune marks the files whose partition values (and, where discovery
// read it, schema) leave rows that may pass the filter.
func (s *Scan) prune() (keep []bool, errs []error) {
	keep = make([]bool, len(s.files))
	errs = make([]error, len(s.files))
	for i, src := range s.files {
		keep[i], errs[i] = s.partitionsMatch(src)
		if errs[i] == nil && keep[i] && src.schema != nil {
			keep[i] = s.columnsMatch(src, src.schema)
		}
	}
	return keep, errs
}

// openOnly opens, on the caller's goroutine, the one file the pruned scan
// reads when it is a Parquet file whose row groups discovery did not
// count (WithSchema), so that atMostOneUnit can count them; nil when the
// scan reads another number of files.
func (s *Scan) openOnly(keep []bool, errs []error) map[int]opened {
	only := -1
	for i := range s.files {
		if keep[i] || errs[i] != nil {
			if only >= 0 {
				return nil
			}
			only = i
		}
	}
	if only < 0 || errs[only] != nil {
		return nil
	}
	if src := s.files[only]; src.format != files.FormatParquet || src.groupRows != nil || s.countable(src) {
		return nil
	}
	h, err := s.open(s.files[only])
	return map[int]opened{only: {h, err}}
}

// atMostOneUnit reports whether the pruned scan reads at most one unit:
// one file of one row group (as discovery or openOnly found it, in pre)
// or of another format, or a file that failed.
func (s *Scan) atMostOneUnit(keep []bool, errs []error, pre map[int]opened) bool {
	n := 0
	for i, src := range s.files {
		o, opened := pre[i]
		switch {
		case opened && o.err != nil:
			n++ // a unit reporting the error
		case opened && o.h == nil:
			continue // ruled out by its schema
		case opened:
			n += o.h.r.pq.NumRowGroups()
		case errs[i] == nil && !keep[i]:
			continue
		case errs[i] == nil && src.format == files.FormatParquet && src.groupRows == nil:
			return false // its row groups are not known before it is opened
		case errs[i] == nil && src.format == files.FormatParquet:
			n += len(src.groupRows)
		default:
			n++
		}
		if n > 1 {
			return false
		}
	}
	return true
}

// runInline runs a scan of at most one unit on the consumer's goroutine,
// where goroutines would only hand the work from one to the next; the
// unit's row group decodes its columns at the scan's concurrency.
func (s *Scan) runInline(keep []bool, errs []error, pre map[int]opened, deliver func(result) bool) {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	stopped := false
	stop := func(r result) bool {
		if !stopped && !deliver(r) {
			stopped = true
			cancel()
		}
		return !stopped
	}
	room := newBudget(s.cfg.readahead, 1)
	s.dispatch(ctx, room, keep, errs, &opener{inline: s, pre: pre}, func(u unit) {
		defer room.give(u.hold)
		u.decoders = s.cfg.concurrency
		err := s.runUnit(ctx, u, func() bool { return ctx.Err() == nil }, func(rec *alkaid.Record) bool {
			return stop(result{rec: rec})
		})
		if err != nil {
			stop(result{err: err})
		}
	})
	if err := s.ctx.Err(); err != nil && !stopped {
		deliver(result{err: err})
	}
}

// dispatch starts, in file order, each unit of the files keep marks (or
// errs names) once room has its estimated size, the Parquet files
// taken from ahead.
func (s *Scan) dispatch(ctx context.Context, room *budget, keep []bool, errs []error, ahead *opener, start func(unit)) {
	least := s.cfg.readahead / maxUnits
	acquire := func(u *unit, size func() int64) bool {
		var ok bool
		u.hold, ok = room.take(ctx, func() int64 { return max(size(), least) })
		return ok
	}
	srcs := s.files
	defer ahead.stop()
	for i, src := range srcs {
		s.stats.files.add(1)
		err := errs[i]
		if err == nil && !keep[i] {
			s.stats.filesPruned.add(1)
			continue
		}
		if err == nil && src.format != files.FormatParquet {
			// A whole-file unit opens its file itself, so that opening
			// (for CSV and NDJSON, inferring a schema) runs in parallel.
			u := unit{src: src}
			share := s.cfg.readahead / int64(s.cfg.concurrency)
			if src.size >= 0 {
				share = min(src.size, share)
			}
			if !acquire(&u, func() int64 { return share }) {
				return
			}
			start(u)
			continue
		}
		var h *handle
		if err == nil && s.countable(src) {
			h = unopened(src)
		} else if err == nil {
			o, ok := ahead.take(ctx, i)
			if !ok {
				return
			}
			h, err = o.h, o.err
		}
		if err != nil {
			u := unit{err: fileErr(src.path, err)}
			if !acquire(&u, func() int64 { return 0 }) {
				return
			}
			start(u)
			continue
		}
		if h == nil {
			s.stats.filesPruned.add(1)
			continue
		}
		groups := len(src.groupRows)
		if h.r != nil {
			groups = h.r.pq.NumRowGroups()
		}
		s.stats.rowGroups.add(int64(groups))
		for g := range groups {
			u := unit{h: h, rowGroup: g}
			if !acquire(&u, func() int64 { return s.unitSize(h, g) }) {
				break
			}
			h.refs.Add(1)
			start(u)
		}
		h.release()
		if ctx.Err() != nil {
			return
		}
	}
}

// opener opens the Parquet files of a scan ahead of the dispatcher: on
// up to the scan's concurrency goroutines, in file order, and at most
// that many opened and not yet taken, so that footers are read in
// parallel and before the row groups are handed out.
type opener struct {
	ch     []chan opened // per file; nil for the files not opened ahead
	todo   []int
	slots  chan struct{}
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// inline, when set, is the scan whose files take opens itself, on
	// the caller's goroutine (see runInline).
	inline *Scan
	// pre are files opened before the opener started (see openOnly),
	// until taken.
	pre map[int]opened
}

// openAhead starts opening the Parquet files that keep marks and errs
// does not rule out.
func (s *Scan) openAhead(ctx context.Context, keep []bool, errs []error, pre map[int]opened) *opener {
	o := &opener{ch: make([]chan opened, len(s.files)), slots: make(chan struct{}, s.cfg.concurrency), pre: pre}
	for i, src := range s.files {
		if _, ok := pre[i]; ok {
			continue
		}
		if keep[i] && errs[i] == nil && src.format == files.FormatParquet && !s.countable(src) {
			o.ch[i] = make(chan opened, 1)
			o.todo = append(o.todo, i)
		}
	}
	ctx, o.cancel = context.WithCancel(ctx)
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		for _, i := range o.todo {
			select {
			case o.slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			o.wg.Add(1)
			go func() {
				defer o.wg.Done()
				h, err := s.open(s.files[i])
				o.ch[i] <- opened{h, err}
			}()
		}
	}()
	return o
}

// take waits for file i (one opened ahead) and frees its slot; ok is
// false once ctx is done.
func (o *opener) take(ctx context.Context, i int) (opened, bool) {
	if ctx.Err() != nil {
		return opened{}, false // stop releases what pre holds
	}
	if x, ok := o.pre[i]; ok {
		delete(o.pre, i)
		return x, true
	}
	if o.inline != nil {
		h, err := o.inline.open(o.inline.files[i])
		return opened{h, err}, true
	}
	select {
	case x := <-o.ch[i]:
		<-o.slots
		return x, true
	case <-ctx.Done():
		return opened{}, false
	}
}

// stop ends the openers and releases the files opened but not taken.
func (o *opener) stop() {
	for _, x := range o.pre {
		if x.h != nil {
			x.h.release()
		}
	}
	o.pre = nil
	if o.inline != nil {
		return
	}
	o.cancel()
	o.wg.Wait()
	for _, i := range o.todo {
		select {
		case x := <-o.ch[i]:
			if x.h != nil {
				x.h.release()
			}
		default:
		}
	}
}

// work reads unit u, sending its records and its error (unless skipped)
// to out. It decodes while it holds a slot of cpu: from the moment
// readUnit says it is ready (its row group's chunks asked for) until
// it waits for out, and again once out took the record.
func (s *Scan) work(ctx context.Context, cpu chan struct{}, u unit, out chan<- result) {
	held := false
	ready := func() bool {
		if !held {
			select {
			case cpu <- struct{}{}:
				held = true
			case <-ctx.Done():
			}
		}
		return held
	}
	defer func() {
		if held {
			<-cpu
		}
	}()
	send := func(r result) bool {
		select {
		case out <- r:
			return true
		default:
		}
		if held {
			<-cpu
			held = false
		}
		select {
		case out <- r:
			return true
		case <-ctx.Done():
			return false
		}
	}
	err := s.runUnit(ctx, u, ready, func(rec *alkaid.Record) bool { return send(result{rec: rec}) && ready() })
	if err != nil {
		send(result{err: err})
	}
}

// runUnit reads unit u, opening its file first for a whole-file unit,
// and emits its records. The error it returns, naming the file, ends the
// scan; with WithSkipCorrupt the file is counted as skipped instead.
func (s *Scan) runUnit(ctx context.Context, u unit, ready func() bool, emit func(*alkaid.Record) bool) error {
	err := u.err
	if err == nil && u.h == nil {
		if !ready() {
			return nil
		}
		if u.h, err = s.open(u.src); err != nil {
			err = fileErr(u.src.path, err)
		} else if u.h == nil {
			s.stats.filesPruned.add(1)
			return nil
		}
	}
	if err == nil {
		defer u.h.release()
		if err = s.readUnit(ctx, u, ready, emit); err != nil {
			err = fileErr(u.h.src.path, err)
		}
	}
	if err == nil || !s.d.cfg.skipCorrupt {
		return err
	}
	if u.h == nil || !u.h.skipped.Swap(true) {
		s.stats.filesSkipped.add(1)
	}
	return nil
}

// unitSize estimates what row group g of h holds while it is read and
// waits for the consumer (see WithReadahead).
func (s *Scan) unitSize(h *handle, g int) int64 {
	if h.r == nil || h.r.pq == nil {
		return 0 // rows counted from the footer
	}
	h.sizeOnce.Do(func() {
		sel, err := h.r.pq.Select(parquet.WithColumns(h.readCols...))
		if err == nil {
			h.sized = sel
		}
	})
	if h.sized == nil {
		return 0 // the read reports the error
	}
	info := h.sized.RowGroup(g)
	arrays := info.Decoded
	if b := int64(s.cfg.batchSize); b > 0 && info.Rows > 2*b {
		arrays = arrays / info.Rows * 2 * b
	}
	return info.Working + arrays
}
