// Command textbig shows that reading a large CSV or NDJSON stream takes
// memory bounded by the reader's chunks, not by the input. It generates
// about -mib MiB of rows (an int, a float, a quoted string with a comma,
// a bool and a timestamp; 5% nulls) on the fly, reads them with the
// reader of -format, inferring the schema, and prints the rows, the
// bytes, the time and the process's peak resident set (VmHWM of
// /proc/self/status, Linux only).
//
//	go run ./cmd/textbig -format csv -mib 300
//
// It is a measurement to run by hand, not a test.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/ndjson"
)

func main() {
	format := flag.String("format", "csv", "csv or ndjson")
	mib := flag.Int("mib", 300, "approximate input size in MiB")
	flag.Parse()
	in := &rows{ndjson: *format == "ndjson", left: int64(*mib) << 20, r: rand.New(rand.NewPCG(1, 2))}
	if !in.ndjson {
		in.buf = []byte("i,f,s,b,t\n")
	}
	start := time.Now()
	var recs func(yield func(*alkaid.Record, error) bool)
	switch *format {
	case "csv":
		r, err := csv.NewReader(in)
		if err != nil {
			fail(err)
		}
		recs = r.Records()
	case "ndjson":
		r, err := ndjson.NewReader(in)
		if err != nil {
			fail(err)
		}
		recs = r.Records()
	default:
		fail(fmt.Errorf("unknown format %q", *format))
	}
	n := 0
	for rec, err := range recs {
		if err != nil {
			fail(err)
		}
		n += rec.NumRows()
	}
	fmt.Printf("%s: %d rows, %d MiB in %v; peak RSS %s\n", *format, n, in.read>>20, time.Since(start).Round(time.Millisecond), peakRSS())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "textbig:", err)
	os.Exit(1)
}

// rows generates the input, a row at a time.
type rows struct {
	ndjson     bool
	left, read int64
	r          *rand.Rand
	buf        []byte
}

func (g *rows) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) && g.left > 0 {
		n := len(g.buf)
		g.row()
		g.left -= int64(len(g.buf) - n)
	}
	if len(g.buf) == 0 {
		return 0, io.EOF
	}
	c := copy(p, g.buf)
	g.buf = g.buf[:copy(g.buf, g.buf[c:])]
	g.read += int64(c)
	return c, nil
}

func (g *rows) row() {
	b, r := g.buf, g.r
	null := func() bool { return r.IntN(20) == 0 }
	ts := time.Unix(1.7e9+r.Int64N(1e8), 0).UTC().Format("2006-01-02T15:04:05Z")
	if g.ndjson {
		b = append(b, `{"i":`...)
		b = strconv.AppendInt(b, r.Int64N(2e9)-1e9, 10)
		b = append(b, `,"f":`...)
		if null() {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendFloat(b, r.NormFloat64()*1000, 'f', 3, 64)
		}
		b = append(b, `,"s":"mizar, \"alcor\"","b":`...)
		b = strconv.AppendBool(b, r.IntN(2) == 0)
		b = append(b, `,"t":"`...)
		b = append(b, ts...)
		g.buf = append(b, "\"}\n"...)
		return
	}
	b = strconv.AppendInt(b, r.Int64N(2e9)-1e9, 10)
	b = append(b, ',')
	if !null() {
		b = strconv.AppendFloat(b, r.NormFloat64()*1000, 'f', 3, 64)
	}
	b = append(b, `,"mizar, ""alcor""",`...)
	b = strconv.AppendBool(b, r.IntN(2) == 0)
	b = append(b, ',')
	b = append(b, ts...)
	g.buf = append(b, '\n')
}

// peakRSS is VmHWM from /proc/self/status ("?" elsewhere).
func peakRSS() string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "?"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
