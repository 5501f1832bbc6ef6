package main

// Flags of the Parquet reader, registered on the commands that read
// files: the reader's limits (a legitimate file may need them raised).

import (
	"flag"

	"github.com/alkaid-go/alkaid/parquet"
)

// parquetReaders are the commands that read Parquet inputs.
var parquetReaders = map[string]bool{"cat": true, "convert": true, "export": true, "info": true, "schema": true, "validate": true, "import": true}

// pqRead holds the Parquet reading flags of the command being run (one
// command runs at a time; newFlags resets it).
var pqRead parquetReadFlags

type parquetReadFlags struct {
	limits parquet.ReaderLimits
}

// register resets the flags and adds them to fs.
func (p *parquetReadFlags) register(fs *flag.FlagSet) {
	*p = parquetReadFlags{}
	d := parquet.DefaultReaderLimits
	fs.Int64Var(&p.limits.MaxPageSize, "max-page-size", d.MaxPageSize, "Parquet: largest uncompressed page, and decoded byte arrays of a page, in `BYTES`")
	fs.Int64Var(&p.limits.MaxPageValues, "max-page-values", d.MaxPageValues, "Parquet: most values of a page")
	fs.Int64Var(&p.limits.MaxChunkValues, "max-chunk-values", d.MaxChunkValues, "Parquet: most values of a column chunk")
	fs.Int64Var(&p.limits.MaxFooterSize, "max-footer-size", d.MaxFooterSize, "Parquet: largest footer in `BYTES`")
}

// options are the reader options the flags give.
func (p *parquetReadFlags) options() []parquet.ReaderOption {
	l := p.limits
	l.CheckCRC = parquet.DefaultReaderLimits.CheckCRC
	return []parquet.ReaderOption{parquet.WithLimits(l)}
}
