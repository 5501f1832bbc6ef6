// Package cli is the alkaid command: it reads, writes and checks Alkaid
// (and Apache Arrow) IPC streams and files, Parquet files and datasets.
// Command alkaid (cmd/alkaid) is [Main] called with the process's
// arguments; a program that adds URL schemes (objstore/cmd/alkaid adds
// s3://) calls it with [WithFS].
//
//	alkaid help [COMMAND]
//	alkaid COMMAND [flags] [arguments]
//
// Exit codes: 0 success, 1 invalid data (or a difference found, or any
// failure reading or writing), 2 bad usage. Errors are one line on stderr
// (a syntax error in an expression is followed by the expression, marked).
package cli
