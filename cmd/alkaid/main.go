// Command alkaid reads, writes and checks Alkaid (and Apache Arrow) IPC
// streams and files, Parquet files and datasets; see package
// github.com/alkaid-go/alkaid/cmd/alkaid/cli, or run alkaid help.
//
// The build in module objstore (go install
// github.com/alkaid-go/alkaid/objstore/cmd/alkaid@latest) also takes
// s3://bucket/prefix wherever a path or directory is taken.
package main

import (
	"os"

	"github.com/alkaid-go/alkaid/cmd/alkaid/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
