package main

import (
	"math"
	"strings"
	"testing"
)

func TestParseMedianRatio(t *testing.T) {
	out := `goos: linux
cpu: Test CPU
BenchmarkX/alkaid-2   	 10	  100 ns/op	 5.0 MB/s	 16 B/op	 1 allocs/op
BenchmarkX/alkaid-2   	 10	  300 ns/op	 5.0 MB/s	 16 B/op	 1 allocs/op
BenchmarkX/alkaid-2   	 10	  200 ns/op	 5.0 MB/s	 16 B/op	 1 allocs/op
BenchmarkX/arrowgo-2  	 10	  400 ns/op	 1.0 MB/s	 32 B/op	 2 allocs/op
BenchmarkX/arrowgo-2  	 10	  800 ns/op	 1.0 MB/s	 32 B/op	 2 allocs/op
BenchmarkGroup/sub/alkaid-2 	 1	 10 ns/op
BenchmarkGroup/sub/arrowgo-2 	 1	 15 ns/op
BenchmarkOther-2 	 1	 10 ns/op
`
	rows, header, err := parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if header["cpu"] != "Test CPU" || len(rows) != 2 || rows[0].name != "X" || rows[1].name != "Group/sub" {
		t.Fatalf("parsed %v %+v", header, rows)
	}
	if r := ratioOf(rows[0]); math.Abs(r-3) > 1e-9 { // 600 / 200
		t.Fatalf("ratio %v", r)
	}
	var sb strings.Builder
	writeMarkdown(&sb, rows, header, "cmd", "v0", "", "")
	if !strings.Contains(sb.String(), "**3.00×**") {
		t.Fatal(sb.String())
	}
	sb.Reset()
	writeSVG(&sb, rows)
	if !strings.HasPrefix(sb.String(), "<svg") {
		t.Fatal("no svg")
	}
}
