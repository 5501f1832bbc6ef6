package expr

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// randomStrings is a utf8 array of n short random strings over a small
// alphabet (so that needles and patterns hit often), some null, sliced
// at a random offset so that its first offset is not 0.
func randomStrings(r *rand.Rand, n int) *array.Binary[int32] {
	alphabet := []string{"a", "b", "c", "é", "1", "2", "9", "x", "\n", " ", "ß"}
	b := array.NewBinaryBuilder[int32](datatype.String)
	skip := r.IntN(3)
	for range n + skip {
		if r.IntN(10) == 0 {
			b.AppendNull()
			continue
		}
		var s strings.Builder
		for range r.IntN(7) {
			s.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		b.Append([]byte(s.String()))
	}
	return array.Slice(b.NewArray(), skip, skip+n).(*array.Binary[int32])
}

// TestLiteralPredicate checks contains, starts_with and ends_with with a
// constant needle (one search over the array's bytes) against the
// per-value functions, on random arrays where needles cross values.
func TestLiteralPredicate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	needles := []string{"", "a", "ab", "é", "1 ", "ßa", "x\n", "zz", "ab9c"}
	funcs := map[literalKind]func(s, t []byte) bool{litContains: bytes.Contains, litPrefix: bytes.HasPrefix, litSuffix: bytes.HasSuffix}
	for round := range 200 {
		s := randomStrings(r, r.IntN(40))
		for kind, f := range funcs {
			for _, needle := range needles {
				out, err := literalPredicate(&batch{n: s.Len()}, s, []byte(needle), kind, false)
				if err != nil || out == nil {
					t.Fatalf("round %d: %v, %v", round, out, err)
				}
				got := out.(*array.Boolean)
				for i := range s.Len() {
					if got.IsNull(i) != s.IsNull(i) {
						t.Fatalf("round %d, kind %d, %q: row %d null %v", round, kind, needle, i, got.IsNull(i))
					}
					if want := f(s.Value(i), []byte(needle)); s.IsValid(i) && got.Value(i) != want {
						t.Fatalf("round %d, kind %d, %q in %q (row %d): %v, want %v", round, kind, needle, s.Value(i), i, got.Value(i), want)
					}
				}
			}
		}
	}
}

// TestRegexpMatcher checks the prefiltered regexp_matches (regexpMatcher)
// against re.Match value by value, for random patterns over random
// arrays.
func TestRegexpMatcher(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	atoms := []string{"a", "b", "é", "ß", "1", "9", "ab", "[0-9]", "[a-c]", "[^a]", ".", `\d`, "x", "(a|b)", `\b`, "(1)", "(?:ab)", " "}
	quants := []string{"", "", "", "*", "+", "?", "{2}", "{1,2}", "{3}"}
	options := []string{"", "", "i", "s"}
	for round := range 3000 {
		var p strings.Builder
		if r.IntN(4) == 0 {
			p.WriteString("^")
		}
		for range 1 + r.IntN(4) {
			p.WriteString(atoms[r.IntN(len(atoms))])
			p.WriteString(quants[r.IntN(len(quants))])
		}
		if r.IntN(2) == 0 {
			p.WriteString("$")
		}
		prefix := ""
		switch opt := options[r.IntN(len(options))]; opt {
		case "i", "s":
			prefix = "(?" + opt + ")"
		}
		re := regexp.MustCompile(prefix + p.String())
		m := newRegexpMatcher(re)
		s := randomStrings(r, r.IntN(30))
		got := m.match(s)
		for i := range s.Len() {
			if got.IsNull(i) != s.IsNull(i) {
				t.Fatalf("round %d, %s: row %d null %v", round, re, i, got.IsNull(i))
			}
			if s.IsNull(i) {
				continue
			}
			v := s.Value(i)
			want := re.Match(v)
			if got.Value(i) != want || m.matchValue(v) != want {
				t.Fatalf("round %d: %s on %q: match %v, matchValue %v, re.Match %v (tail %v, lit %q)",
					round, re, v, got.Value(i), m.matchValue(v), want, m.tail != nil, m.lit)
			}
		}
	}
}

// TestRegexpMatcherPlan checks which test decides each pattern.
func TestRegexpMatcherPlan(t *testing.T) {
	for _, c := range []struct {
		pattern string
		tail    int // len(tail), -1 for none
		lit     string
	}{
		{`[0-9]{3}$`, 3, ""},
		{`^a[bc]$`, 2, ""},
		{`([0-9])x$`, 2, ""},
		{`é$`, -1, "é"},
		{`(?i)a$`, -1, ""},
		{`\d+x$`, -1, "x"},
		{`foo[0-9]+bar`, -1, "foo"},
		{`(ab|cd)e`, -1, "e"},
		{`(?i)abc`, -1, ""},
		{`an`, -1, "an"},
		{`a*`, -1, ""},
		{`^ab$`, 2, ""},
		{`^ab`, -1, "ab"},
		{``, -1, ""},
	} {
		m := newRegexpMatcher(regexp.MustCompile(c.pattern))
		tail := -1
		if m.tail != nil {
			tail = len(m.tail)
		}
		if tail != c.tail || string(m.lit) != c.lit {
			t.Errorf("%s: tail %d, literal %q; want %d, %q", c.pattern, tail, m.lit, c.tail, c.lit)
		}
	}
}

