package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// binaryFixture is a record of binary columns holding the same values
// in three layouts (bl binary, lb large_binary, vb binary_view): 00 FF 61,
// empty, null, FF FE FF, and the UTF-8 bytes of "hé" (68 C3 A9); fb is
// fixed_size_binary(2), s a string and n an int64.
func binaryFixture(t testing.TB) *alkaid.Record {
	t.Helper()
	vals := [][]byte{{0, 0xff, 'a'}, {}, nil, {0xff, 0xfe, 0xff}, []byte("hé")}
	valid := []bool{true, true, false, true, true}
	bl := array.NewBinaryBuilder[int32](datatype.Binary)
	lb := array.NewBinaryBuilder[int64](datatype.LargeBinary)
	vb := array.NewBinaryViewBuilder(datatype.BinaryView)
	fbt, _ := datatype.NewFixedSizeBinary(2)
	fb := array.NewFixedSizeBinaryBuilder(fbt)
	for i, v := range vals {
		if !valid[i] {
			bl.AppendNull()
			lb.AppendNull()
			vb.AppendNull()
			fb.AppendNull()
			continue
		}
		bl.Append(v)
		lb.Append(v)
		vb.Append(v)
		fb.Append(append(append([]byte{}, v...), 0, 0)[:2])
	}
	s := array.NewBinaryBuilder[int32](datatype.String)
	s.AppendStrings([]string{"a", "", "x", "\xff", "é"}, nil)
	n := array.NewPrimitiveBuilder[int64](datatype.Int64)
	n.AppendValues([]int64{1, 2, 3, -1, 2}, []bool{true, true, true, true, false})
	fields := []datatype.Field{{Name: "bl", Type: datatype.Binary, Nullable: true},
		{Name: "lb", Type: datatype.LargeBinary, Nullable: true}, {Name: "vb", Type: datatype.BinaryView, Nullable: true},
		{Name: "fb", Type: fbt, Nullable: true}, {Name: "s", Type: datatype.String}, {Name: "n", Type: datatype.Int64, Nullable: true}}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}),
		[]array.Array{bl.NewArray(), lb.NewArray(), vb.NewArray(), fb.NewArray(), s.NewArray(), n.NewArray()}, 5)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestBinaryFunctions checks the binary forms of the string functions:
