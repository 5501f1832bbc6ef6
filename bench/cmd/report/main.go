// Command report turns the output of the bench module's side-by-side
// benchmarks (go test -bench, any -count) into docs/BENCHMARKS.md (a
// table of medians and ratios) and docs/benchmarks.svg (a bar chart of
// the ratios). It has its own small parser and needs nothing beyond the
// standard library.
//
//	go run ./cmd/report -in raw.txt -md ../docs/BENCHMARKS.md -svg ../docs/benchmarks.svg \
//	    -cmd "the command that produced raw.txt" -notes notes.md -gomod go.mod
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// sample is one benchmark result line.
type sample struct {
	nsOp, mbS, bOp, allocs, nsValue float64
	has                             map[string]bool
}

// side is every sample of one library for one pair.
type side struct{ samples []sample }

func (s *side) median(get func(sample) float64, unit string) (float64, bool) {
	var vs []float64
	for _, x := range s.samples {
		if x.has[unit] {
			vs = append(vs, get(x))
		}
	}
	if len(vs) == 0 {
		return 0, false
	}
	sort.Float64s(vs)
	m := len(vs) / 2
	if len(vs)%2 == 1 {
		return vs[m], true
	}
	return (vs[m-1] + vs[m]) / 2, true
}

// row is one pair of the table.
type row struct {
	name          string
	ours, theirs  *side
	target        float64 // 0: no target
	targetComment string
}

var procSuffix = regexp.MustCompile(`-\d+$`)

// parse reads go test -bench output: the header lines (goos, goarch,
// cpu, pkg) and the result lines of sub-benchmarks ending in /alkaid or
// /arrowgo.
func parse(r io.Reader) (rows []*row, header map[string]string, err error) {
	header = map[string]string{}
	byName := map[string]*row{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		for _, k := range []string{"goos", "goarch", "cpu", "pkg"} {
			if v, ok := strings.CutPrefix(line, k+": "); ok {
				header[k] = v
			}
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		name := procSuffix.ReplaceAllString(f[0], "")
		name = strings.TrimPrefix(name, "Benchmark")
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			continue
		}
		pair, lib := name[:i], name[i+1:]
		if lib != "alkaid" && lib != "arrowgo" {
			continue
		}
		s := sample{has: map[string]bool{}}
		for j := 2; j+1 < len(f); j += 2 {
			v, err := strconv.ParseFloat(f[j], 64)
			if err != nil {
				continue
			}
			unit := f[j+1]
			s.has[unit] = true
			switch unit {
			case "ns/op":
				s.nsOp = v
			case "MB/s":
				s.mbS = v
			case "B/op":
				s.bOp = v
			case "allocs/op":
				s.allocs = v
			case "ns/value":
				s.nsValue = v
			}
		}
		if !s.has["ns/op"] {
			continue
		}
		rw := byName[pair]
		if rw == nil {
			rw = &row{name: pair, ours: &side{}, theirs: &side{}}
			byName[pair] = rw
			rows = append(rows, rw)
		}
		if lib == "alkaid" {
			rw.ours.samples = append(rw.ours.samples, s)
		} else {
			rw.theirs.samples = append(rw.theirs.samples, s)
		}
	}
	return rows, header, sc.Err()
}

// targets are the goals, as ratios of our throughput to
// arrow-go's; the first matching prefix wins.
var targets = []struct {
	prefix string
	ratio  float64
	what   string
}{
	{"BuilderInt64AppendValues", 3, "bulk ≥ 3×"},
	{"BuilderInt64Append", 4, "per-value ≥ 4×"},
	{"BuilderUtf8", 2, "utf8 ≥ 2×"},
	{"IPCStreamWrite/none", 1.2, "write ≥ 1.2×"},
	{"IPCStreamWrite/", 3, "compressed write ≥ 3×"},
	{"IPCStreamRead/none-trusted", 1.5, "trusted read ≥ 1.5×"},
	{"IPCStreamRead/none-default", 1.0, "default read ≥ 1.0×"},
	{"IPCStreamRead/", 2, "compressed read ≥ 2×"},
	{"IPCFileMappedLastValue/", 1.0, "no slower"},
	{"BitmapAnd/offset", 10, "≥ 10×"},
	{"Popcount", 3, "≥ 3×"},
	{"Sum/int64-L2", 1.5, "in cache ≥ 1.5×"},
	{"Sum/float64-L2", 1.5, "in cache ≥ 1.5×"},
	{"Sum/", 1.0, "out of cache ≥ 1.0×"},
	{"Add/", 1.5, "≥ 1.5×"},
	{"Less/", 1.5, "≥ 1.5×"},
	{"Filter/", 1.5, "≥ 1.5×"},
	{"Take/", 1.5, "≥ 1.5×"},
}

