package cli

import (
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/ndjson"
)

var importCmd = command{
	name:  "import",
	args:  "IN OUT",
	short: "Read CSV or newline-delimited JSON into a stream, file or Parquet file.",
	long: `
The format comes from -format, else IN's extension (.json, .ndjson, .jsonl:
newline-delimited JSON; anything else: CSV). "-" is stdin / stdout. OUT's
extension must be one the tool writes (.ipc, .arrow, .feather: file;
.ipcs, .arrows: stream; .parquet: Parquet, see -codec and -row-group-rows)
or none; -to may give another extension the form to write, but never a
text one (.csv, .json, …: see export) and -to parquet never an IPC one.

Without -schema the types are inferred from the first -infer-rows rows (or
the whole input with -infer-all, which reads a file twice): integers
(int64; a decimal when a value does not fit int64), floats (float64 when
every value has at most 15 significant digits, else a decimal), booleans,
dates, times and timestamps (ISO-8601; tz=UTC when the values carry a
zone), else strings; in JSON, objects become structs and arrays lists, and
a field whose values disagree widens int → float → string. Nothing is lost
silently: a later value that does not fit its column, a string that is not
UTF-8, a line with the wrong number of fields is an error naming the line,
the column and the value.

-schema FILE is either an IPC stream or file or a Parquet file (its schema
is used) or a text file of "name: type" lines in the syntax "alkaid
schema" prints, e.g.

    id: int64 not null
    price: decimal128(10, 2)
    at: timestamp[ms, tz=UTC]

CSV columns are matched to the schema's fields by header name (a field
without a column or a column without a field is an error naming them);
-positional matches them by position. In CSV an unquoted empty cell is null
and a quoted one the empty string; binary is base64. Input is read in
batches of -batch-rows rows, parsed on all cores, so memory stays bounded.`,
}

func runImport(args []string) int {
	c := importCmd
	fs := c.newFlags()
	format := fs.String("format", "", "csv or ndjson (default: from IN's extension, else csv)")
	schemaPath := fs.String("schema", "", "`FILE` with the schema (IPC data, or \"name: type\" lines); default: inferred")
	positional := fs.Bool("positional", false, "CSV: match the schema's fields to the columns by position, not by header name")
	batchRows := fs.Int("batch-rows", defaultBatchRows, "rows per record batch")
	inferRows := fs.Int("infer-rows", 10000, "rows read to infer types")
	inferAll := fs.Bool("infer-all", false, "infer types from the whole input (a file, read twice)")
	delim := fs.String("delimiter", ",", "CSV field delimiter (one ASCII character)")
	header := fs.Bool("header", true, "CSV: the first line holds the column names (else col_1, col_2, …)")
	quiet := fs.Bool("q", false, "no progress line")
	var of outFlags
	of.register(fs)
	if done, code := c.parse(fs, args, 2); done {
		return code
	}
	opt := importOptions{format: *format, schemaPath: *schemaPath, positional: *positional, batchRows: *batchRows,
		inferRows: *inferRows, inferAll: *inferAll, delim: *delim, header: *header, quiet: *quiet, out: &of}
	return c.fail(importText(fs.Arg(0), fs.Arg(1), opt))
}

type importOptions struct {
	format, schemaPath   string
	positional           bool
	batchRows, inferRows int
	inferAll             bool
	delim                string
	header, quiet        bool
	out                  *outFlags
}

// textReader is what the csv and ndjson readers share.
type textReader interface {
	Schema() *alkaid.Schema
	Records() iter.Seq2[*alkaid.Record, error]
	Offset() int64
}

