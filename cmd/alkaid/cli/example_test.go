package cli_test

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing/fstest"

	"github.com/alkaid-go/alkaid/cmd/alkaid/cli"
)

// A program adding a URL scheme to the alkaid command: here "mem://",
// files held in memory (objstore.CLIOption adds "s3://" the same way).
func ExampleWithFS() {
	data, err := os.ReadFile("testdata/small.ipc")
	if err != nil {
		fmt.Println(err)
		return
	}
	mem := fstest.MapFS{"bucket/small.ipc": {Data: data}}
	open := func(url string) (fs.FS, error) { return fs.Sub(mem, strings.TrimPrefix(url, "mem://")) }

	code := cli.Main([]string{"validate", "mem://bucket/small.ipc"},
		cli.WithFS("mem", open), cli.WithStdio(nil, os.Stdout, os.Stdout))
	fmt.Println("exit", code)
	// Output:
	// mem://bucket/small.ipc: valid file (ALKAID1): 2 record batches, 7 rows, 8307 bytes
	// exit 0
}
