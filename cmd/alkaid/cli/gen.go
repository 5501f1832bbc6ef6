package cli

import (
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

var genCmd = command{
	name:  "gen",
	args:  "-o OUT",
	short: "Write synthetic data of every type, the same for the same seed.",
	long: `
The schema has one nullable column of every type of the format (primitive,
temporal, decimal, binary and views, lists of every kind, struct, map,
unions, dictionaries, run-end encoding, nested combinations); -columns picks
some of them by name. Rows are generated in batches of at most -batch-rows
(default 65536), so memory stays bounded however many rows are asked for.
Every batch shares the first batch's dictionaries (indices are drawn within
them), which the file format requires and keeps files small.

OUT ending in .ipc (.arrow) is a file, .ipcs (.arrows) a stream,
.parquet Parquet, "-" is stdout (a stream unless -to file); without an
extension a file; any other extension is an error unless -to says the
form.`,
}

const defaultBatchRows = 64 << 10

func runGen(args []string) int {
	c := genCmd
	fs := c.newFlags()
	rows := fs.Int64("rows", 1000, "number of rows")
	batches := fs.Int64("batches", 0, "number of record batches (0: rows / batch-rows, rounded up)")
	batchRows := fs.Int64("batch-rows", defaultBatchRows, "rows per batch when -batches is 0")
	seed := fs.Uint64("seed", 1, "random seed")
	nulls := fs.Float64("nulls", 0.1, "fraction of null slots in nullable columns")
	columns := fs.String("columns", "", "comma-separated column names to keep (default: all)")
	out := fs.String("o", "", "output path (- for stdout)")
	quiet := fs.Bool("q", false, "no progress line")
	var of outFlags
	of.register(fs)
	if done, code := c.parse(fs, args, 0); done {
		return code
	}
	return c.fail(gen(*out, *rows, *batches, *batchRows, *seed, *nulls, *columns, &of, *quiet))
}

func gen(out string, rows, batches, batchRows int64, seed uint64, nulls float64, columns string, of *outFlags, quiet bool) error {
	switch {
	case out == "":
		return usagef("-o OUT is required")
	case rows < 0:
		return usagef("-rows %d: must not be negative", rows)
	case batches < 0:
		return usagef("-batches %d: must not be negative", batches)
	case batchRows <= 0:
		return usagef("-batch-rows %d: must be positive", batchRows)
	case nulls < 0 || nulls > 1:
		return usagef("-nulls %g: want a fraction in [0, 1]", nulls)
	}
	schema, err := genSchema(columns)
	if err != nil {
		return err
	}
	if batches == 0 {
		batches = (rows + batchRows - 1) / batchRows
	}
	o, err := of.openOutput(out, schema, true)
	if err != nil {
		return err
	}
	g := randdata.New(seed)
	g.NullFraction = nulls
	p := newProgress("gen", quiet)
	var first *alkaid.Record
	for b := range batches {
		// Spread rows evenly: batch b gets rows*(b+1)/batches - rows*b/batches.
		n := int(rows*(b+1)/batches - rows*b/batches)
		rec := g.Record(schema, n)
		if first == nil {
			first = rec
		} else if rec, err = shareRecordDictionaries(first, rec); err != nil {
			return o.abort(err)
		}
		if err := o.write(rec, nil); err != nil {
			return o.abort(err)
		}
		p.update(o.rows, o.bytes())
	}
	p.done(o.rows, o.bytes())
	return o.close()
}

// genSchema is randdata.AllTypes, restricted to the named columns.
func genSchema(columns string) (*alkaid.Schema, error) {
	all := randdata.AllTypes()
	if columns == "" {
		return all, nil
	}
	var fields []datatype.Field
	for _, name := range strings.Split(columns, ",") {
		i := all.FieldIndex(strings.TrimSpace(name))
		if i < 0 {
			return nil, usagef("-columns: no column %s; the columns are %s", quote.String(name), strings.Join(fieldNames(all), ","))
		}
		fields = append(fields, all.Field(i))
	}
	return alkaid.NewSchema(fields, all.Metadata()), nil
}

func fieldNames(s *alkaid.Schema) []string {
	names := make([]string, s.NumFields())
	for i := range names {
		names[i] = s.Field(i).Name
	}
	return names
}

func shareRecordDictionaries(first, rec *alkaid.Record) (*alkaid.Record, error) {
	cols := rec.Columns()
	for i, col := range cols {
		if array.HasDictionary(col.DataType()) {
			cols[i] = array.MustMake(shareDictionaries(first.Column(i).Data(), col.Data()))
		}
	}
	return alkaid.NewRecord(rec.Schema(), cols, rec.NumRows())
}