func targetOf(name string) (float64, string) {
	for _, t := range targets {
		if strings.HasPrefix(name, t.prefix) {
			return t.ratio, t.what
		}
	}
	return 0, ""
}

func fmtDuration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.1f ns", ns)
}

func fmtBytes(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// rate is the per-unit column: GB/s for throughput rows, ns/value for
// builder rows.
func rate(s *side) string {
	if v, ok := s.median(func(x sample) float64 { return x.mbS }, "MB/s"); ok {
		return fmt.Sprintf("%.2f GB/s", v/1000)
	}
	if v, ok := s.median(func(x sample) float64 { return x.nsValue }, "ns/value"); ok {
		return fmt.Sprintf("%.2f ns/value", v)
	}
	return ""
}

func ratioOf(r *row) float64 {
	o, ok1 := r.ours.median(func(x sample) float64 { return x.nsOp }, "ns/op")
	t, ok2 := r.theirs.median(func(x sample) float64 { return x.nsOp }, "ns/op")
	if !ok1 || !ok2 || o == 0 {
		return math.NaN()
	}
	return t / o
}

func writeMarkdown(w io.Writer, rows []*row, header map[string]string, cmd, arrowVersion, commit, notes string) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# Alkaid for Go against arrow-go: side-by-side benchmarks\n\n")
	p("Generated by `bench/cmd/report` from one run of the `bench` module (`make bench-compare`). ")
	p("Every row is a pair of sub-benchmarks doing the same work on the same data, run in the same process one after the other; ")
	p("the times are medians over the run's samples (-count), the ratio is arrow-go's median time / ours ")
	p("(= our throughput / arrow-go's: above 1 we are faster). Allocations are per operation (-benchmem).\n\n")
	p("![ratios](benchmarks.svg)\n\n")
	p("| | |\n|---|---|\n")
	p("| machine | %s, %s/%s, %d CPUs (GOMAXPROCS %d) |\n", header["cpu"], header["goos"], header["goarch"], runtime.NumCPU(), runtime.GOMAXPROCS(0))
	p("| Go | %s |\n", runtime.Version())
	p("| arrow-go | github.com/apache/arrow-go/v18 %s |\n", arrowVersion)
	if commit != "" {
		p("| alkaid | commit %s |\n", commit)
	}
	p("| command | `%s` |\n\n", cmd)
	p("| benchmark | alkaid | arrow-go | alkaid rate | arrow-go rate | ratio | target | met | allocs/op alkaid / arrow-go | B/op alkaid / arrow-go | n |\n")
	p("|---|---:|---:|---:|---:|---:|---|:-:|---:|---:|---:|\n")
	for _, r := range rows {
		o, _ := r.ours.median(func(x sample) float64 { return x.nsOp }, "ns/op")
		t, _ := r.theirs.median(func(x sample) float64 { return x.nsOp }, "ns/op")
		ratio := ratioOf(r)
		tgt, what := targetOf(r.name)
		met := "—"
		if tgt > 0 {
			met = "✅"
			if ratio < tgt {
				met = "❌"
			}
		}
		tcol := "—"
		if tgt > 0 {
			tcol = what
		}
		ao, _ := r.ours.median(func(x sample) float64 { return x.allocs }, "allocs/op")
		at, _ := r.theirs.median(func(x sample) float64 { return x.allocs }, "allocs/op")
		bo, _ := r.ours.median(func(x sample) float64 { return x.bOp }, "B/op")
		bt, _ := r.theirs.median(func(x sample) float64 { return x.bOp }, "B/op")
		allocMark := ""
		if ao >= at && !(ao == 0 && at == 0) {
			allocMark = " ⚠"
		}
		p("| %s | %s | %s | %s | %s | **%.2f×** | %s | %s | %.0f / %.0f%s | %s / %s | %d / %d |\n",
			r.name, fmtDuration(o), fmtDuration(t), rate(r.ours), rate(r.theirs), ratio, tcol, met,
			ao, at, allocMark, fmtBytes(bo), fmtBytes(bt), len(r.ours.samples), len(r.theirs.samples))
	}
	p("\n⚠: not fewer allocations per operation than arrow-go (see the notes).\n\n")
	if notes != "" {
		p("%s\n", strings.TrimSpace(notes))
	}
}

