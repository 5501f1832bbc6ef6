package ndjson

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/texttest"
)

// manyKeys is one object of n keys k0…, with int values.
func manyKeys(n int) []byte {
	b := []byte{'{'}
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `"k`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return append(b, "}\n"...)
}

// TestManyKeysSmall: a 55 KB line of 5,000 keys reads in memory of the
// order of the input (it reserved batch-size rows for every key: 2.6 GB).
func TestManyKeysSmall(t *testing.T) {
	data := manyKeys(5000)
	var err error
	var recs int
	alloc := texttest.Allocated(func() {
		_, rs, e := readAll(t, data)
		err, recs = e, len(rs)
	})
	if err != nil || recs != 1 {
		t.Fatalf("%d batches, %v", recs, err)
	}
	if alloc > 64<<20 {
		t.Fatalf("a %d KB line allocated %d MiB", len(data)>>10, alloc>>20)
	}
	t.Logf("%d KB: allocated %d MiB", len(data)>>10, alloc>>20)
}

// TestManyKeysLinear: reading a line of n keys costs time and memory
// linear in n (keys were found by scanning the names: quadratic).
func TestManyKeysLinear(t *testing.T) {
	cost := func(n int) (time.Duration, uint64) {
		data := manyKeys(n)
		start := time.Now()
		alloc := texttest.Allocated(func() {
			s, recs, err := readAll(t, data)
			if err != nil || len(recs) != 1 || s.NumFields() != n {
				t.Fatalf("%d batches, %v", len(recs), err)
			}
			// And again with the schema given.
			if _, _, err := readAll(t, data, WithSchema(s)); err != nil {
				t.Fatal(err)
			}
		})
		return time.Since(start), alloc
	}
	// The quickest of three runs: the machine may be busy.
	best := func(n int) (time.Duration, uint64) {
		t1, a := cost(n)
		t2, _ := cost(n)
		t3, _ := cost(n)
		return min(t1, t2, t3), a
	}
	cost(1000) // warm up
	t1, a1 := best(5_000)
	t8, a8 := best(40_000)
	t.Logf("5k keys: %v, %d MiB; 40k keys: %v, %d MiB", t1, a1>>20, t8, a8>>20)
	if a8 > 16*a1 {
		t.Fatalf("8× the keys allocated %.1f× the memory", float64(a8)/float64(a1))
	}
	if t8 > 32*t1+500*time.Millisecond { // linear: 8×; quadratic: 64×
		t.Fatalf("8× the keys took %.1f× the time", float64(t8)/float64(t1))
	}
}

// TestWideBatches: batches of a wide schema hold fewer rows, so that
// lines of a few bytes cannot fill a batch of batch-size rows × keys.
func TestWideBatches(t *testing.T) {
	data := append(manyKeys(2000), strings.Repeat("{}\n", 2500)...)
	r, err := NewReader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() > maxCells/2000 {
			t.Fatalf("a batch of %d rows × 2000 fields", rec.NumRows())
		}
		rows += rec.NumRows()
	}
	if rows != 2501 {
		t.Fatalf("%d rows", rows)
	}
}

// TestLineLimit: a line longer than the limit is an ErrLimit naming it,
// read from a generated stream without holding more than a few times the
// limit.
func TestLineLimit(t *testing.T) {
	const limit = 1 << 16
	cases := []struct {
		name string
		s    texttest.Stream
		line string
	}{
		{"unterminated string", texttest.Stream{Head: []byte("{\"a\":1}\n{\"a\":\""), Body: []byte("xyz"), N: -1}, "line 2:"},
		{"long first line", texttest.Stream{Head: []byte("{\"a\":["), Body: []byte("1,"), N: -1}, "line 1:"},
		{"long complete line", texttest.Stream{Head: []byte("{\"a\":1}\n\n{\"a\":\""), Body: []byte("x"), N: limit, Tail: []byte("\"}\n")}, "line 3:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cr := &countingReader{r: &c.s}
			r, err := NewReader(cr, WithLimits(Limits{MaxLineBytes: limit}), withBlockSize(4096), WithInferRows(1))
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
	data := `{"a":"` + strings.Repeat("x", limit-9) + "\"}\n"
	if _, _, err := readAll(t, []byte(data), WithLimits(Limits{MaxLineBytes: limit}), withBlockSize(4096)); err != nil {
		t.Fatal(err)
	}
}

// TestLineLimitDefault: with the default limit, a string left open over
// hundreds of megabytes fails in bounded memory.
func TestLineLimitDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("reads ~130 MB")
	}
	var err error
	alloc := texttest.Allocated(func() {
		s := &texttest.Stream{Head: []byte("{\"a\":1}\n{\"a\":\""), Body: []byte("x"), N: 800 << 20}
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

// TestMaxFields: inference refuses more fields than the limit while it
// reads them, at a cost bounded by the limit, not the line.
func TestMaxFields(t *testing.T) {
	var err error
	data := manyKeys(1_000_000) // 15 MB
	alloc := texttest.Allocated(func() {
		_, err = NewReader(bytes.NewReader(data))
	})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "line 1: more than 65536 fields") {
		t.Fatalf("got %v", err)
	}
	if alloc > 128<<20 {
		t.Fatalf("refusing a %d MB line allocated %d MiB", len(data)>>20, alloc>>20)
	}
	t.Logf("refusing a %d MB line allocated %d MiB", len(data)>>20, alloc>>20)
	// Nested fields and list elements count.
	_, _, err = readAll(t, []byte(`{"a":{"b":[{"c":1}]}}`+"\n"), WithLimits(Limits{MaxFields: 3}))
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v", err)
	}
	if _, _, err = readAll(t, []byte(`{"a":{"b":[{"c":1}]}}`+"\n"), WithLimits(Limits{MaxFields: 4})); err != nil {
		t.Fatal(err)
	}
}

// TestErrorsQuoteLittle: an error about a long key, value or field path
// quotes at most a hundred bytes of it (before, the whole key or path,
// up to the line limit, was in the message).
func TestErrorsQuoteLittle(t *testing.T) {
	long := strings.Repeat("k", 1<<20)
	i64 := WithSchema(alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int64, Nullable: true}}, datatype.Metadata{}))
	for _, c := range []struct {
		name, data string
		opts       []Option
	}{
		{"unknown key", `{"` + long + `":1}`, []Option{i64}},
		{"key twice", `{"a":1,"` + long + `":1,"` + long + `":2}`, []Option{WithColumns("a", long)}},
		{"bad value", `{"a":"` + long + `"}`, []Option{i64}},
		{"bad number", `{"a":1` + strings.Repeat("0", 1<<20) + `}`, []Option{i64}},
		{"path of two kinds", `{"` + long + `":{"x":1}}` + "\n" + `{"` + long + `":2}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readAll(t, []byte(c.data), c.opts...)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err %v, want ErrInvalid", err)
			}
			if n := len(err.Error()); n > 400 {
				t.Fatalf("a message of %d bytes: %.300s…", n, err)
			}
		})
	}
}
