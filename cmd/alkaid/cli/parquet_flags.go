package cli

// Flags of the Parquet reader, registered on the commands that read
// files: the reader's limits (a legitimate file may need them raised) and
// the keys of encrypted files, which convert and import also use to
// encrypt a Parquet output.

import (
	"encoding/hex"
	"errors"
	"flag"
	"strings"

	"github.com/alkaid-go/alkaid/parquet"
)

// parquetReaders are the commands that read Parquet inputs.
var parquetReaders = map[string]bool{"cat": true, "convert": true, "export": true, "info": true, "schema": true, "validate": true, "import": true}

// pqRead holds the Parquet reading flags of the command being run (one
// command runs at a time; newFlags resets it).
var pqRead parquetReadFlags

type parquetReadFlags struct {
	limits     parquet.Limits
	footerKey  []byte
	columnKeys map[string][]byte
	aadPrefix  string
}

// register resets the flags and adds them to fs.
func (p *parquetReadFlags) register(fs *flag.FlagSet) {
	*p = parquetReadFlags{}
	d := parquet.DefaultLimits
	fs.Int64Var(&p.limits.MaxPageSize, "max-page-size", d.MaxPageSize, "Parquet: largest uncompressed page, and decoded byte arrays of a page, in `BYTES`")
	fs.Int64Var(&p.limits.MaxPageValues, "max-page-values", d.MaxPageValues, "Parquet: most values of a page")
	fs.Int64Var(&p.limits.MaxChunkValues, "max-chunk-values", d.MaxChunkValues, "Parquet: most values of a column chunk")
	fs.Int64Var(&p.limits.MaxFooterSize, "max-footer-size", d.MaxFooterSize, "Parquet: largest footer in `BYTES`")
	fs.IntVar(&p.limits.MaxCompressionRatio, "max-compression-ratio", d.MaxCompressionRatio, "Parquet: a read decodes at most this many times the file's size, plus 64 MiB")
	fs.Func("footer-key", "Parquet encryption: the footer `HEX` key (16, 24 or 32 bytes); encrypts a Parquet output of convert and import", func(v string) error {
		k, err := hex.DecodeString(v)
		if err != nil {
			return errors.New("not hexadecimal")
		}
		p.footerKey = k
		return nil
	})
	fs.Func("column-key", "Parquet encryption: `COLUMN=HEX`, the key of a column by dotted Parquet path (repeatable)", func(v string) error {
		col, h, ok := strings.Cut(v, "=")
		k, err := hex.DecodeString(h)
		if !ok || col == "" || err != nil {
			return errors.New("want COLUMN=HEX")
		}
		if p.columnKeys == nil {
			p.columnKeys = map[string][]byte{}
		}
		p.columnKeys[col] = k
		return nil
	})
	fs.StringVar(&p.aadPrefix, "aad-prefix", "", "Parquet encryption: the AAD prefix `TEXT` (given to a file that does not store it; bound into an encrypted output, stored)")
}

// options are the reader options the flags give.
func (p *parquetReadFlags) options() []parquet.Option {
	opts := []parquet.Option{parquet.WithLimits(p.limits)}
	if p.footerKey != nil || p.columnKeys != nil || p.aadPrefix != "" {
		opts = append(opts, parquet.WithDecryption(parquet.FileDecryption{FooterKey: p.footerKey,
			ColumnKeys: p.columnKeys, AADPrefix: []byte(p.aadPrefix)}))
	}
	return opts
}

// encryption returns the writer option that encrypts a Parquet output
// with the keys of the flags: the columns of -column-key with theirs,
// every column with the footer key when there is none.
func (p *parquetReadFlags) encryption() ([]parquet.Option, error) {
	if p.footerKey == nil {
		if p.columnKeys != nil || p.aadPrefix != "" {
			return nil, usagef("-column-key and -aad-prefix encrypt a Parquet output with -footer-key, which is missing")
		}
		return nil, nil
	}
	e := parquet.FileEncryption{FooterKey: p.footerKey, AADPrefix: []byte(p.aadPrefix)}
	for col, k := range p.columnKeys {
		if e.ColumnKeys == nil {
			e.ColumnKeys = map[string]parquet.ColumnKey{}
		}
		e.ColumnKeys[col] = parquet.ColumnKey{Key: k}
	}
	if len(e.AADPrefix) == 0 {
		e.AADPrefix = nil
	}
	return []parquet.Option{parquet.WithEncryption(e)}, nil
}
