package csv

import (
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

var time32s, _ = datatype.NewTime(datatype.Second)

func str(a array.Array, i int) string { return a.(*array.BinaryArray).ValueString(i) }

// TestInfer: each column's inferred type holds every value exactly.
func TestInfer(t *testing.T) {
	cases := []struct {
		name, cells string // cells separated by '|'
		want        string
		opts        []Option
	}{
		{"ints", "1|-2|+3|", "int64", nil},
		{"int64 max", "9223372036854775807|-9223372036854775808", "int64", nil},
		{"overflow makes a decimal, not float64", "1|100000000000000000000", "decimal128(38, 0)", nil},
		{"77 digits make a string", "1|" + strings.Repeat("9", 77), "utf8", nil},
		{"floats", "1.5|2|-3e10|NaN", "float64", nil},
		{"float digits beyond 15 make a decimal", "1.5|0.1234567890123456789", "decimal128(38, 19)", nil},
		{"float overflow makes a string", "1.5|1e400", "utf8", nil},
		{"bools", "true|False|TRUE", "bool", nil},
		{"custom bools", "y|n", "bool", []Option{WithBooleans([]string{"y"}, []string{"n"})}},
		{"dates", "2024-01-02|1999-12-31", "date32", nil},
		{"bad date is a string", "2024-02-30", "utf8", nil},
		{"times", "12:00:00|23:59:59.123", "time64[us]", nil},
		{"nanosecond times", "12:00:00.123456789", "time64[ns]", nil},
		{"timestamps", "2024-01-02T03:04:05|2024-01-02 03:04:05.5", "timestamp[us]", nil},
		{"zoned timestamps", "2024-01-02T03:04:05Z|2024-01-02T03:04:05+02:00", "timestamp[us, tz=UTC]", nil},
		{"zoned and not is a string", "2024-01-02T03:04:05Z|2024-01-02T03:04:05", "utf8", nil},
		{"layouts", "02/01/2024 10:00", "timestamp[us]", []Option{WithTimestampLayouts("02/01/2006 15:04")}},
		{"quoted empty is a string", `1|""`, "utf8", nil},
		{"all null", "||", "utf8", nil},
		{"mixed", "1|x", "utf8", nil},
		{"leading zeros stay strings", "02134|10001", "utf8", nil},
		{"zero and fractions are numbers", "0|0.5|-0.25", "float64", nil},
		{"invalid UTF-8 as binary", "a|\xff", "binary", []Option{WithInvalidUTF8AsBinary()}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := "c\n" + strings.ReplaceAll(c.cells, "|", "\n") + "\n"
			s, recs, err := readAll(t, []byte(data), c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Field(0).Type.String(); got != c.want {
				t.Fatalf("inferred %s, want %s", got, c.want)
			}
			n := 0
			for _, r := range recs {
				n += r.NumRows()
			}
			if want := strings.Count(data, "\n") - 1; n != want {
				t.Fatalf("%d rows, want %d", n, want)
			}
		})
	}
}

// TestInferValues: inferred columns hold the exact values.
func TestInferValues(t *testing.T) {
	data := "i,big,f,d,ts\n1,100000000000000000001,0.5,0.1234567890123456789,2024-01-02T03:04:05.123456Z\n"
	_, recs, err := readAll(t, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	got := recs[0].String()
	for _, want := range []string{"[1]", "[100000000000000000001]", "[0.5]", "0.1234567890123456789", "2024-01-02"} {
		if !strings.Contains(got, want) {
			t.Errorf("record lacks %s:\n%s", want, got)
		}
	}
}

// TestReadErrors: bad input is an error naming the line, the column and
// the value.
func TestReadErrors(t *testing.T) {
	i64 := alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int64, Nullable: true}, {Name: "b", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	cases := []struct {
		name, data string
		opts       []Option
		want       []string
	}{
		{"wrong field count", "a,b\n1,x\n2\n", nil, []string{"line 3", "1 fields, want 2"}},
		{"overflow with schema", "a,b\n1,x\n99999999999999999999,y\n", []Option{WithSchema(i64)}, []string{"line 3", `column 1 ("a")`, "99999999999999999999"}},
		{"overflow after the sample", "a\n1\n2\n99999999999999999999\n", []Option{WithInferRows(2)}, []string{"line 4", `column 1 ("a")`, "99999999999999999999"}},
		{"invalid UTF-8", "a,b\n1,ok\n2,b\xffd\n", nil, []string{"line 3", `column 2 ("b")`, "UTF-8"}},
		{"invalid UTF-8 after the sample", "a,b\n1,ok\n2,b\xffd\n", []Option{WithInferRows(1), WithBatchSize(1)}, []string{"line 3", `column 2 ("b")`, "UTF-8"}},
		{"missing and unexpected columns", "a,c\n1,x\n", []Option{WithSchema(i64)}, []string{`missing from the header: "b"`, `not in the schema: "c"`}},
		{"unclosed quote", "a,b\n1,\"x\n", nil, []string{"line 2", "not closed"}},
		{"text after quote", "a,b\n1,\"x\"y\n", nil, []string{"line 2", "after the closing quote"}},
		{"bare quote", "a,b\n1,x\"y\n", nil, []string{"line 2", "quote in an unquoted field"}},
		{"empty input", "", nil, []string{"no header"}},
		{"projection of a missing column", "a,b\n1,2\n", []Option{WithColumns("a", "zz")}, []string{`"zz"`}},
		{"fraction too fine for the unit", "t\n12:00:00.5\n", []Option{WithSchema(alkaid.NewSchema([]datatype.Field{{Name: "t", Type: time32s, Nullable: true}}, datatype.Metadata{}))}, []string{"line 2", "finer than the type holds"}},
		{"null in non-nullable", "a\n1\n\n2\n", []Option{WithSchema(alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int64}}, datatype.Metadata{}))}, []string{"line 3", "non-nullable"}},
		{"bad option", "a\n1\n", []Option{WithDelimiter('"')}, []string{"delimiter and the quote"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readAll(t, []byte(c.data), c.opts...)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNotSupported) {
				t.Errorf("err %v wraps no sentinel", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestSchemaByName: a schema listing the columns in another order than the
// header maps them by name (the import problem: positions swapped data).
func TestSchemaByName(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "last", Type: datatype.String, Nullable: true}, {Name: "first", Type: datatype.String, Nullable: true}}, datatype.Metadata{})
	_, recs, err := readAll(t, []byte("first,last\nAda,Lovelace\n"), WithSchema(s))
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	if r.ColumnName(0) != "last" || str(r.Column(0), 0) != "Lovelace" || str(r.Column(1), 0) != "Ada" {
		t.Fatalf("got\n%v", r)
	}
	// Positional only when asked.
	_, recs, err = readAll(t, []byte("first,last\nAda,Lovelace\n"), WithSchema(s), WithPositional())
	if err != nil {
		t.Fatal(err)
	}
	if str(recs[0].Column(0), 0) != "Ada" {
		t.Fatalf("positional: got\n%v", recs[0])
	}
}

// TestOptions: comment, skip rows, no header, projection, skip bad rows,
// quoted line breaks, CRLF.
func TestOptions(t *testing.T) {
	data := "junk line\n# comment, with \"quote\nx,y,z\n1,\"a\nb\",true\r\n\n2,c\n# another\n3,\"d\"\"e\",false\n"
	r, err := NewReader(strings.NewReader(data), WithSkipRows(1), WithComment('#'), WithSkipBadRows(),
		WithColumns("z", "y"), WithBatchSize(1), withBlockSize(4))
	if err != nil {
		t.Fatal(err)
	}
	var ys []string
	var zs []bool
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.ColumnName(0) != "z" || rec.ColumnName(1) != "y" {
			t.Fatalf("columns %v", rec.Schema())
		}
		for i := range rec.NumRows() {
			zs = append(zs, rec.Column(0).(*array.Boolean).Value(i))
			ys = append(ys, str(rec.Column(1), i))
		}
	}
	if strings.Join(ys, "|") != "a\nb|d\"e" || len(zs) != 2 || !zs[0] || zs[1] {
		t.Fatalf("y=%q z=%v", ys, zs)
	}
	if r.Skipped() != 1 {
		t.Fatalf("skipped %d, want 1", r.Skipped())
	}

	_, recs, err := readAll(t, []byte("1,2\n3,4\n"), WithHeader(false))
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].NumRows() != 2 || recs[0].ColumnName(1) != "col_2" {
		t.Fatalf("no header: %v", recs[0])
	}
}

