package ndjson

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
		{"zero batch size", WithBatchSize(0), false, "WithBatchSize(0)"},
		{"negative infer rows", WithInferRows(-3), false, "WithInferRows(-3)"},
		{"negative line limit", WithLimits(Limits{MaxLineBytes: -1}), false, "MaxLineBytes -1"},
		{"negative field limit", WithLimits(Limits{MaxFields: -5}), false, "MaxFields -5"},
		{"nil schema", WithSchema(nil), false, "WithSchema(nil)"},
		{"writer option to a reader", WithUnionTypeCodes(), false, "WithUnionTypeCodes is an option of a Writer"},
		{"reader option to a writer", WithBatchSize(10), true, "WithBatchSize is an option of a Reader"},
		{"concurrency to a writer", WithConcurrency(2), true, "WithConcurrency is an option of a Reader"},
		{"limits to a writer", WithLimits(Limits{}), true, "WithLimits is an option of a Reader"},
		{"columns to a writer", WithColumns("a"), true, "WithColumns is an option of a Reader"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.writer {
				_, err = NewWriter(new(bytes.Buffer), abSchema, c.opt)
			} else {
				_, err = NewReader(strings.NewReader(`{"a":1,"b":"x"}`+"\n"), c.opt)
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "ndjson: ") {
				t.Fatalf("err = %v, want ndjson: ErrInvalid naming %s", err, c.want)
			}
		})
	}
	// Zero concurrency and zero limits are the defaults.
	_, _, err := readAll(t, []byte(`{"a":1}`+"\n"), WithConcurrency(0), WithLimits(Limits{}))
	if err != nil {
		t.Fatal(err)
	}
}

// TestWriterSchema: a Writer refuses a record of another schema.
func TestWriterSchema(t *testing.T) {
	var buf bytes.Buffer
	w := newWriter(t, &buf, abSchema)
	other := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int32, Nullable: true}}, datatype.Metadata{})
	b := array.NewPrimitiveBuilder[int32](datatype.Int32)
	b.Append(1)
	rec, err := alkaid.NewRecord(other, []array.Array{b.NewArray()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), "ndjson: ") {
		t.Fatalf("Write of another schema: %v, want ErrInvalid", err)
	}
	if err := w.Close(); err != nil || buf.Len() != 0 {
		t.Fatalf("Close: %v, wrote %q", err, buf.String())
	}
	if _, err := NewWriter(&buf, nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil schema: %v", err)
	}
}

// TestParallelLowestError: with two bad chunks, every concurrency reports
// the first one's error, as a serial read does, even when the later chunk
// fails sooner (it fails at its first line, the earlier at its last).
func TestParallelLowestError(t *testing.T) {
	var b strings.Builder
	const batch = 2000
	for i := range 4 * batch {
		switch i {
		case 2*batch - 1: // the last line of chunk 1
			b.WriteString(`{"a":"x"}` + "\n")
		case 3 * batch: // the first line of chunk 3
			b.WriteString(`{"a":` + "\n")
		default:
			fmt.Fprintf(&b, `{"a":%d,"b":"s%d"}`+"\n", i, i)
		}
	}
	want := fmt.Sprintf("line %d:", 2*batch)
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
	r, err := NewReader(strings.NewReader(`{"a":1}` + "\n"))
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
