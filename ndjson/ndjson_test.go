package ndjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/internal/texttest"
)

func splitTypes(t *testing.T) (ok, not []datatype.Field) {
	return texttest.SplitTypes(t, supported, 30)
}

func readAll(t *testing.T, data []byte, opts ...Option) (*alkaid.Schema, []*alkaid.Record, error) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), opts...)
	if err != nil {
		return nil, nil, err
	}
	recs, err := texttest.Collect(r.Records())
	return r.Schema(), recs, err
}

func sameRows(t *testing.T, want *alkaid.Record, got []*alkaid.Record) {
	texttest.SameRows(t, want, got)
}

// newWriter is NewWriter for a test: an error fails it.
func newWriter(t testing.TB, w io.Writer, s *alkaid.Schema, opts ...Option) *Writer {
	t.Helper()
	wr, err := NewWriter(w, s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return wr
}

func write(t *testing.T, rec *alkaid.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := newWriter(t, &buf, rec.Schema())
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestRoundTrip: every randdata type with a JSON form (nested ones
// included) reads back equal through a Reader given the schema, for any
// batch size, block size and concurrency.
func TestRoundTrip(t *testing.T) {
	ok, _ := splitTypes(t)
	schema := alkaid.NewSchema(ok, datatype.Metadata{})
	type config struct {
		seed                        uint64
		rows, batch, block, workers int
	}
	cases := []config{{1, 1, 1, 1 << 20, 1}, {2, 200, 7, 64, 3}, {3, 700, 256, 4096, 2}}
	// And random batch sizes, chunk sizes and goroutine counts.
	r := rand.New(rand.NewPCG(36, 2))
	for seed := uint64(10); seed < 16; seed++ {
		cases = append(cases, config{seed, 1 + r.IntN(800), 1 + r.IntN(300), 64 << r.IntN(8), 1 + r.IntN(4)})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("seed%d", c.seed), func(t *testing.T) {
			rec := randdata.New(c.seed).Record(schema, c.rows)
			_, got, err := readAll(t, write(t, rec), WithSchema(schema), WithBatchSize(c.batch),
				withBlockSize(c.block), WithConcurrency(c.workers))
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, rec, got)
		})
	}
	for _, f := range ok {
		t.Run(f.Name, func(t *testing.T) {
			s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			rec := randdata.New(7).Record(s, 50)
			_, got, err := readAll(t, write(t, rec), WithSchema(s), WithBatchSize(9))
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, rec, got)
		})
	}
}

// TestUnsupported: the other types are a clear error on both sides.
func TestUnsupported(t *testing.T) {
	_, not := splitTypes(t)
	for _, f := range not {
		t.Run(f.Name, func(t *testing.T) {
			s := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			_, err := NewWriter(&bytes.Buffer{}, s)
			if !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), f.Name) {
				t.Fatalf("write: %v", err)
			}
			_, _, err = readAll(t, []byte("{}\n"), WithSchema(s))
			if !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), f.Name) {
				t.Fatalf("read: %v", err)
			}
		})
	}
}

// TestInfer covers the widening rule and nested types.
func TestInfer(t *testing.T) {
	cases := []struct{ name, lines, want string }{
		{"ints", `{"a":1}|{"a":-2}|{"a":null}|{}`, "a: int64"},
		{"int then float", `{"a":1}|{"a":2.5}`, "a: float64"},
		{"overflow is a decimal", `{"a":1}|{"a":100000000000000000000}`, "a: decimal128(38, 0)"},
		{"long fraction is a decimal", `{"a":0.1234567890123456789}`, "a: decimal128(38, 19)"},
		{"number then string is a string", `{"a":1}|{"a":"x"}`, "a: utf8"},
		{"bool then number is a string", `{"a":true}|{"a":1}`, "a: utf8"},
		{"dates", `{"a":"2024-01-02"}`, "a: date32"},
		{"timestamps", `{"a":"2024-01-02T00:00:00Z"}`, "a: timestamp[us, tz=UTC]"},
		{"numeric strings stay strings", `{"a":"12"}`, "a: utf8"},
		{"objects", `{"a":{"x":1}}|{"a":{"y":"s"}}`, "a: struct<x: int64, y: utf8>"},
		{"arrays", `{"a":[1,2]}|{"a":[]}|{"a":[null, 3.5]}`, "a: list<item: float64>"},
		{"empty arrays", `{"a":[]}`, "a: list<item: utf8>"},
		{"key order of first sight", `{"b":1}|{"a":1,"b":2}`, "b: int64\n  a: int64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := strings.ReplaceAll(c.lines, "|", "\n")
			s, recs, err := readAll(t, []byte(data))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(s.String(), c.want) {
				t.Fatalf("schema\n%v\nlacks %q", s, c.want)
			}
			rows := 0
			for _, r := range recs {
				rows += r.NumRows()
			}
			if want := strings.Count(c.lines, "|") + 1; rows != want {
				t.Fatalf("%d rows, want %d", rows, want)
			}
		})
	}
}

