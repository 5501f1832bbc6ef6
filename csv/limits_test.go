package csv

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/chunkpipe"
	"github.com/alkaid-go/alkaid/internal/texttest"
)

// TestLineBreaks: files with "\n", "\r\n" or "\r" line breaks read the
// same records; a "\r" or "\n" inside quotes stays data.
func TestLineBreaks(t *testing.T) {
	cases := []struct {
		name, data, brk string
		want            [][2]string // the cells of a and b
	}{
		{"LF", "a,b\n1,2\n3,4\n", "\n", [][2]string{{"1", "2"}, {"3", "4"}}},
		{"CRLF", "a,b\r\n1,2\r\n3,4\r\n", "\r\n", [][2]string{{"1", "2"}, {"3", "4"}}},
		{"CR", "a,b\r1,2\r3,4\r", "\r", [][2]string{{"1", "2"}, {"3", "4"}}},
		{"CR without the last", "a,b\r1,2\r3,4", "\r", [][2]string{{"1", "2"}, {"3", "4"}}},
		{"CR blank lines", "a,b\r\r1,2\r\r3,4\r\r", "\r", [][2]string{{"1", "2"}, {"3", "4"}}},
		{"CR quoted CR is data", "a,b\r\"x\ry\",2\r3,\"\r\"\r", "\r", [][2]string{{"x\ry", "2"}, {"3", "\r"}}},
		{"CR quoted CRLF is data", "a,b\r\"x\r\ny\",2\r", "\r", [][2]string{{"x\r\ny", "2"}}},
		{"CR unquoted LF is data", "a,b\rx\ny,2\r", "\r", [][2]string{{"x\ny", "2"}}},
		{"CR with a CRLF line", "a,b\r1,2\r\n3,4\r", "\r", [][2]string{{"1", "2"}, {"3", "4"}}},
		{"quoted header CR", "\"a\r\",b\r1,2\r", "\r", [][2]string{{"1", "2"}}},
		{"LF quoted CR is data", "a,b\n\"x\ry\",2\n", "\n", [][2]string{{"x\ry", "2"}}},
		{"LF unquoted CR is data", "a,b\nx\ry,2\n", "\n", [][2]string{{"x\ry", "2"}}},
		{"comment then CR", "# it's \"a\rc,d\r1,2\r", "\r", [][2]string{{"1", "2"}}},
		{"one line", "a,b", "\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, block := range []int{1, 3, 1 << 20} {
				opts := []Option{withBlockSize(block), WithBatchSize(1), WithSchema(alkaid.NewSchema([]datatype.Field{
					{Name: "a", Type: datatype.String, Nullable: true}, {Name: "b", Type: datatype.String, Nullable: true},
				}, datatype.Metadata{})), WithPositional()}
				if strings.HasPrefix(c.data, "#") {
					opts = append(opts, WithComment('#'))
				}
				r, err := NewReader(strings.NewReader(c.data), opts...)
				if err != nil {
					t.Fatal(err)
				}
				if r.LineBreak() != c.brk {
					t.Fatalf("line break %q, want %q", r.LineBreak(), c.brk)
				}
				recs, err := texttest.Collect(r.Records())
				if err != nil {
					t.Fatal(err)
				}
				var got [][2]string
				for _, rec := range recs {
					for i := range rec.NumRows() {
						got = append(got, [2]string{str(rec.Column(0), i), str(rec.Column(1), i)})
					}
				}
				if len(got) != len(c.want) {
					t.Fatalf("block %d: rows %q, want %q", block, got, c.want)
				}
				for i := range got {
					if got[i] != c.want[i] {
						t.Fatalf("block %d: rows %q, want %q", block, got, c.want)
					}
				}
			}
		})
	}
}

// TestCRLineNumbers: errors in a "\r" file name the right line.
func TestCRLineNumbers(t *testing.T) {
	_, _, err := readAll(t, []byte("a,b\r1,2\r\"x\ry\",3\r4\r"))
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "line 5: 1 fields, want 2") {
		t.Fatalf("got %v", err)
	}
}

