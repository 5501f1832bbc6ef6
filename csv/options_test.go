package csv

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

var (
	_ alkaid.RecordReader = (*Reader)(nil)
	_ alkaid.RecordWriter = (*Writer)(nil)
)

var abSchema = alkaid.NewSchema([]datatype.Field{
	{Name: "a", Type: datatype.Int64, Nullable: true},
	{Name: "b", Type: datatype.String, Nullable: true},
}, datatype.Metadata{})

// TestOptionErrors: a bad option value, or an option of the other side,
// makes the constructor fail with ErrInvalid naming the option.
func TestOptionErrors(t *testing.T) {
	cases := []struct {
		name   string
		opt    Option
		writer bool // given to NewWriter instead of NewReader
		want   string
	}{
		{"negative concurrency", WithConcurrency(-1), false, "WithConcurrency(-1)"},
		{"negative concurrency, writer", WithConcurrency(-2), true, "WithConcurrency(-2)"},
		{"zero batch size", WithBatchSize(0), false, "WithBatchSize(0)"},
		{"zero infer rows", WithInferRows(0), false, "WithInferRows(0)"},
		{"negative skip rows", WithSkipRows(-1), false, "WithSkipRows(-1)"},
		{"negative record limit", WithLimits(Limits{MaxRecordBytes: -1}), false, "MaxRecordBytes -1"},
		{"negative column limit", WithLimits(Limits{MaxColumns: -5}), false, "MaxColumns -5"},
		{"line break delimiter", WithDelimiter('\n'), false, `WithDelimiter('\n')`},
		{"NUL quote, writer", WithQuote(0), true, `WithQuote('\x00')`},
		{"delimiter is the quote", WithDelimiter('"'), false, "WithDelimiter('\"') and WithQuote('\"')"},
		{"delimiter is the quote, writer", WithQuote(','), true, "WithDelimiter(',') and WithQuote(',')"},
		{"comment is the delimiter", WithComment(','), false, "WithComment(',')"},
		{"nil schema", WithSchema(nil), false, "WithSchema(nil)"},
		{"no null text, writer", WithNullValues(), true, "WithNullValues()"},
		{"writer option to a reader", WithCRLF(), false, "WithCRLF is an option of a Writer"},
		{"reader option to a writer", WithBatchSize(10), true, "WithBatchSize is an option of a Reader"},
		{"limits to a writer", WithLimits(Limits{}), true, "WithLimits is an option of a Reader"},
		{"columns to a writer", WithColumns("a"), true, "WithColumns is an option of a Reader"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.writer {
				_, err = NewWriter(new(bytes.Buffer), abSchema, c.opt)
			} else {
				_, err = NewReader(strings.NewReader("a,b\n1,x\n"), c.opt)
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "csv: ") {
				t.Fatalf("err = %v, want csv: ErrInvalid naming %s", err, c.want)
			}
		})
	}
}

// TestSharedOptions: the options of both sides mean the same to both, and
// zero concurrency and zero limits are the defaults.
func TestSharedOptions(t *testing.T) {
	opts := []Option{WithDelimiter(';'), WithQuote('\''), WithHeader(false), WithNullValues("NA", "-"),
		WithBooleans([]string{"yes", "Y"}, []string{"no"}), WithConcurrency(0)}
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "a", Type: datatype.Int64, Nullable: true},
		{Name: "b", Type: datatype.String, Nullable: true},
		{Name: "c", Type: datatype.Bool, Nullable: true},
	}, datatype.Metadata{})
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	ib.AppendValues([]int64{1, 0, 3}, []bool{true, false, true})
	sb := array.NewBinaryBuilder[int32](datatype.String)
	sb.AppendStrings([]string{"NA", "x;y", "-"}, nil)
	bb := array.NewBooleanBuilder(datatype.Bool)
	bb.AppendValues([]bool{true, false, false}, []bool{true, true, false})
	rec, err := alkaid.NewRecord(schema, []array.Array{ib.NewArray(), sb.NewArray(), bb.NewArray()}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := newWriter(t, &buf, schema, opts...)
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "1;'NA';yes\nNA;'x;y';no\n3;'-';NA\n"; buf.String() != want {
		t.Fatalf("wrote %q, want %q", buf.String(), want)
	}
	_, got, err := readAll(t, buf.Bytes(), append(opts, WithSchema(schema), WithLimits(Limits{}))...)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, rec, got)
}

// TestWriterSchema: a Writer writes the header of its schema even without
// a record, and refuses a record of another schema.
func TestWriterSchema(t *testing.T) {
	var buf bytes.Buffer
	w := newWriter(t, &buf, abSchema)
	if buf.Len() != 0 {
		t.Fatalf("NewWriter wrote %q", buf.String())
	}
	other := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int32, Nullable: true}}, datatype.Metadata{})
	b := array.NewPrimitiveBuilder[int32](datatype.Int32)
	b.Append(1)
	rec, err := alkaid.NewRecord(other, []array.Array{b.NewArray()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), "csv: ") {
		t.Fatalf("Write of another schema: %v, want ErrInvalid", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "a,b\n" {
		t.Fatalf("wrote %q, want the header", buf.String())
	}
	if _, err := NewWriter(&buf, nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil schema: %v", err)
	}
}

// TestParallelLowestError: with two bad chunks, every concurrency reports
// the first one's error, as a serial read does, even when the later chunk
// fails sooner (it fails at its first row, the earlier at its last).
func TestParallelLowestError(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b\n")
	const batch = 2000
	for i := range 4 * batch {
		switch i {
		case 2*batch - 1: // the last row of chunk 1
			b.WriteString("x,bad int\n")
		case 3 * batch: // the first row of chunk 3
			b.WriteString("1,2,3\n")
		default:
			fmt.Fprintf(&b, "%d,s%d\n", i, i)
		}
	}
	want := fmt.Sprintf("line %d,", 2*batch+1)
	for _, workers := range []int{1, 2, 4} {
		for range 10 {
			_, _, err := readAll(t, []byte(b.String()), WithSchema(abSchema), WithBatchSize(batch), WithConcurrency(workers))
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
				t.Fatalf("%d workers: err = %v, want the error of %s", workers, err, want)
			}
		}
	}
}

// TestRecordsTwice: a second range over Records is an error wrapping
// ErrInvalid; Close is allowed more than once.
func TestRecordsTwice(t *testing.T) {
	r, err := NewReader(strings.NewReader("a\n1\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, err := range r.Records() {
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("second range: %v", err)
		}
	}
	if r.Close() != nil || r.Close() != nil {
		t.Fatal("Close failed")
	}
}