// TestStringWidening: numbers and booleans in a string column keep their
// exact JSON text.
func TestStringWidening(t *testing.T) {
	_, recs, err := readAll(t, []byte("{\"a\":1.50}\n{\"a\":\"x\"}\n{\"a\":true}\n{\"a\":12345678901234567890123}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := recs[0].Column(0).String()
	if got != `["1.50" "x" "true" "12345678901234567890123"]` {
		t.Fatalf("got %s", got)
	}
}

// TestReadErrors: each names the line and the field.
func TestReadErrors(t *testing.T) {
	i8 := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int8, Nullable: true}, {Name: "s", Type: datatype.String}}, datatype.Metadata{})
	cases := []struct {
		name, data string
		opts       []Option
		want       []string
	}{
		{"object then scalar", `{"a":{"x":1}}` + "\n" + `{"a":2}`, nil, []string{"field a", "object on line 1", "scalar on line 2"}},
		{"array then object", `{"a":[1]}` + "\n" + `{"a":{}}`, nil, []string{"field a", "object on line 2", "array on line 1"}},
		{"overflow with schema", `{"a":1,"s":""}` + "\n" + `{"a":300,"s":""}`, []Option{WithSchema(i8)}, []string{"line 2", "field a", `"300"`}},
		{"overflow after the sample", `{"a":1}` + "\n" + `{"a":2}` + "\n" + `{"a":99999999999999999999}`, []Option{WithInferRows(1)}, []string{"line 3", "field a", "99999999999999999999"}},
		{"invalid UTF-8", `{"a":1,"s":"ok"}` + "\n" + "{\"a\":1,\"s\":\"b\xffd\"}", []Option{WithSchema(i8)}, []string{"line 2", "field s", "UTF-8"}},
		{"invalid UTF-8 while inferring", "{\"s\":\"b\xffd\"}", nil, []string{"line 1", "UTF-8"}},
		{"unknown key", `{"a":1,"s":"","z":0}`, []Option{WithSchema(i8)}, []string{"line 1", `key "z" is not in the schema`}},
		{"missing non-nullable", `{"a":1}`, []Option{WithSchema(i8)}, []string{"line 1", "field s", "non-nullable"}},
		{"duplicate key", `{"a":1,"a":2,"s":""}`, []Option{WithSchema(i8)}, []string{"line 1", `key "a" twice`}},
		{"not an object", `[1]`, nil, []string{"line 1", "want a JSON object"}},
		{"bad JSON", `{"a":1,}`, nil, []string{"line 1", "byte"}},
		{"trailing text", `{"a":1} x`, nil, []string{"line 1", "text after the object"}},
		{"deep", strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100), nil, []string{"line 1", "deeper"}},
		{"wrong scalar kind", `{"a":[1],"s":""}`, []Option{WithSchema(i8)}, []string{"line 1", "field a", "want a scalar"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readAll(t, []byte(c.data), c.opts...)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("err %v is not ErrInvalid", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestWriteInvalidUTF8: a string array holding invalid UTF-8 is an error,
// not a silent U+FFFD.
func TestWriteInvalidUTF8(t *testing.T) {
	b := array.NewBinaryBuilder[int32](datatype.String)
	b.AppendString("ok")
	b.Append([]byte("b\xffd"))
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{b.NewArray()}, 2)
	if err != nil {
		t.Fatal(err)
	}
	err = newWriter(t, &bytes.Buffer{}, s).Write(rec)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "field s, row 1") {
		t.Fatalf("err = %v", err)
	}
}

// TestProjectionAndInferAll: WithColumns skips other keys; WithInferAll
// sees the whole input.
func TestProjectionAndInferAll(t *testing.T) {
	data := "{\"a\":1,\"b\":{\"deep\":[1,{\"x\":null}]},\"c\":\"x\"}\n{\"a\":2.5,\"c\":\"y\"}\n"
	s, recs, err := readAll(t, []byte(data), WithColumns("c", "a"), WithInferRows(1), WithInferAll())
	if err != nil {
		t.Fatal(err)
	}
	if s.NumFields() != 2 || s.Field(0).Name != "c" || s.Field(1).Type != datatype.Float64 {
		t.Fatalf("schema %v", s)
	}
	if recs[0].NumRows() != 2 {
		t.Fatalf("rows %d", recs[0].NumRows())
	}
}

// TestParallelReadSameRecords: several goroutines give the batches one
// gives, in order.
func TestParallelReadSameRecords(t *testing.T) {
	ok, _ := splitTypes(t)
	schema := alkaid.NewSchema(ok, datatype.Metadata{})
	rec := randdata.New(13).Record(schema, 300)
	data := write(t, rec)
	for _, n := range []int{1, 4} {
		_, got, err := readAll(t, data, WithSchema(schema), WithBatchSize(11), withBlockSize(700), WithConcurrency(n))
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, rec, got)
	}
}

