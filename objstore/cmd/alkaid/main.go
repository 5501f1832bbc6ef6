// Command alkaid is the alkaid command (package
// github.com/alkaid-go/alkaid/cmd/alkaid/cli) taking s3://bucket/prefix
// locations too: cat, schema, info, validate, export and convert read an object, a
// prefix as a dataset or a pattern there, and convert -partition-by
// writes a dataset to a prefix. The endpoint, credentials and region
// come from the standard environment variables (AWS_ENDPOINT_URL,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
// AWS_REGION); see package objstore.
//
//	go install github.com/alkaid-go/alkaid/objstore/cmd/alkaid@latest
//	alkaid cat -where "year = 2024" s3://bucket/sales
package main

import (
	"os"

	"github.com/alkaid-go/alkaid/cmd/alkaid/cli"
	"github.com/alkaid-go/alkaid/objstore"
)

func main() { os.Exit(cli.Main(os.Args[1:], objstore.CLIOption())) }
