package cli

// Parquet in the data subcommands: inputs starting with the PAR1 magic are
// read through package parquet (record batches of at most
// parquet.DefaultBatchSize rows, row group after row group), and
// outputs ending in .parquet (or -to parquet) are written by its writer.

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/parquet"
)

// parquetMagic starts and ends every Parquet file.
var parquetMagic = []byte("PAR1")

// headFormat is the format of a file whose first bytes are head, as
// files.Detect tells it by content (FormatAuto: none).
func headFormat(head []byte) files.Format {
	f, _ := files.Detect(bytes.NewReader(head), int64(len(head)), "")
	return f
}

// isParquetHead reports whether head, a file's first bytes, is Parquet's:
// PAR1, or PARE (an encrypted footer).
func isParquetHead(head []byte) bool { return headFormat(head) == files.FormatParquet }

// headlessParquet returns an error when the file f (size bytes, whose
// first bytes are head) starts with neither PAR1 nor an IPC magic but
// ends with PAR1: a Parquet file damaged or cut at its start, which would
// otherwise be reported as a malformed IPC stream. It returns nil for
// every other input.
func headlessParquet(name string, f io.ReaderAt, size int64, head []byte) error {
	if isParquetHead(head) || ipc.DetectMagic(head) != "" || size < 2*int64(len(parquetMagic)) {
		return nil
	}
	tail := make([]byte, len(parquetMagic))
	if _, err := f.ReadAt(tail, size-int64(len(tail))); err != nil || !bytes.Equal(tail, parquetMagic) {
		return nil
	}
	return fmt.Errorf("%s: parquet: %w: looks like a Parquet file (it ends with the magic PAR1) but does not start with PAR1 (its first bytes are %s): damaged or cut at its start",
		name, parquet.ErrInvalid, quote.Bytes(head[:min(len(head), len(parquetMagic))]))
}

// parquetNamed names a read error of a Parquet input by its record
// batch, unless it names its row group.
func parquetNamed(i int, err error) error {
	if strings.Contains(err.Error(), "row group") {
		return err
	}
	return batchNamed(i, err)
}

// ---- schema, info, validate ----

// parquetInfo prints what the footer of the Parquet file pf (named name,
// of size bytes) says: row groups, rows, codecs, the writer.
func parquetInfo(name string, pf *parquet.File, size int64) error {
	w := cmdStdout
	fmt.Fprintf(w, "path:           %s\n", name)
	if enc := pf.Encryption(); enc != "" {
		magic := "PARE"
		if strings.Contains(enc, "plaintext") {
			magic = "PAR1"
		}
		fmt.Fprintf(w, "format:         Parquet (magic %s), encrypted: %s\n", magic, enc)
	} else {
		fmt.Fprintf(w, "format:         Parquet (magic PAR1)\n")
	}
	fmt.Fprintf(w, "size:           %s bytes (%s)\n", groupDigits(size), humanBytes(size))
	if cb := pf.CreatedBy(); cb != "" {
		fmt.Fprintf(w, "created by:     %s\n", cb)
	}
	fmt.Fprintf(w, "fields:         %d\n", pf.Schema().NumFields())
	groups := pf.NumRowGroups()
	fmt.Fprintf(w, "row groups:     %d\n", groups)
	var minRows, maxRows, bytes int64
	codecs := map[string]int{}
	chunks := 0
	for i := range groups {
		rg := pf.RowGroup(i)
		if i == 0 || rg.Rows < minRows {
			minRows = rg.Rows
		}
		maxRows = max(maxRows, rg.Rows)
		bytes += rg.Bytes
		for c, n := range rg.Codecs {
			codecs[strings.ToLower(c.String())] += n
			chunks += n
		}
	}
	if groups > 0 {
		fmt.Fprintf(w, "rows:           %s (per row group %s to %s)\n", groupDigits(pf.NumRows()), groupDigits(minRows), groupDigits(maxRows))
	} else {
		fmt.Fprintf(w, "rows:           %s\n", groupDigits(pf.NumRows()))
	}
	fmt.Fprintf(w, "data bytes:     %s uncompressed\n", groupDigits(bytes))
	fmt.Fprintf(w, "compression:    %s\n", describeChunkCodecs(codecs, chunks))
	return nil
}

// describeChunkCodecs prints "snappy (3 of 4 column chunks), …".
func describeChunkCodecs(codecs map[string]int, chunks int) string {
	if chunks == 0 {
		return "none"
	}
	names := make([]string, 0, len(codecs))
	for k := range codecs {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s (%d of %d column chunks)", k, codecs[k], chunks)
	}
	return strings.Join(parts, ", ")
}