type countingReader struct {
	r io.Reader
	n atomic.Int64 // read by the test while the reader's goroutine may still run
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestBoundedReadAhead: the reader stays a few chunks ahead of the
// consumer, whatever the input's size.
func TestBoundedReadAhead(t *testing.T) {
	data := strings.Repeat(`{"a":12345,"b":"hello"}`+"\n", 500_000) // 12 MB
	cr := &countingReader{r: strings.NewReader(data)}
	r, err := NewReader(cr, WithBatchSize(50), withBlockSize(4096), WithConcurrency(2), WithInferRows(10))
	if err != nil {
		t.Fatal(err)
	}
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() != 50 {
			t.Fatalf("%d rows", rec.NumRows())
		}
		time.Sleep(50 * time.Millisecond)
		break
	}
	if n := cr.n.Load(); n > 64<<10 {
		t.Fatalf("read %d bytes ahead of one batch of 1.2 KB", n)
	}
}

// TestUnderflowKeptAsText: a number that would round to zero is kept as
// its text, as one past the largest float is (reading is lossless); with
// a float64 schema both are range errors.
func TestUnderflowKeptAsText(t *testing.T) {
	for _, num := range []string{"1e-400", "1e400", "-2.5e-330"} {
		s, recs, err := readAll(t, []byte(`{"a": `+num+"}\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Field(0).Type; !datatype.Equal(got, datatype.String) {
			t.Fatalf("%s: inferred %s, want utf8", num, got)
		}
		if got := array.FormatValue(recs[0].Column(0), 0); got != `"`+num+`"` {
			t.Fatalf("%s: read %s", num, got)
		}
		schema := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Float64, Nullable: true}}, datatype.Metadata{})
		if _, _, err := readAll(t, []byte(`{"a": `+num+"}\n"), WithSchema(schema)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "out of range") {
			t.Fatalf("%s as float64: %v", num, err)
		}
	}
}

// TestKeyOrders: keys are found in any order, the fields of missing ones
// are null, and with a schema that repeats a name a repeated key is
// still an error (the lookup tries the field after the previous key's
// first).
func TestKeyOrders(t *testing.T) {
	i64 := func(n string) datatype.Field { return datatype.Field{Name: n, Type: datatype.Int64, Nullable: true} }
	abc := alkaid.NewSchema([]datatype.Field{i64("a"), i64("b"), i64("c")}, datatype.Metadata{})
	data := `{"a":1,"b":2,"c":3}` + "\n" + `{"c":6,"b":5,"a":4}` + "\n" + `{"b":8}` + "\n" + `{"a":10,"c":12}` + "\n" + `{"c":15,"a":13}` + "\n"
	_, recs, err := readAll(t, []byte(data), WithSchema(abc))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"[1 4 (null) 10 13]", "[2 5 8 (null) (null)]", "[3 6 (null) 12 15]"} {
		if got := recs[0].Column(i).String(); got != want {
			t.Errorf("column %d: %s, want %s", i, got, want)
		}
	}
	dup := alkaid.NewSchema([]datatype.Field{i64("d"), i64("d")}, datatype.Metadata{})
	if _, _, err := readAll(t, []byte(`{"d":1,"d":2}`), WithSchema(dup)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `key "d" twice`) {
		t.Fatalf("repeated key with a repeated name: %v", err)
	}
}