// TestBOM: a byte order mark is not part of the first column's name.
func TestBOM(t *testing.T) {
	s, recs, err := readAll(t, []byte("\xef\xbb\xbfid,name\n1,x\n"), withBlockSize(1))
	if err != nil {
		t.Fatal(err)
	}
	if s.Field(0).Name != "id" || recs[0].NumRows() != 1 {
		t.Fatalf("schema %v", s)
	}
}

// TestInferAll: the first pass over a seekable input sees a value beyond
// the sample.
func TestInferAll(t *testing.T) {
	data := "a\n1\n2\n2.5\n"
	s, recs, err := readAll(t, []byte(data), WithInferRows(1), WithInferAll())
	if err != nil {
		t.Fatal(err)
	}
	if s.Field(0).Type != datatype.Float64 || recs[0].NumRows() != 3 {
		t.Fatalf("schema %v rows %d", s, recs[0].NumRows())
	}
	if _, err := NewReader(strings.NewReader(data), WithInferAll()); err != nil {
		t.Fatalf("strings.Reader is a Seeker: %v", err)
	}
	if _, err := NewReader(struct{ *strings.Reader }{strings.NewReader(data)}, WithInferAll()); err != nil {
		t.Fatalf("embedded Seeker: %v", err)
	}
}

// TestEarlyBreak: leaving the loop early stops the goroutines cleanly.
func TestEarlyBreak(t *testing.T) {
	data := "a\n" + strings.Repeat("1\n", 10000)
	r, err := NewReader(strings.NewReader(data), WithBatchSize(10), WithConcurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		n += rec.NumRows()
		if n >= 30 {
			break
		}
	}
	if n != 30 {
		t.Fatalf("%d rows", n)
	}
	for _, err := range r.Records() {
		if err == nil {
			t.Fatal("second range gave no error")
		}
	}
}

// countingReader counts the bytes read through it.
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
	data := "a,b\n" + strings.Repeat("12345,hello\n", 1_000_000) // 12 MB
	cr := &countingReader{r: strings.NewReader(data)}
	r, err := NewReader(cr, WithBatchSize(100), withBlockSize(4096), WithConcurrency(2), WithInferRows(10))
	if err != nil {
		t.Fatal(err)
	}
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() != 100 {
			t.Fatalf("%d rows", rec.NumRows())
		}
		time.Sleep(50 * time.Millisecond) // let the goroutines run ahead as far as they can
		break
	}
	if n := cr.n.Load(); n > 64<<10 {
		t.Fatalf("read %d bytes ahead of one batch of 1.2 KB", n)
	}
}
