package cli

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/ndjson"
)

var exportCmd = command{
	name:  "export",
	args:  "IN OUT",
	short: "Write a stream, file or Parquet file as CSV or newline-delimited JSON.",
	long: `
The format comes from -format, else OUT's extension (.csv; .json, .ndjson,
.jsonl); another extension is an error. "-" is stdin / stdout (CSV unless
-format says). Batches are read and written one at a time; a Parquet
file (PAR1 magic) is read one row group at a time.

Values, in the text grammar compute.Cast and the readers share: numbers
as numbers (NaN and infinities as the strings "NaN", "+Inf", "-Inf" in
JSON), decimals as exact decimal text, dates as 2006-01-02, times as
15:04:05 with the unit's fraction digits, timestamps as ISO-8601 (with a
time zone: the wall time there and its offset, Z for UTC; years outside
0..9999 and dates as counts of units), durations as integers in their
unit, binary as base64, strings as they are (in CSV an empty string is ""
and a null an empty cell; a string that is not UTF-8 is an error in
JSON). Every type has a form: in JSON lists and list views are arrays,
structs objects, dictionaries and run-end encoded arrays their values,
maps objects (string keys) or arrays of {"key": k, "value": v}, unions
the selected child's value (with -union-type-codes {"type_code": c,
"value": v}, which tells apart children of one JSON kind), intervals objects with named parts
({"months": m, "days": d, "nanoseconds": ns}); in CSV dictionaries and
run-end encoded arrays of scalars are their values and every other type
(intervals, nested types) its JSON text in one quoted cell. "alkaid
import" with the same schema (-schema) reads the output back to the same values.` + queryHelp,
}

func runExport(args []string) int {
	c := exportCmd
	fs := c.newFlags()
	format := fs.String("format", "", "csv or ndjson (default: from OUT's extension)")
	delim := fs.String("delimiter", ",", "CSV field delimiter (one ASCII character)")
	header := fs.Bool("header", true, "CSV: write a header line of column names")
	quiet := fs.Bool("q", false, "no progress line")
	codes := fs.Bool("union-type-codes", false, `JSON: write union slots as {"type_code": c, "value": v}`)
	var q queryFlags
	q.register(fs)
	if done, code := c.parse(fs, args, 2); done {
		return code
	}
	return c.fail(export(fs.Arg(0), fs.Arg(1), *format, *delim, *header, *quiet, *codes, &q))
}

// textFormat picks csv or ndjson from a flag or a path's extension (an
// input path: anything else is CSV).
func textFormat(flagValue, path string) (string, error) {
	switch flagValue {
	case "csv", "ndjson":
		return flagValue, nil
	case "json", "jsonl":
		return "ndjson", nil
	case "":
	default:
		return "", usagef("-format %s: want csv or ndjson", quote.String(flagValue))
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".ndjson", ".jsonl":
		return "ndjson", nil
	}
	return "csv", nil
}

// exportFormat picks the output format: the flag, else OUT's extension,
// which must be a text one.
func exportFormat(flagValue, path string) (string, error) {
	if flagValue != "" || path == "-" {
		return textFormat(flagValue, path)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".csv", ".tsv", ".txt", "":
		return "csv", nil
	case ".json", ".ndjson", ".jsonl":
		return "ndjson", nil
	default:
		return "", usagef("%s: export writes CSV (.csv) or newline-delimited JSON (.ndjson, .jsonl, .json), not %s", path, ext)
	}
}

func export(inPath, outPath, format, delim string, header, quiet, unionCodes bool, q *queryFlags) error {
	// Overwriting the input is the graver mistake: name it first, even
	// when the output's extension is also wrong (export x.ipc x.ipc).
	if err := notAnInput(outPath, []string{inPath}); err != nil {
		return err
	}
	format, err := exportFormat(format, outPath)
	if err != nil {
		return err
	}
	comma, err := oneByte(delim)
	if err != nil {
		return err
	}
	in, err := openInput(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := q.apply(in); err != nil {
		return err
	}
	var f *outFile
	dst := cmdStdout
	if outPath != "-" {
		// The output file is created here.
		if f, err = createOutFile(outPath, inPath); err != nil {
			return err
		}
		defer f.fail(nil, false) // after commit, a no-op
		dst = f
	}
	cw := &countingWriter{w: dst}
	bw := bufio.NewWriterSize(cw, 1<<20)
	opts := []files.Option{files.WithFormat(files.FormatCSV), files.WithCSVOptions(csv.WithDelimiter(comma), csv.WithHeader(header))}
	if format == "ndjson" {
		opts = []files.Option{files.WithFormat(files.FormatNDJSON)}
		if unionCodes {
			opts = append(opts, files.WithNDJSONOptions(ndjson.WithUnionTypeCodes()))
		}
	}
	tw, err := files.NewWriter(bw, in.Schema(), opts...)
	if err != nil {
		return err
	}
	p := newProgress("export", quiet)
	var rows int64
	var readErr, writeErr error // the text writer's told apart from the input's
	for rec, err := range in.Records() {
		if err != nil {
			readErr = err
			break
		}
		if err := tw.Write(rec); err != nil {
			writeErr, readErr = err, err
			break
		}
		rows += int64(rec.NumRows())
		p.update(rows, cw.n+int64(bw.Buffered()))
	}
	if cerr := tw.Close(); writeErr == nil {
		writeErr = cerr
	}
	if ferr := bw.Flush(); writeErr == nil {
		writeErr = ferr
	}
	p.done(rows, cw.n)
	err = writeErr
	if err == nil {
		err = readErr
	}
	if f != nil {
		// A file without footer, read to its last complete batch, gives
		// a complete output (and exit 1, saying so).
		if writeErr == nil && completeDespite(in, readErr) {
			if err := f.commit(); err != nil {
				return err
			}
		} else {
			return f.fail(fmt.Errorf("%s: %w", inPath, err), writeErr == nil && rows > 0)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", inPath, err)
	}
	return nil
}