func importText(inPath, outPath string, opt importOptions) error {
	format, err := textFormat(opt.format, inPath)
	if err != nil {
		return err
	}
	if opt.batchRows <= 0 {
		return usagef("-batch-rows %d: must be positive", opt.batchRows)
	}
	if opt.inferRows <= 0 {
		return usagef("-infer-rows %d: must be positive", opt.inferRows)
	}
	comma, err := oneByte(opt.delim)
	if err != nil {
		return err
	}
	// Overwriting the input is the graver mistake: name it first, even
	// when the output's extension is also wrong (import x.csv x.csv).
	if err := notAnInput(outPath, []string{inPath, opt.schemaPath}); err != nil {
		return err
	}
	if err := checkOutExt(outPath, opt.out); err != nil {
		return err
	}
	var schema *alkaid.Schema
	if opt.schemaPath != "" {
		if schema, err = loadSchema(opt.schemaPath); err != nil {
			return err
		}
	}
	var src io.Reader = cmdStdin
	name, size := "stdin", int64(0)
	if schemeOf(inPath) != "" {
		f, n, closer, err := openRemoteFile(inPath)
		if err != nil {
			return err
		}
		defer closer.Close()
		src, name, size = f, inPath, n
	} else if inPath != "-" {
		f, err := os.Open(inPath)
		if err != nil {
			return err
		}
		defer f.Close()
		src, name = f, inPath
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	} else if opt.inferAll {
		return usagef("-infer-all reads the input twice: give a file, not stdin")
	}
	var rd textReader
	if format == "csv" {
		opts := []csv.Option{csv.WithBatchSize(opt.batchRows), csv.WithInferRows(opt.inferRows),
			csv.WithDelimiter(comma), csv.WithHeader(opt.header)}
		if schema != nil {
			opts = append(opts, csv.WithSchema(schema))
		}
		if opt.positional {
			opts = append(opts, csv.WithPositional())
		}
		if opt.inferAll {
			opts = append(opts, csv.WithInferAll())
		}
		rd, err = csv.NewReader(src, opts...)
	} else {
		opts := []ndjson.Option{ndjson.WithBatchSize(opt.batchRows), ndjson.WithInferRows(opt.inferRows)}
		if schema != nil {
			opts = append(opts, ndjson.WithSchema(schema))
		}
		if opt.inferAll {
			opts = append(opts, ndjson.WithInferAll())
		}
		rd, err = ndjson.NewReader(src, opts...)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if rd.Schema().NumFields() == 0 {
		return fmt.Errorf("%s: no columns", name)
	}
	// The output is created here, once the input's schema is known.
	o, err := opt.out.openOutput(outPath, rd.Schema(), true, inPath, opt.schemaPath)
	if err != nil {
		return err
	}
	p := newProgress("import", opt.quiet).withTotal(size)
	for rec, rerr := range rd.Records() {
		if rerr != nil {
			err = rerr
			break
		}
		if err = o.write(rec, nil); err != nil {
			break
		}
		p.update(o.rows, rd.Offset())
	}
	p.done(o.rows, rd.Offset())
	if err != nil {
		return o.abort(fmt.Errorf("%s: %w", name, err))
	}
	return o.close()
}

// oneByte reads a one-character ASCII delimiter flag.
func oneByte(s string) (byte, error) {
	if len(s) != 1 || s[0] == '"' || s[0] == '\n' || s[0] == '\r' || s[0] >= 0x80 {
		return 0, usagef("-delimiter %s: want one ASCII character other than a quote or newline", quote.String(s))
	}
	return s[0], nil
}

// maxSchemaText bounds a -schema file of "name: type" lines.
const maxSchemaText = 16 << 20

// loadSchema reads a schema from IPC or Parquet data (see openSchema) or
// from "name: type" lines.
func loadSchema(path string) (*alkaid.Schema, error) {
	if s, _, err := openSchema("import", path, false); err == nil {
		return s, nil
	}
	text, err := readAtMost(path, maxSchemaText)
	if err != nil {
		return nil, fmt.Errorf("-schema %s: %w", path, err)
	}
	s, err := parseSchemaText(string(text))
	if err != nil {
		return nil, usagef("-schema %s: %v", path, err)
	}
	return s, nil
}

// readAtMost reads the file at path (or URL), of at most limit bytes.
func readAtMost(path string, limit int64) ([]byte, error) {
	f, _, closer, err := openPathFile(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: over %d bytes, too long for a schema", datatype.ErrLimit, limit)
	}
	return b, nil
}
