package cli

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/dataset"
	"github.com/alkaid-go/alkaid/ipc"
)

var convertCmd = command{
	name:  "convert",
	args:  "IN OUT",
	short: "Rewrite a stream, file (either magic) or Parquet file as a stream, file or Parquet file.",
	long: `
IN is read as a file when it starts with a file magic (ALKAID1 or ARROW1)
and its footer reads, as Parquet when it starts with PAR1 (record batches
of at most 65536 rows), else as a stream; "-" is stdin (a file there, IPC
or Parquet, is copied to a temporary file in $TMPDIR, up to 64 GiB, to
reach its footer). OUT ending in .ipc (.arrow)
is a file, .ipcs (.arrows) a stream, .parquet (or -to parquet) a Parquet
file written with -codec and -row-group-rows, "-" is stdout (a stream);
without an extension OUT takes IN's form (a file for a Parquet IN); any
other extension is an error (CSV and JSON are written by export) unless
-to says the form. Values,
dictionaries, extension types, schema, field, message and footer metadata
are kept (Parquet holds no message nor footer metadata). Writing a file
from a stream whose dictionaries are replaced between batches re-encodes
them as one growing dictionary (same values), since files allow only
deltas.

Batches are read and written one at a time. A file whose footer is missing
(its writer died) is converted up to its last complete record batch; the
output is complete and valid, and the exit code is 1 with the reason.` + queryHelp,
}

func runConvert(args []string) int {
	c := convertCmd
	fs := c.newFlags()
	var of outFlags
	of.register(fs)
	var dsf dsOutFlags
	dsf.register(fs)
	batchRows := fs.Int("batch-rows", 0, "rows per output batch (0: keep the input's batches)")
	quiet := fs.Bool("q", false, "no progress line")
	var q queryFlags
	q.register(fs)
	if done, code := c.parse(fs, args, 2); done {
		return code
	}
	return c.fail(convert(fs.Arg(0), fs.Arg(1), &of, &dsf, *batchRows, *quiet, &q))
}

func convert(inPath, outPath string, of *outFlags, dsf *dsOutFlags, batchRows int, quiet bool, q *queryFlags) error {
	if batchRows < 0 {
		return usagef("-batch-rows %d: must not be negative", batchRows)
	}
	if inPath != "-" && inPath == outPath {
		return usagef("IN and OUT are the same file")
	}
	var dsOpts []dataset.Option
	if dsf.wanted(outPath) {
		if batchRows != 0 {
			return usagef("-batch-rows applies to a file or stream OUT; a dataset's files are cut by -max-rows-per-file and -row-group-rows")
		}
		var err error
		if dsOpts, err = dsf.options(of); err != nil {
			return err
		}
	} else if dsf.set() {
		return usagef("-layout, -max-rows-per-file and -existing apply to a dataset OUT (a directory, or -partition-by)")
	}
	in, err := openInput(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := q.apply(in); err != nil {
		return err
	}
	if dsOpts != nil {
		return writeDataset(in, inPath, outPath, dsOpts)
	}
	o, err := of.openOutput(outPath, in.Schema(), !in.stream, inPath)
	if err != nil {
		return err
	}
	if fw, ok := o.w.(*ipc.FileWriter); ok && in.isFile() {
		if m := in.file.FooterMetadata(); len(m) > 0 {
			fw.SetFooterMetadata(m)
		}
	}
	p := newProgress("convert", quiet)
	write := func(rec *alkaid.Record, meta map[string]string) error {
		if err := o.write(rec, meta); err != nil {
			return err
		}
		p.update(o.rows, o.bytes())
		return nil
	}
	rb := &rebatcher{size: batchRows, emit: write}
	var readErr error
	for rec, err := range in.Records() {
		if err != nil {
			readErr = err
			break
		}
		if batchRows == 0 {
			err = write(rec, in.batchMeta())
		} else {
			err = rb.add(rec, in.batchMeta())
		}
		if err != nil {
			readErr = err
			break
		}
	}
	var writeErr error
	if readErr == nil || in.salvaged() {
		writeErr = rb.flush()
	}
	p.done(o.rows, o.bytes())
	if writeErr != nil {
		return o.abort(writeErr)
	}
	// After a read error the output still holds every batch read,
	// complete and valid: in place when the input was read to its end
	// (a file without footer), else beside the output path.
	if !completeDespite(in, readErr) {
		return o.keep(fmt.Errorf("%s: %w (wrote %d record batches, %d rows)", inPath, readErr, o.batches, o.rows))
	}
	if err := o.close(); err != nil {
		return err
	}
	if readErr != nil {
		return fmt.Errorf("%s: %w (wrote %d record batches, %d rows)", inPath, readErr, o.batches, o.rows)
	}
	return nil
}

// rebatcher regroups record batches into batches of size rows (the last
// may be shorter): big batches are sliced, small ones concatenated.
type rebatcher struct {
	size    int
	pending []*alkaid.Record
	meta    map[string]string
	rows    int
	emit    func(*alkaid.Record, map[string]string) error
}

func (b *rebatcher) add(rec *alkaid.Record, meta map[string]string) error {
	for rec.NumRows() > 0 {
		take := min(b.size-b.rows, rec.NumRows())
		if len(b.pending) == 0 {
			b.meta = meta
		}
		b.pending = append(b.pending, rec.Slice(0, take))
		b.rows += take
		rec = rec.Slice(take, rec.NumRows())
		if b.rows == b.size {
			if err := b.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *rebatcher) flush() error {
	if len(b.pending) == 0 {
		return nil
	}
	rec, err := alkaid.ConcatRecords(b.pending...)
	if err != nil {
		return err
	}
	b.pending, b.rows = b.pending[:0], 0
	return b.emit(rec, b.meta)
}
