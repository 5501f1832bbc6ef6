package grammar_test

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
	"github.com/alkaid-go/alkaid/ndjson"
)

// verdicts: a printed value, or one of the grammar's errors.
const (
	syntax = "!syntax"
	rng    = "!range"
	trunc  = "!truncation"
)

func mustType(t datatype.DataType, err error) datatype.DataType {
	if err != nil {
		panic(err)
	}
	return t
}

var (
	i64    = datatype.Int64
	f64    = datatype.Float64
	dec    = mustType(datatype.NewDecimal(128, 10, 2))
	d32    = datatype.Date32Type
	tsUS   = mustType(datatype.NewTimestamp(datatype.Microsecond, ""))
	tsNS   = mustType(datatype.NewTimestamp(datatype.Nanosecond, ""))
	tsTZ   = mustType(datatype.NewTimestamp(datatype.Second, "+02:00"))
	tm64   = mustType(datatype.NewTime(datatype.Microsecond))
	tricky = []struct {
		in   string
		t    datatype.DataType
		want string // array.FormatValue of the value, or a verdict
	}{
		// Signs and spaces.
		{"12", i64, "12"}, {"+12", i64, "12"}, {"-0", i64, "0"}, {" 12", i64, syntax}, {"12 ", i64, syntax},
		{"\t12", i64, syntax}, {"- 12", i64, syntax}, {"--12", i64, syntax},
		// Radix prefixes, separators, fractions, non-ASCII digits.
		{"0x10", i64, syntax}, {"0b101", i64, syntax}, {"0o17", i64, syntax}, {"1_000", i64, syntax},
		{"1,000", i64, syntax}, {"1/4", i64, syntax}, {"١٢", i64, syntax},
		{"0x10", dec, syntax}, {"0b101", dec, syntax}, {"0o17", dec, syntax}, {"0x1p-2", dec, syntax}, {"1/4", dec, syntax},
		{"0x1p4", f64, syntax}, {"0x.8p1", f64, syntax}, {"1_0", f64, syntax},
		// Exponents: one grammar for every number type.
		{"1e3", i64, "1000"}, {"1.0", i64, "1"}, {"1.5", i64, trunc}, {"15e-1", i64, trunc},
		{"9223372036854775808", i64, rng}, {"1e19", i64, rng},
		{"1.5e2", dec, "150.00"}, {"-25E-2", dec, "-0.25"}, {"1.255", dec, trunc}, {"123456789", dec, rng},
		{".5", f64, "0.5"}, {"5.", f64, "5"}, {"-2.5e-3", f64, "-0.0025"}, {"1e", f64, syntax}, {".", f64, syntax},
		{"1e400", f64, rng}, {"1e-400", f64, rng}, {"4.9e-324", f64, "5e-324"},
		// NaN and infinity spellings: floats only.
		{"NaN", f64, "NaN"}, {"nan", f64, "NaN"}, {"Inf", f64, "+Inf"}, {"-Inf", f64, "-Inf"},
		{"+infinity", f64, "+Inf"}, {"-Infinity", f64, "-Inf"}, {"NaN", i64, syntax}, {"Inf", dec, syntax},
		{"infinit", f64, syntax},
		// Fraction digits finer than the unit.
		{"2024-01-01T00:00:00.123456", tsUS, "2024-01-01T00:00:00.123456"},
		{"2024-01-01T00:00:00.1234567", tsUS, trunc}, {"2024-01-01T00:00:00.1234560", tsUS, "2024-01-01T00:00:00.123456"},
		{"2024-01-01T00:00:00.1234567891", tsNS, trunc}, {"12:00:00.1234567", tm64, trunc}, {"12:00:00.5", tm64, "12:00:00.5"},
		// Offsets.
		{"2024-01-01T00:00:00+02:00", tsUS, "2023-12-31T22:00:00"}, {"2024-01-01 00:00:00Z", tsUS, "2024-01-01T00:00:00"},
		{"2024-01-01T00:00:00-0930", tsUS, "2024-01-01T09:30:00"}, {"2024-01-01T00:00:00+24:00", tsUS, syntax},
		{"2024-01-01T00:00:00Z", tsTZ, "2024-01-01T02:00:00+02:00"},
		{"2024-01-01T00:00:00+02:00", d32, "2024-01-01"}, {"2024-01-01T10:00:00", d32, trunc},
		// Leap days and seconds.
		{"2024-02-29", d32, "2024-02-29"}, {"2023-02-29", d32, syntax}, {"1900-02-29", d32, syntax},
		{"2000-02-29", d32, "2000-02-29"}, {"2024-02-29T12:00:00", tsUS, "2024-02-29T12:00:00"},
		{"2024-01-01T23:59:60", tsUS, syntax}, {"24:00:00", tm64, syntax},
		// Out-of-range and malformed dates.
		{"2024-13-01", d32, syntax}, {"2024-1-1", d32, syntax}, {"10000-01-01", d32, syntax},
		{"0000-01-01", d32, "0000-01-01"}, {"9999-12-31", d32, "9999-12-31"}, {"2300-01-01T00:00:00", tsNS, rng},
		{"2024-01-01", tsUS, "2024-01-01T00:00:00"},
	}
)