// validateParquet decodes every row group of the Parquet file pf (named
// name, of size bytes) and validates each column fully (structure,
// offsets, UTF-8, value ranges).
func validateParquet(name string, pf *parquet.File, size int64, quiet bool) error {
	path := name
	var rows int64
	i := 0
	for rec, err := range pf.Records() {
		if err != nil {
			return fmt.Errorf("%s: invalid: %w", path, parquetNamed(i, err))
		}
		for c := range rec.NumCols() {
			if err := array.Validate(rec.Column(c).Data(), array.ValidateFull); err != nil {
				return fmt.Errorf("%s: invalid: row group %d column %s: %w", path, i, quote.String(rec.ColumnName(c)), err)
			}
		}
		rows += int64(rec.NumRows())
		i++
	}
	if rows != pf.NumRows() {
		return fmt.Errorf("%s: invalid: the row groups hold %d rows, the footer says %d", path, rows, pf.NumRows())
	}
	if !quiet {
		fmt.Fprintf(cmdStdout, "%s: valid Parquet file: %d row groups, %d rows, %d bytes\n", path, pf.NumRowGroups(), rows, size)
	}
	return nil
}

// ---- outputs ----

// parquetCodecs are the -codec names.
var parquetCodecs = []struct {
	name  string
	codec parquet.Codec
}{
	{"uncompressed", parquet.Uncompressed}, {"snappy", parquet.Snappy}, {"gzip", parquet.Gzip},
	{"zstd", parquet.Zstd}, {"lz4_raw", parquet.LZ4Raw}, {"brotli", parquet.Brotli},
}

func parquetCodecNames() string {
	names := make([]string, len(parquetCodecs))
	for i, c := range parquetCodecs {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// wantsParquet reports whether the output at path is Parquet: -to parquet,
// or no -to and a .parquet extension.
func (o *outFlags) wantsParquet(path string) bool {
	return o.to == "parquet" || (o.to == "" && strings.EqualFold(filepath.Ext(path), ".parquet"))
}

// parquetOptions checks the flags for a Parquet output and returns the
// writer's options. IPC-only flags set away from their defaults are
// usage errors rather than silently ignored.
func (o *outFlags) parquetOptions() ([]parquet.Option, error) {
	if o.compression != "none" && o.compression != "" {
		return nil, usagef("-compression %s applies to IPC outputs; for Parquet use -codec (%s)", quote.String(o.compression), parquetCodecNames())
	}
	if o.magic != "" || o.alignment != 8 {
		return nil, usagef("-magic and -align apply to IPC outputs, not Parquet")
	}
	var opts []parquet.Option
	codec := parquet.Snappy
	if o.codec != "" {
		found := false
		for _, c := range parquetCodecs {
			if strings.EqualFold(o.codec, c.name) {
				codec, found = c.codec, true
			}
		}
		if !found {
			return nil, usagef("-codec %s: want one of %s", quote.String(o.codec), parquetCodecNames())
		}
	}
	if o.codec != "" || o.level != 0 {
		opts = append(opts, parquet.WithCompression(codec, o.level))
	}
	if o.rowGroupRows < 0 {
		return nil, usagef("-row-group-rows %d: must not be negative", o.rowGroupRows)
	}
	if o.rowGroupRows > 0 {
		opts = append(opts, parquet.WithRowGroupRows(o.rowGroupRows))
	}
	enc, err := pqRead.encryption()
	if err != nil {
		return nil, err
	}
	return append(opts, enc...), nil
}

// openOutput creates the output at path in the form the flags choose: a
// Parquet file (see wantsParquet), or an IPC file or stream (see resolve,
// fallbackFile as there). path must not be one of inputs.
func (o *outFlags) openOutput(path string, schema *alkaid.Schema, fallbackFile bool, inputs ...string) (*output, error) {
	if err := checkOutExt(path, o); err != nil {
		return nil, err
	}
	if o.wantsParquet(path) {
		opts, err := o.parquetOptions()
		if err != nil {
			return nil, err
		}
		return createOutput(path, schema, files.FormatParquet, []files.Option{files.WithParquetOptions(opts...)}, inputs...)
	}
	if o.codec != "" || o.rowGroupRows != 0 {
		return nil, usagef("-codec and -row-group-rows apply to Parquet outputs (OUT ending in .parquet, or -to parquet)")
	}
	file, opts, err := o.resolve(path, fallbackFile)
	if err != nil {
		return nil, err
	}
	format := files.FormatIPCStream
	if file {
		format = files.FormatIPCFile
	}
	return createOutput(path, schema, format, []files.Option{files.WithIPCOptions(opts...)}, inputs...)
}