// TestRecordLimit: a record longer than the limit, closed or not, is an
// ErrLimit naming its line, read from a generated stream without holding
// more than a few times the limit.
func TestRecordLimit(t *testing.T) {
	const limit = 1 << 16
	cases := []struct {
		name string
		s    texttest.Stream
		line string
	}{
		{"unclosed quote", texttest.Stream{Head: []byte("a,b\n1,2\n\"x"), Body: []byte("yz,\n"), N: -1}, "line 3:"},
		{"long line", texttest.Stream{Head: []byte("a,b\n1,2\n3,4\n5,"), Body: []byte("yz"), N: -1}, "line 4:"},
		{"long header", texttest.Stream{Body: []byte("yz"), N: -1}, "line 1:"},
		{"long closed record", texttest.Stream{Head: []byte("a,b\n1,\""), Body: []byte("\n"), N: limit, Tail: []byte("\"\n3,4\n")}, "line 2:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cr := &countingReader{r: &c.s}
			r, err := NewReader(cr, WithLimits(Limits{MaxRecordBytes: limit}), withBlockSize(4096), WithInferRows(1))
			if err == nil {
				_, err = texttest.Collect(r.Records())
			}
			if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), c.line) {
				t.Fatalf("got %v, want ErrLimit at %s", err, c.line)
			}
			if n := cr.n.Load(); n > 4*limit {
				t.Fatalf("read %d bytes for a limit of %d", n, limit)
			}
		})
	}
	// Just within the limit reads.
	data := "a\n\"" + strings.Repeat("x", limit-4) + "\"\n"
	if _, _, err := readAll(t, []byte(data), WithLimits(Limits{MaxRecordBytes: limit}), withBlockSize(4096)); err != nil {
		t.Fatal(err)
	}
}

// TestRecordLimitDefault: with the default limit, a quote left open over
// hundreds of megabytes fails in bounded memory.
func TestRecordLimitDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("reads ~130 MB")
	}
	var err error
	alloc := texttest.Allocated(func() {
		s := &texttest.Stream{Head: []byte("a,b\n1,\""), Body: []byte("x"), N: 800 << 20}
		var r *Reader
		r, err = NewReader(s)
		if err == nil {
			_, err = texttest.Collect(r.Records())
		}
	})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "line 2:") {
		t.Fatalf("got %v", err)
	}
	if alloc > 512<<20 {
		t.Fatalf("allocated %d MiB", alloc>>20)
	}
	t.Logf("allocated %d MiB", alloc>>20)
}

// wideHeader is n column names c0,c1,….
func wideHeader(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("c")
		b.WriteString(strings.Repeat("x", i%3))
	}
	return b.Bytes()
}

// TestMaxColumns: a header wider than the limit is refused while it is
// split, at a cost bounded by the limit, not the header.
func TestMaxColumns(t *testing.T) {
	var err error
	header := append(wideHeader(3_000_000), '\n') // 9 MB
	alloc := texttest.Allocated(func() {
		_, err = NewReader(bytes.NewReader(header))
	})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "line 1: more than 65536 columns") {
		t.Fatalf("got %v", err)
	}
	if alloc > 64<<20 {
		t.Fatalf("refusing a %d MB header allocated %d MiB", len(header)>>20, alloc>>20)
	}
	t.Logf("refusing a %d MB header allocated %d MiB", len(header)>>20, alloc>>20)
	// Without a header, the first record counts.
	_, _, err = readAll(t, []byte("1,2,3\n"), WithHeader(false), WithLimits(Limits{MaxColumns: 2}))
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v", err)
	}
	if _, _, err = readAll(t, []byte("a,b\n1,2\n"), WithLimits(Limits{MaxColumns: 2})); err != nil {
		t.Fatal(err)
	}
}

// TestWideRecordAfterHeader: a record with millions of fields in a narrow
// file is an error without indexing them all.
func TestWideRecordAfterHeader(t *testing.T) {
	var err error
	data := append([]byte("a,b\n1,2\n"), bytes.Repeat([]byte{','}, 10_000_000)...)
	alloc := texttest.Allocated(func() {
		_, _, err = readAll(t, data, WithInferRows(1))
	})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "line 3: 10000001 fields, want 2") {
		t.Fatalf("got %v", err)
	}
	if alloc > 64<<20 {
		t.Fatalf("a record of %d MB allocated %d MiB", len(data)>>20, alloc>>20)
	}
	t.Logf("a record of %d MB allocated %d MiB", len(data)>>20, alloc>>20)
}