// bytes counted and compared, never read as UTF-8 (FF FE FF is not
// valid UTF-8 and must go through every function).
func TestBinaryFunctions(t *testing.T) {
	rec := binaryFixture(t)
	for _, c := range []struct{ text, want string }{
		{"hex(bl)", `["00FF61" "" (null) "FFFEFF" "68C3A9"]`},
		{"to_hex(lb)", `["00FF61" "" (null) "FFFEFF" "68C3A9"]`},
		{"hex(vb)", `["00FF61" "" (null) "FFFEFF" "68C3A9"]`},
		{"hex(fb)", `["00FF" "0000" (null) "FFFE" "68C3"]`},
		{"hex('é')", `["C3A9" "C3A9" "C3A9" "C3A9" "C3A9"]`},
		{"hex(unhex('0aFf1'))", `["00AFF1" "00AFF1" "00AFF1" "00AFF1" "00AFF1"]`},
		{"hex(from_hex(hex(bl)))", `["00FF61" "" (null) "FFFEFF" "68C3A9"]`},
		{"length(bl)", `[3 0 (null) 3 3]`},
		{"length(lb)", `[3 0 (null) 3 3]`},
		{"strlen(vb)", `[3 0 (null) 3 3]`},
		{"octet_length(fb)", `[2 2 (null) 2 2]`},
		{"character_length(bl)", `[3 0 (null) 3 3]`},
		{"hex(reverse(bl))", `["61FF00" "" (null) "FFFEFF" "A9C368"]`},
		{"hex(substr(bl, 2))", `["FF61" "" (null) "FEFF" "C3A9"]`},
		{"hex(substr(lb, 2, 1))", `["FF" "" (null) "FE" "C3"]`},
		{"hex(substr(bl, -1))", `["61" "" (null) "FF" "A9"]`},
		{"hex(substr(bl, 0, 2))", `["00" "" (null) "FF" "68"]`},
		{"hex(substr(bl, 3, -2))", `["00FF" "" (null) "FFFE" "68C3"]`},
		{"hex(substr(bl, n))", `["00FF61" "" (null) "FF" (null)]`},
		{"hex(left(bl, 2))", `["00FF" "" (null) "FFFE" "68C3"]`},
		{"hex(left(bl, -1))", `["00FF" "" (null) "FFFE" "68C3"]`},
		{"hex(right(vb, 2))", `["FF61" "" (null) "FEFF" "C3A9"]`},
		{"hex(right(bl, -2))", `["61" "" (null) "FF" "A9"]`},
		{"starts_with(bl, unhex('00'))", `[true false (null) false false]`},
		{"starts_with(lb, unhex('FFFE'))", `[false false (null) true false]`},
		{"ends_with(bl, unhex('FF'))", `[false false (null) true false]`},
		{"ends_with(vb, 'é')", `[false false (null) false true]`},
		{"contains(bl, unhex('FF'))", `[true false (null) true false]`},
		{"contains(lb, unhex('FEFF'))", `[false false (null) true false]`},
		{"contains(bl, '')", `[true true (null) true true]`},
		{"contains(unhex('00FF61'), bl)", `[true true (null) false false]`},
		{"strpos(bl, unhex('FF'))", `[2 0 (null) 1 0]`},
		{"instr(bl, 'é')", `[0 0 (null) 0 2]`},
		{"strpos(bl, '')", `[1 1 (null) 1 1]`},
		{"hex(replace(bl, unhex('FF'), unhex('0000')))", `["00000061" "" (null) "0000FE0000" "68C3A9"]`},
		{"hex(replace(bl, '', 'x'))", `["00FF61" "" (null) "FFFEFF" "68C3A9"]`},
		{"hex(repeat(bl, 2))", `["00FF6100FF61" "" (null) "FFFEFFFFFEFF" "68C3A968C3A9"]`},
		{"hex(repeat(fb, n))", `["00FF" "00000000" (null) "" (null)]`},
		{"hex(trim(bl, unhex('FF00')))", `["61" "" (null) "FE" "68C3A9"]`},
		{"hex(ltrim(bl, unhex('FF00')))", `["61" "" (null) "FEFF" "68C3A9"]`},
		{"hex(rtrim(bl, unhex('A9C3')))", `["00FF61" "" (null) "FFFEFF" "68"]`},
		{"hex(trim(unhex('202000FF20')))", `["00FF" "00FF" "00FF" "00FF" "00FF"]`},
		{"hex(lpad(bl, 4, unhex('EE')))", `["EE00FF61" "EEEEEEEE" (null) "EEFFFEFF" "EE68C3A9"]`},
		{"hex(rpad(bl, 2, 'é'))", `["00FF" "C3A9" (null) "FFFE" "68C3"]`},
		{"hex(rpad(bl, 5, 'é'))", `["00FF61C3A9" "C3A9C3A9C3" (null) "FFFEFFC3A9" "68C3A9C3A9"]`},
		{"hex(bl || unhex('FF'))", `["00FF61FF" "FF" (null) "FFFEFFFF" "68C3A9FF"]`},
		{"hex(bl || 'x' || lb)", `["00FF617800FF61" "78" (null) "FFFEFF78FFFEFF" "68C3A97868C3A9"]`},
		{"hex(concat(bl, NULL, vb))", `["00FF6100FF61" "" "" "FFFEFFFFFEFF" "68C3A968C3A9"]`},
		{"to_base64(bl)", `["AP9h" "" (null) "//7/" "aMOp"]`},
		{"hex(from_base64(base64(lb)))", `["00FF61" "" (null) "FFFEFF" "68C3A9"]`},
		{"bl = unhex('FFFEFF')", `[false false (null) true false]`},
		{"bl < 'a'", `[true true (null) false false]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// TestBinaryFunctionErrors checks that binary and string arguments do
// not mix, that functions without a binary form refuse one, and that
// bad hexadecimal, base64 or UTF-8 (decode) is an error naming the row.
func TestBinaryFunctionErrors(t *testing.T) {
	rec := binaryFixture(t)
	for _, c := range []struct {
		text string
		kind error
		msg  string
	}{
		{"lower(bl)", datatype.ErrInvalid, "lower needs a string, not binary"},
		{"upper(lb)", datatype.ErrInvalid, "upper needs a string, not large_binary"},
		{"contains(bl, s)", datatype.ErrInvalid, "contains of a binary and utf8 (s): both must be binary"},
		{"concat(bl, s)", datatype.ErrInvalid, "concat of a binary and utf8 (s)"},
		{"bl || n", datatype.ErrInvalid, "string_concat of a binary and int64 (n)"},
		{"replace(s, bl, 'x')", datatype.ErrInvalid, "replace of a binary and utf8 (s)"},
		{"lpad(bl, 3, s)", datatype.ErrInvalid, "lpad of a binary and utf8 (s)"},
		{"regexp_matches(bl, 'a')", datatype.ErrInvalid, "needs a string, not binary"},
		{"string_split(bl, 'a')", datatype.ErrInvalid, "needs a string, not binary"},
		{"unhex(bl)", datatype.ErrInvalid, "unhex needs a string, not binary"},
		{"unhex('0g')", datatype.ErrInvalid, `row 0: "0g" is not hexadecimal: byte 1`},
		{"unhex('é')", datatype.ErrInvalid, `is not hexadecimal: byte 0`},
		{"from_base64('a')", datatype.ErrInvalid, `row 0: "a" is not base64`},
		{"to_base64(s)", datatype.ErrInvalid, "to_base64 needs a binary, not utf8"},
		{"decode(bl)", datatype.ErrInvalid, `row 0: invalid UTF-8 "\x00\xffa"`},
		{"lpad(bl, 4, '')", datatype.ErrInvalid, "to 4 bytes with an empty string"},
		{"repeat(bl, 1000000000)", datatype.ErrLimit, "passes 268435456 bytes"},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := evalText(t, rec, c.text)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.kind) {
				t.Errorf("%v does not wrap %v", err, c.kind)
			}
			if !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "expr: ") {
				t.Errorf("%q does not say %q", err, c.msg)
			}
		})
	}
}

// TestBinaryCompare checks comparisons of binaries of different layouts
// and with string literals (their bytes).
func TestBinaryCompare(t *testing.T) {
	rec := binaryFixture(t)
	for _, c := range []struct{ text, want string }{
		{"bl = lb", `[true true (null) true true]`},
		{"vb >= bl", `[true true (null) true true]`},
		{"bl < 'a'", `[true true (null) false false]`},
		{"bl = unhex('FFFEFF')", `[false false (null) true false]`},
		{"bl IN ('hé', '')", `[false true (null) false true]`},
		// fixed_size_binary(2) against the other layouts and string
		// literals: their bytes (a literal of another length is unequal).
		{"fb = unhex('FFFE')", `[false false (null) true false]`},
		{"fb = left(bl, 2)", `[true false (null) true true]`},
		{"fb < lb", `[true false (null) true true]`},
		{"vb > fb", `[true false (null) true true]`},
		{"fb = 'abc'", `[false false (null) false false]`},
		{"fb BETWEEN 'a' AND 'z'", `[false false (null) false true]`},
		{"fb IN (unhex('0000'), 'x')", `[false true (null) false false]`},
		{"fb = fb", `[true true (null) true true]`},
		{"vb = 'hé'", `[false false (null) false true]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// TestBinaryCommonType checks the common type of binaries in CASE,
// coalesce and if: a string literal takes the binary type wherever it
// stands (before, CASE WHEN … THEN bl ELSE 'x' END was an error), a
// fixed_size_binary with another binary or a literal gives binary.
func TestBinaryCommonType(t *testing.T) {
	rec := binaryFixture(t)
	for _, c := range []struct{ text, typ, want string }{
		{"hex(CASE WHEN n > 1 THEN bl ELSE 'x' END)", "binary", `["78" "" (null) "78" "78"]`},
		{"hex(CASE WHEN n > 1 THEN 'x' ELSE bl END)", "binary", `["00FF61" "78" "78" "FFFEFF" "68C3A9"]`},
		{"hex(CASE WHEN n > 1 THEN lb ELSE 'é' END)", "large_binary", `["C3A9" "" (null) "C3A9" "C3A9"]`},
		{"hex(CASE WHEN n > 2 THEN fb WHEN n > 1 THEN bl ELSE 'xyz' END)", "binary", `["78797A" "" (null) "78797A" "78797A"]`},
		{"hex(CASE WHEN n > 1 THEN fb ELSE 'xyz' END)", "binary", `["78797A" "0000" (null) "78797A" "78797A"]`},
		{"hex(coalesce('x', bl))", "binary", `["78" "78" "78" "78" "78"]`},
		{"hex(coalesce(fb, bl, 'z'))", "binary", `["00FF" "0000" "7A" "FFFE" "68C3"]`},
		{"hex(coalesce(NULL, 'x', vb))", "binary_view", `["78" "78" "78" "78" "78"]`},
		{"hex(if(n > 1, 'x', fb))", "binary", `["00FF" "78" "78" "FFFE" "68C3"]`},
	} {
		t.Run(c.text, func(t *testing.T) {
			inner, err := Parse(c.text[len("hex(") : len(c.text)-1])
			if err != nil {
				t.Fatal(err)
			}
			b, err := Bind(inner, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			if got := b.Type().String(); got != c.typ {
				t.Errorf("type %s, want %s", got, c.typ)
			}
			got, err := evalText(t, rec, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if s := array.Format(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
	// A string column does not mix with a binary: CAST it, or encode.
	_, err := evalText(t, rec, "CASE WHEN n > 1 THEN s ELSE bl END")
	if !errors.Is(err, datatype.ErrInvalid) || !strings.Contains(err.Error(), "binary and utf8 have no common type") {
		t.Errorf("string column with a binary: %v", err)
	}
}