// TestStringFunctionsShareUTF8Check evaluates two string functions of a
// column in one expression: both see the column valid once checked, and
// an invalid value is still an error naming its row.
func TestStringFunctionsShareUTF8Check(t *testing.T) {
	for _, c := range []struct {
		values []string
		err    bool
	}{
		{[]string{"ab", "é", ""}, false},
		{[]string{"ab", "\xffb", ""}, true},
	} {
		sb := array.NewBinaryBuilder[int32](datatype.String)
		sb.AppendStrings(c.values, nil)
		fields := []datatype.Field{{Name: "s", Type: datatype.String}}
		rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), []array.Array{sb.NewArray()}, 3)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Parse("contains(s, 'b') AND regexp_matches(s, 'b$') AND length(lower(s)) > 0")
		if err != nil {
			t.Fatal(err)
		}
		b, err := Bind(e, rec.Schema())
		if err != nil {
			t.Fatal(err)
		}
		out, err := b.Eval(rec)
		switch {
		case c.err && (!errors.Is(err, datatype.ErrInvalid) || !strings.Contains(err.Error(), "row 1")):
			t.Errorf("%q: error %v, want ErrInvalid naming row 1", c.values, err)
		case !c.err && (err != nil || out.String() != "[true false false]"):
			t.Errorf("%q: %v, %v", c.values, out, err)
		}
	}
}

// TestRegexpMatchesAnchoredLiteral is a regression test: an anchored
// literal pattern such as `^ab$` matched every value containing ab
// (regexp.LiteralPrefix calls it complete).
func TestRegexpMatchesAnchoredLiteral(t *testing.T) {
	sb := array.NewBinaryBuilder[int32](datatype.String)
	sb.AppendStrings([]string{"xaby", "ab", "abc", "cab"}, nil)
	fields := []datatype.Field{{Name: "s", Type: datatype.String}}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), []array.Array{sb.NewArray()}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{"regexp_matches(s, '^ab$')", "[false true false false]"},
		{"regexp_matches(s, '(?i)^AB$')", "[false true false false]"},
		{"regexp_matches(s, '^ab')", "[false true true false]"},
		{"regexp_matches(s, 'ab$')", "[false true false true]"},
	} {
		e, err := Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Bind(e, rec.Schema())
		if err != nil {
			t.Fatal(err)
		}
		out, err := b.Eval(rec)
		if err != nil || out.String() != c.want {
			t.Errorf("%s = %v, %v; want %s", c.text, out, err, c.want)
		}
	}
}

// TestMapValues checks mapValues (with lower and upper) against the
// per-value mapping, on random sliced arrays with nulls.
func TestMapValues(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		s := randomStrings(r, r.IntN(40))
		for _, lc := range []*letterCase{toLower, toUpper} {
			out, err := mapValues(s, lc.appendTo)
			if err != nil {
				t.Fatal(err)
			}
			got := out.(*array.Binary[int32])
			for i := range s.Len() {
				if got.IsNull(i) != s.IsNull(i) {
					t.Fatalf("round %d: row %d null %v", round, i, got.IsNull(i))
				}
				if want := appendMapped(nil, s.Value(i), lc.f); s.IsValid(i) && string(got.Value(i)) != string(want) {
					t.Fatalf("round %d: row %d %q, want %q", round, i, got.Value(i), want)
				}
			}
		}
	}
}

// TestLetterCase checks lower and upper over whole arrays
// (letterCase.array) against unicode's mapping of each character, on
// random sliced arrays with nulls whose values hold ASCII runs longer
// than a word, characters of every length, characters whose mapping has
// another length (İ, Ⱥ, ɐ, ß for upper) and, under nulls, invalid bytes.
func TestLetterCase(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "Z", "@", "[", "`", "{", "Hello WORLD zz", "é", "É", "ß", "ÿ", "Ÿ", "Σ", "ς", "Ж",
		"€", "ǅ", "🎉", "𐐀", "𐐨", "İ", "Ⱥ", "ɐ", "ſ"}
	for round := range 300 {
		n := r.IntN(50)
		b := array.NewBinaryBuilder[int32](datatype.String)
		skip := r.IntN(3)
		var valid []bool
		for range n + skip {
			var v []byte
			for range r.IntN(8) {
				v = append(v, alphabet[r.IntN(len(alphabet))]...)
			}
			if r.IntN(8) == 0 {
				if r.IntN(2) == 0 {
					v = append(v, 0xc3) // invalid, under a null
				}
				b.Append(v)
				valid = append(valid, false)
				continue
			}
			b.Append(v)
			valid = append(valid, true)
		}
		all := b.NewArray()
		nullable := makeNullable(t, all, valid)
		s := array.Slice(nullable, skip, skip+n).(*array.Binary[int32])
		for _, lc := range []*letterCase{toLower, toUpper} {
			out, err := lc.array(s)
			if err != nil {
				t.Fatal(err)
			}
			got := out.(*array.Binary[int32])
			if got.Len() != n {
				t.Fatalf("round %d: %d rows, want %d", round, got.Len(), n)
			}
			for i := range n {
				if got.IsNull(i) != s.IsNull(i) {
					t.Fatalf("round %d: row %d null %v", round, i, got.IsNull(i))
				}
				if want := appendMapped(nil, s.Value(i), lc.f); s.IsValid(i) && string(got.Value(i)) != string(want) {
					t.Fatalf("round %d: row %d %q, want %q", round, i, got.Value(i), want)
				}
			}
		}
	}
}

// makeNullable is a with the rows whose valid flag is false null (their
// bytes kept).
func makeNullable(t *testing.T, a array.Array, valid []bool) array.Array {
	bin := a.(*array.Binary[int32])
	bits := make([]byte, bitutil.BytesForBits(len(valid)))
	nulls := 0
	for i, v := range valid {
		if v {
			bitutil.SetBit(bits, i)
		} else {
			nulls++
		}
	}
	d := array.NewData(datatype.String, len(valid), []*memory.Buffer{memory.FromSlice(bits),
		memory.FromSlice(bin.Offsets()), memory.FromSlice(bin.ValueBytes())}, nil, nulls, 0)
	out, err := array.Make(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