// TestWideCost: the per-column cost of a wide file is small, and linear.
func TestWideCost(t *testing.T) {
	cost := func(n int) uint64 {
		data := append(wideHeader(n), '\n')
		data = append(data, bytes.Repeat([]byte("1,"), n)...)
		data[len(data)-1] = '\n'
		return texttest.Allocated(func() {
			if _, _, err := readAll(t, data); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, big := cost(8000), cost(64000)
	t.Logf("8000 columns: %d B/column; 64000: %d B/column", small/8000, big/64000)
	if big/64000 > 2048 {
		t.Fatalf("%d bytes per column", big/64000)
	}
	if big > 12*small {
		t.Fatalf("8× the columns cost %.1f× the memory", float64(big)/float64(small))
	}
}

// TestLongRecordsFewerRows: a batch of long records ends after about
// chunkpipe.ChunkBytes, whatever the batch size.
func TestLongRecordsFewerRows(t *testing.T) {
	rec := strings.Repeat("x", 1<<20)
	s := &texttest.Stream{Head: []byte("a\n"), Body: []byte(rec + "\n"), N: 20 * int64(len(rec)+1)}
	r, err := NewReader(s)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() > chunkpipe.ChunkBytes>>20+1 {
			t.Fatalf("a batch of %d rows of 1 MiB", rec.NumRows())
		}
		rows += rec.NumRows()
	}
	if rows != 20 {
		t.Fatalf("%d rows", rows)
	}
}

// TestErrorsQuoteLittle: an error about a long header name, cell or list
// of names quotes at most a hundred bytes of each and lists a few names
// (before, a header name was quoted whole, and every unexpected column
// was listed).
func TestErrorsQuoteLittle(t *testing.T) {
	long := strings.Repeat("h", 1<<20)
	i64 := func(names ...string) Option {
		var fs []datatype.Field
		for _, n := range names {
			fs = append(fs, datatype.Field{Name: n, Type: datatype.Int64})
		}
		return WithSchema(alkaid.NewSchema(fs, datatype.Metadata{}))
	}
	var many []string
	for i := range 1000 {
		many = append(many, "c"+strings.Repeat("x", 90)+string(rune('a'+i%26)))
	}
	for _, c := range []struct {
		name, data string
		opts       []Option
	}{
		{"bad cell in a long-named column", long + "\nx\n", []Option{i64(long)}},
		{"null in a long-named column", long + "\n\"\"\n", []Option{i64(long)}},
		{"long bad cell", "a\n" + long + "\n", []Option{i64("a")}},
		{"many unexpected columns", "a," + strings.Join(many, ",") + "\n1" + strings.Repeat(",1", len(many)) + "\n", []Option{i64("a")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readAll(t, []byte(c.data), c.opts...)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err %v, want ErrInvalid", err)
			}
			if n := len(err.Error()); n > 2000 {
				t.Fatalf("a message of %d bytes: %.300s…", n, err)
			}
		})
	}
}

// TestInferIndexSizedOnce: inference allocates the index of its sample's
// cells once, at its size, rather than growing it by doubling (which
// allocated about three times as much and made inference slower than it
// had been).
func TestInferIndexSizedOnce(t *testing.T) {
	const rows, cols = 10000, 10
	var b strings.Builder
	for c := range cols {
		if c > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "c%d", c)
	}
	b.WriteByte('\n')
	for r := range rows {
		for c := range cols {
			if c > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa((r + c) % 10))
		}
		b.WriteByte('\n')
	}
	data := []byte(b.String())
	var err error
	alloc := texttest.Allocated(func() {
		_, err = NewReader(bytes.NewReader(data), withBlockSize(64<<10), WithInferRows(rows))
	})
	if err != nil {
		t.Fatal(err)
	}
	index := rows*cols*int(unsafe.Sizeof(cell{})) + rows*int(unsafe.Sizeof(0))
	if limit := index*3/2 + 4*len(data); alloc > uint64(limit) {
		t.Fatalf("inference allocated %d bytes; an index of %d bytes and an input of %d should take at most %d", alloc, index, len(data), limit)
	}
}