// verdict names the grammar error of err ("" for none).
func verdict(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, grammar.ErrRange), errors.Is(err, compute.ErrOverflow):
		return rng
	case errors.Is(err, grammar.ErrTruncation), errors.Is(err, compute.ErrTruncation):
		return trunc
	case errors.Is(err, datatype.ErrInvalid):
		return syntax
	}
	return "unexpected " + err.Error()
}

func castText(in string, t datatype.DataType) (string, error) {
	b := array.NewBinaryBuilder[int32](datatype.String)
	b.Append([]byte(in))
	out, err := compute.Cast(b.NewArray(), t)
	if err != nil {
		return "", err
	}
	return array.FormatValue(out, 0), nil
}

func schemaOf(t datatype.DataType) *alkaid.Schema {
	return alkaid.NewSchema([]datatype.Field{{Name: "a", Type: t, Nullable: true}}, datatype.Metadata{})
}

func first(recs func(func(*alkaid.Record, error) bool)) (string, error) {
	for rec, err := range recs {
		if err != nil {
			return "", err
		}
		return array.FormatValue(rec.Column(0), 0), nil
	}
	return "", errors.New("no rows")
}

func csvText(in string, t datatype.DataType) (string, error) {
	r, err := csv.NewReader(strings.NewReader("a\n\""+strings.ReplaceAll(in, `"`, `""`)+"\"\n"), csv.WithSchema(schemaOf(t)))
	if err != nil {
		return "", err
	}
	return first(r.Records())
}

func ndjsonText(doc string, t datatype.DataType) (string, error) {
	r, err := ndjson.NewReader(strings.NewReader(`{"a":`+doc+"}\n"), ndjson.WithSchema(schemaOf(t)))
	if err != nil {
		return "", err
	}
	return first(r.Records())
}

// TestTrickyInputsAgree: compute.Cast, the csv reader and the ndjson
// reader (the text as a JSON string, and as a bare JSON number where it is
// one) give the same value or the same kind of error for every input of
// the table in the package doc.
func TestTrickyInputsAgree(t *testing.T) {
	for _, c := range tricky {
		q, _ := json.Marshal(c.in)
		readers := map[string]func() (string, error){
			"cast":   func() (string, error) { return castText(c.in, c.t) },
			"csv":    func() (string, error) { return csvText(c.in, c.t) },
			"ndjson": func() (string, error) { return ndjsonText(string(q), c.t) },
		}
		var n json.Number
		if json.Unmarshal([]byte(c.in), &n) == nil && c.in == string(n) {
			readers["ndjson number"] = func() (string, error) { return ndjsonText(c.in, c.t) }
		}
		for name, read := range readers {
			got, err := read()
			if v := verdict(err); v != "" {
				got = v
			}
			if got != c.want {
				t.Errorf("%s %q as %s: %s, want %s (err %v)", name, c.in, c.t, got, c.want, err)
			}
		}
	}
}

// TestTrickyTableDocumented: every input of the table is in the package
// doc's table.
func TestTrickyTableDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tricky {
		q := strconv.Quote(c.in)
		if !strings.Contains(string(doc), q) {
			t.Errorf("%s is not in the doc's table", q)
		}
	}
}

// TestTrimSpaceEverywhere: asked to, Cast, csv and ndjson all drop the
// spaces around a value (and csv infers the number under them).
func TestTrimSpaceEverywhere(t *testing.T) {
	for _, c := range []struct {
		in   string
		t    datatype.DataType
		want string
	}{{" 12\t", i64, "12"}, {" 1.5e2 ", dec, "150.00"}, {" 2024-02-29 ", d32, "2024-02-29"}, {"\tNaN ", f64, "NaN"}} {
		b := array.NewBinaryBuilder[int32](datatype.String)
		b.Append([]byte(c.in))
		out, err := compute.Cast(b.NewArray(), c.t, compute.TrimSpace())
		if err != nil || array.FormatValue(out, 0) != c.want {
			t.Errorf("cast %q: %v, %v", c.in, out, err)
		}
		r, err := csv.NewReader(strings.NewReader("a\n\""+c.in+"\"\n"), csv.WithSchema(schemaOf(c.t)), csv.WithTrimSpace())
		if err != nil {
			t.Fatal(err)
		}
		if got, err := first(r.Records()); err != nil || got != c.want {
			t.Errorf("csv %q: %s, %v", c.in, got, err)
		}
		q, _ := json.Marshal(c.in)
		nr, err := ndjson.NewReader(strings.NewReader(`{"a":`+string(q)+"}\n"), ndjson.WithSchema(schemaOf(c.t)), ndjson.WithTrimSpace())
		if err != nil {
			t.Fatal(err)
		}
		if got, err := first(nr.Records()); err != nil || got != c.want {
			t.Errorf("ndjson %q: %s, %v", c.in, got, err)
		}
	}
	r, err := csv.NewReader(strings.NewReader("a\n 12\n7 \n"), csv.WithTrimSpace())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Schema().Field(0).Type; !datatype.Equal(got, datatype.Int64) {
		t.Errorf("csv infers %s under spaces, want int64", got)
	}
}
