package csv

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/internal/texttest"
)

func splitTypes(t *testing.T) (ok, not []datatype.Field) {
	return texttest.SplitTypes(t, cellSupported, 25)
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

// TestRoundTripAllTypes: for every randdata type with a CSV form, writing
// then reading with the same schema gives equal records, whatever the
// batch size, block size and concurrency.
func TestRoundTripAllTypes(t *testing.T) {
	ok, _ := splitTypes(t)
	schema := alkaid.NewSchema(ok, datatype.Metadata{})
	type config struct {
		seed           uint64
		rows, batch    int
		block, workers int
	}
	cases := []config{
		{1, 1, 1, 1 << 20, 1},
		{2, 100, 7, 64, 3},
		{3, 500, 128, 1 << 10, 2},
		{4, 1000, 1000, 1 << 20, 4},
	}
	// And random batch sizes, chunk sizes and goroutine counts.
	r := rand.New(rand.NewPCG(36, 1))
	for seed := uint64(10); seed < 16; seed++ {
		cases = append(cases, config{seed, 1 + r.IntN(800), 1 + r.IntN(300), 16 << r.IntN(9), 1 + r.IntN(4)})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("seed%d_rows%d_batch%d", c.seed, c.rows, c.batch), func(t *testing.T) {
			rec := randdata.New(c.seed).Record(schema, c.rows)
			var buf bytes.Buffer
			w := newWriter(t, &buf, rec.Schema())
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			s, got, err := readAll(t, buf.Bytes(), WithSchema(schema), WithBatchSize(c.batch),
				withBlockSize(c.block), WithConcurrency(c.workers))
			if err != nil {
				t.Fatal(err)
			}
			if !s.Equal(schema) {
				t.Fatalf("schema\n%v\nwant\n%v", s, schema)
			}
			for _, g := range got {
				if g.NumRows() > c.batch {
					t.Fatalf("batch of %d rows, want at most %d", g.NumRows(), c.batch)
				}
			}
			sameRows(t, rec, got)
		})
	}
}

// TestRoundTripOptions: the same with a different delimiter, quote, null
// spelling and booleans on both sides.
func TestRoundTripOptions(t *testing.T) {
	ok, _ := splitTypes(t)
	schema := alkaid.NewSchema(ok, datatype.Metadata{})
	rec := randdata.New(9).Record(schema, 300)
	var buf bytes.Buffer
	w := newWriter(t, &buf, rec.Schema(), WithDelimiter(';'), WithQuote('\''), WithNullValues("NA"), WithBooleans([]string{"yes"}, []string{"no"}), WithCRLF())
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, got, err := readAll(t, buf.Bytes(), WithSchema(schema), WithDelimiter(';'), WithQuote('\''),
		WithNullValues("NA"), WithBooleans([]string{"yes"}, []string{"no"}), WithBatchSize(50))
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, rec, got)
}

// TestWriteUnsupported: types without a CSV form are an error naming the
// column, before anything is written.
func TestWriteUnsupported(t *testing.T) {
	_, not := splitTypes(t)
	for _, f := range not {
		t.Run(f.Name, func(t *testing.T) {
			schema := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			var buf bytes.Buffer
			_, err := NewWriter(&buf, schema)
			if !errors.Is(err, ErrNotSupported) || !bytes.Contains([]byte(err.Error()), []byte(fmt.Sprintf("%q", f.Name))) {
				t.Fatalf("err = %v, want ErrNotSupported naming %q", err, f.Name)
			}
			if buf.Len() != 0 {
				t.Fatalf("wrote %q", buf.String())
			}
			_, _, err = readAll(t, []byte(f.Name+"\n1\n"), WithSchema(schema))
			if !errors.Is(err, ErrNotSupported) {
				t.Fatalf("reading: err = %v, want ErrNotSupported", err)
			}
		})
	}
}

// TestRoundTripEachType: one column at a time (a one-column file has
// blank lines for nulls).
func TestRoundTripEachType(t *testing.T) {
	ok, _ := splitTypes(t)
	for _, f := range ok {
		t.Run(f.Name, func(t *testing.T) {
			schema := alkaid.NewSchema([]datatype.Field{f}, datatype.Metadata{})
			rec := randdata.New(5).Record(schema, 60)
			var buf bytes.Buffer
			w := newWriter(t, &buf, rec.Schema())
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			_, got, err := readAll(t, buf.Bytes(), WithSchema(schema), WithBatchSize(16))
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, rec, got)
		})
	}
}

// TestParallelWriteSameBytes: formatting rows on several goroutines
// writes the same bytes as one.
func TestParallelWriteSameBytes(t *testing.T) {
	ok, _ := splitTypes(t)
	schema := alkaid.NewSchema(ok, datatype.Metadata{})
	rec := randdata.New(11).Record(schema, 3*flushRows+17)
	var outs [][]byte
	for _, n := range []int{1, 2, 3} {
		var buf bytes.Buffer
		w := newWriter(t, &buf, rec.Schema(), WithConcurrency(n))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, buf.Bytes())
	}
	if !bytes.Equal(outs[0], outs[1]) || !bytes.Equal(outs[0], outs[2]) {
		t.Fatalf("outputs differ: %d, %d, %d bytes", len(outs[0]), len(outs[1]), len(outs[2]))
	}
	_, got, err := readAll(t, outs[2], WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, rec, got)
}

// TestParallelReadSameRecords: parsing chunks on several goroutines gives
// the batches one goroutine gives, in the same order.
func TestParallelReadSameRecords(t *testing.T) {
	ok, _ := splitTypes(t)
	schema := alkaid.NewSchema(ok, datatype.Metadata{})
	rec := randdata.New(12).Record(schema, 400)
	var buf bytes.Buffer
	w := newWriter(t, &buf, rec.Schema())
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 4} {
		_, got, err := readAll(t, buf.Bytes(), WithSchema(schema), WithBatchSize(13), withBlockSize(512), WithConcurrency(n))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != (400+12)/13 {
			t.Fatalf("%d batches", len(got))
		}
		sameRows(t, rec, got)
	}
}

// TestNumbersQuotedWhenNeeded: a delimiter that numbers contain makes
// them quoted, and they read back.
func TestNumbersQuotedWhenNeeded(t *testing.T) {
	schema := alkaid.NewSchema([]datatype.Field{{Name: "f", Type: datatype.Float64, Nullable: true}, {Name: "i", Type: datatype.Int64, Nullable: true}}, datatype.Metadata{})
	rec := randdata.New(3).Record(schema, 200)
	for _, d := range []byte{'.', '-', 'e'} {
		var buf bytes.Buffer
		w := newWriter(t, &buf, rec.Schema(), WithDelimiter(d))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		_, got, err := readAll(t, buf.Bytes(), WithSchema(schema), WithDelimiter(d))
		if err != nil {
			t.Fatalf("delimiter %q: %v", d, err)
		}
		sameRows(t, rec, got)
	}
}

// TestEveryRanddataType: every type randdata generates has a CSV form
// (before, intervals, dictionaries, run-end encoded and nested types had
// none).
func TestEveryRanddataType(t *testing.T) {
	if _, not := splitTypes(t); len(not) > 0 {
		t.Fatalf("no CSV form: %v", not)
	}
}
