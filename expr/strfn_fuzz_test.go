package expr

import (
	"errors"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// FuzzRegexpFunctions binds every regular expression function with a
// fuzzed pattern and evaluates it over a fuzzed string: a pattern that
// does not compile and invalid UTF-8 (input or pattern) are errors wrapping
// datatype.ErrInvalid, never a panic; results have a row per input row.
func FuzzRegexpFunctions(f *testing.F) {
	for _, seed := range [][2]string{
		{`(\w+) (\w+)`, "Hello wörld"}, {`a*`, "banana"}, {`(`, "x"}, {`[ä-ü]+`, "ÄÖÜ straße"},
		{`(?i)ß`, "STRASSE ẞ"}, {`^$`, ""}, {`\d{2,}|x`, "a1b22c333"}, {`.`, "b\xffd"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		sb := array.NewBinaryBuilder[int32](datatype.String)
		sb.AppendStrings([]string{input, "", input + input}, []bool{true, false, true})
		fields := []datatype.Field{{Name: "s", Type: datatype.String, Nullable: true}}
		rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), []array.Array{sb.NewArray()}, 3)
		if err != nil {
			t.Fatal(err)
		}
		valid := utf8.ValidString(input) && utf8.ValidString(pattern)
		s, p := Field("s"), Lit(pattern)
		if re, err := regexp.Compile(pattern); err == nil && valid {
			// The prefiltered regexp_matches answers as re.Match.
			b, err := Bind(Call("regexp_matches", s, p), rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			out, err := b.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			got := out.(*array.Boolean)
			if got.Value(0) != re.MatchString(input) || got.Value(2) != re.MatchString(input+input) {
				t.Fatalf("regexp_matches(%q, %q) = %v, re.MatchString disagrees", input, pattern, got)
			}
		}
		for _, e := range []*Expr{
			Call("regexp_matches", s, p), Call("regexp_full_match", s, p, Lit("i")),
			Call("regexp_replace", s, p, Lit(`<\1>`), Lit("g")), Call("regexp_extract", s, p),
			Call("regexp_extract", s, p, Lit(1)), Call("regexp_split_to_array", s, p),
			Call("string_split", s, p), Call("strpos", s, p), Call("replace", s, p, Lit("-")),
		} {
			b, err := Bind(e, rec.Schema())
			if err != nil {
				if !errors.Is(err, datatype.ErrInvalid) {
					t.Fatalf("%s: Bind error %v does not wrap ErrInvalid", e, err)
				}
				continue
			}
			out, err := b.Eval(rec)
			if err != nil {
				if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrLimit) {
					t.Fatalf("%s: Eval error %v wraps no sentinel", e, err)
				}
				if valid {
					t.Fatalf("%s: error %v over valid UTF-8", e, err)
				}
				continue
			}
			if !valid {
				t.Fatalf("%s: no error over invalid UTF-8 %q, %q", e, input, pattern)
			}
			if out.Len() != 3 || !out.IsNull(1) || !datatype.Equal(out.DataType(), b.Type()) {
				t.Fatalf("%s: %d rows of %s (row 1 null: %v)", e, out.Len(), out.DataType(), out.IsNull(1))
			}
		}
	})
}
