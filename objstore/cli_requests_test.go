package objstore

import (
	"bytes"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/cmd/alkaid/cli"
)

// reqCount is what one command asked of the server: listings, and per
// object its metadata GETs (head and tail blocks, a whole small file),
// other GETs and other requests.
type reqCount struct {
	lists int
	meta  map[string]int
	data  map[string]int
	other []request
}

func countRequests(reqs []request, sizes map[string]int64) reqCount {
	c := reqCount{meta: map[string]int{}, data: map[string]int{}}
	for _, r := range reqs {
		size, known := sizes[r.key]
		switch {
		case r.list:
			c.lists++
		case r.method == "GET" && known && (r.rng == span{0, headSize} || r.rng == span{max(size-tailSize, 0), size}):
			c.meta[r.key]++
		case r.method == "GET" && known:
			c.data[r.key]++
		default:
			c.other = append(c.other, r)
		}
	}
	return c
}

// The CLI's reading commands on an S3 dataset list each prefix once and
// read each file's footer with its head and tail blocks, once: counts
// asserted exactly for schema, info, validate and cat -where, each run
// as a new process would (a new FS). validate then reads each row group
// with one GET; cat -where reads data only of the files its filter
// keeps. The files it prunes still cost their footer: the command is
// given no schema, so discovery reads every file's (dataset.WithSchema
// makes them cost nothing, see TestDatasetScanRequests).
func TestCLIRequests(t *testing.T) {
	bucket := newBucket(t)
	px := newProxy(t, server.endpoint)
	root := "s3://" + bucket + "/warehouse"
	fsys, err := Open(root, testOptions(px.URL())...)
	if err != nil {
		t.Fatal(err)
	}
	written := writeDataset(t, fsys, "sales")
	sizes := map[string]int64{}
	for _, w := range written {
		info, err := fsys.Stat(w)
		if err != nil {
			t.Fatal(err)
		}
		sizes[bucket+"/warehouse/"+w] = info.Size()
	}
	px.settled()
	nfiles := len(years) * len(regions)
	prefixes := 1 + len(years) + nfiles // sales/, year=*/, region=*/
	groups := rowsPerFile / rowsPerGroup
	for _, c := range []struct {
		args []string
		// files whose footer is read, and data GETs per file read
		footers, dataFiles, dataPerFile int
	}{
		{[]string{"schema", root + "/sales"}, nfiles, 0, 0},
		{[]string{"info", root + "/sales"}, nfiles, 0, 0},
		// Every row group of every file decoded: one coalesced GET each.
		{[]string{"validate", root + "/sales"}, nfiles, nfiles, groups},
		{[]string{"cat", "-where", "year = 2024", "-columns", "id", root + "/sales"}, nfiles, len(regions), groups},
	} {
		t.Run(c.args[0], func(t *testing.T) {
			var out, errb bytes.Buffer
			code := cli.Main(c.args, CLIOption(testOptions(px.URL())...), cli.WithStdio(bytes.NewReader(nil), &out, &errb))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			got := countRequests(px.settled(), sizes)
			t.Logf("%d listings, metadata GETs %v, data GETs %v, other %v", got.lists, got.meta, got.data, got.other)
			if got.lists != prefixes {
				t.Errorf("%d listings, want one per prefix: %d", got.lists, prefixes)
			}
			if len(got.other) > 0 {
				t.Errorf("unexpected requests: %+v", got.other)
			}
			if len(got.meta) != c.footers {
				t.Errorf("footers of %d files read, want %d", len(got.meta), c.footers)
			}
			for k, n := range got.meta {
				if n != 2 {
					t.Errorf("%s: %d metadata GETs, want 2 (head and tail)", k, n)
				}
			}
			if len(got.data) != c.dataFiles {
				t.Errorf("data of %d files read, want %d: %v", len(got.data), c.dataFiles, got.data)
			}
			for k, n := range got.data {
				if n != c.dataPerFile {
					t.Errorf("%s: %d data GETs, want %d", k, n, c.dataPerFile)
				}
				if c.args[0] == "cat" && !strings.Contains(k, "year=2024") {
					t.Errorf("%s: read though the filter prunes it", k)
				}
			}
		})
	}
}