// writeSVG draws one horizontal bar per row on a log scale of the ratio,
// a line at 1×, and a marker at each row's target.
func writeSVG(w io.Writer, rows []*row) {
	const (
		left, right = 300, 40
		barH, gap   = 16, 6
		top         = 40
		plotW       = 560
	)
	lo, hi := 0.25, 4.0
	for _, r := range rows {
		if x := ratioOf(r); !math.IsNaN(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if t, _ := targetOf(r.name); t > 0 {
			hi = math.Max(hi, t)
		}
	}
	lo = math.Pow(2, math.Floor(math.Log2(lo)))
	hi = math.Pow(2, math.Ceil(math.Log2(hi)))
	x := func(v float64) float64 {
		return left + plotW*(math.Log2(v)-math.Log2(lo))/(math.Log2(hi)-math.Log2(lo))
	}
	height := top + len(rows)*(barH+gap) + 40
	width := left + plotW + right
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", width, height)
	p(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	p(`<text x="%d" y="20" font-size="14" font-weight="bold">alkaid throughput / arrow-go throughput (log scale; | = target)</text>`+"\n", 10)
	for v := lo; v <= hi*1.0001; v *= 2 {
		xv := x(v)
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", xv, top-5, xv, height-35)
		label := strconv.FormatFloat(v, 'g', 3, 64) + "×"
		p(`<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`+"\n", xv, height-20, label)
	}
	for i, r := range rows {
		y := top + i*(barH+gap)
		ratio := ratioOf(r)
		tgt, _ := targetOf(r.name)
		p(`<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-6, y+barH-4, escape(r.name))
		if math.IsNaN(ratio) {
			continue
		}
		color := "#4caf50" // met (or no target, and faster)
		switch {
		case ratio < 1:
			color = "#e53935"
		case tgt > 0 && ratio < tgt:
			color = "#fb8c00"
		}
		x0, x1 := x(1), x(ratio)
		if x1 < x0 {
			x0, x1 = x1, x0
		}
		p(`<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", x0, y, math.Max(x1-x0, 1), barH, color)
		p(`<text x="%.1f" y="%d" fill="#222">%.2f×</text>`+"\n", math.Max(x(ratio), x(1))+4, y+barH-4, ratio)
		if tgt > 0 {
			xt := x(tgt)
			p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" stroke-width="2"/>`+"\n", xt, y-2, xt, y+barH+2)
		}
	}
	p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", x(1), top-8, x(1), height-35)
	p("</svg>\n")
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// arrowVersion reads the arrow-go requirement from the bench go.mod.
func arrowVersion(gomod string) string {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if i := slices.Index(f, "github.com/apache/arrow-go/v18"); i >= 0 && i+1 < len(f) {
			return f[i+1]
		}
	}
	return "?"
}

func main() {
	in := flag.String("in", "", "go test -bench output")
	md := flag.String("md", "", "markdown file to write")
	svg := flag.String("svg", "", "SVG file to write")
	cmd := flag.String("cmd", "", "the command that produced the input")
	notesPath := flag.String("notes", "", "markdown appended as the notes")
	gomod := flag.String("gomod", "go.mod", "the bench module's go.mod (for the arrow-go version)")
	commit := flag.String("commit", "", "the alkaid commit benchmarked")
	flag.Parse()
	f, err := os.Open(*in)
	if err != nil {
		fail(err)
	}
	rows, header, err := parse(f)
	f.Close()
	if err != nil {
		fail(err)
	}
	if len(rows) == 0 {
		fail(fmt.Errorf("no alkaid/arrowgo benchmark pairs in %s", *in))
	}
	var notes string
	if *notesPath != "" {
		b, err := os.ReadFile(*notesPath)
		if err != nil {
			fail(err)
		}
		notes = string(b)
	}
	if *md != "" {
		var sb strings.Builder
		writeMarkdown(&sb, rows, header, *cmd, arrowVersion(*gomod), *commit, notes)
		if err := os.WriteFile(*md, []byte(sb.String()), 0o644); err != nil {
			fail(err)
		}
	}
	if *svg != "" {
		var sb strings.Builder
		writeSVG(&sb, rows)
		if err := os.WriteFile(*svg, []byte(sb.String()), 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "report:", err)
	os.Exit(1)
}
