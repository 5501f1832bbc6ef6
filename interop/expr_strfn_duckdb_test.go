package interop

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/parquet"
)

// The string and math functions of package expr checked value by value
// against DuckDB, over the random table of expr_duckdb_test.go (nulls,
// NaN, -0, infinities, empty and multi-byte strings). A list result is
// compared as JSON: ours encoded by encoding/json, DuckDB's by to_json.
// The differences documented in expr's package documentation are kept
// out of the questions, each with a comment.

// strfnOracleCases are the expressions asked of both sides; list marks
// a list<utf8> result, tol a relative float tolerance wider than the
// default few ulps (libm's exp, pow and logarithms may differ from Go's
// in the last bits).
var strfnOracleCases = []struct {
	text string
	list bool
	tol  float64
}{
	// trim with characters, padding, left/right
	{text: "trim(s, 'aé ')"}, {text: "ltrim(s, 'Hx ')"}, {text: "rtrim(s, 'e!é')"}, {text: "trim(s, 'ßeÄ')"},
	{text: "lpad(s, 8, '*')"}, {text: "rpad(s, 8, 'ab')"}, {text: "lpad(s, 3, 'ö')"}, {text: "rpad(s, i8, 'é')"},
	{text: "lpad(s, 0, 'x')"}, {text: "lpad(s, -3, 'x')"}, {text: "rpad(s, 4, '')"}, {text: "lpad(s, 1, '')"},
	{text: "substr(s, 9, -4)"}, {text: "substr(s, -12, 4)"}, {text: "substr(s, i8, -2)"}, {text: "substr(s, -i8, i8)"},
	{text: "left(s, 3)"}, {text: "left(s, -2)"}, {text: "right(s, 3)"}, {text: "right(s, -2)"},
	{text: "left(s, i8)"}, {text: "right(s, i8)"}, {text: "left(s, 0)"}, {text: "left('ÄÖÜ straße', i8)"},
	{text: "strpos('banana split 日本語テキスト', s)"}, {text: "replace('banana', s, '-')"},
	// positions, replace, repeat, lengths
	{text: "strpos(s, 'a')"}, {text: "instr(s, 'ß')"}, {text: "strpos(s, 'テ')"}, {text: "strpos(s, '')"},
	{text: "instr(s, 'an')"}, {text: "strpos(s, s)"}, {text: "instr(s, 'é')"},
	{text: "replace(s, 'a', 'ö')"}, {text: "replace(s, '', 'x')"}, {text: "replace(s, 'an', '')"},
	{text: "replace(s, 'aa', 'a')"}, {text: "replace(s, ' ', s)"},
	{text: "repeat(s, 3)"}, {text: "repeat(s, i8)"}, {text: "repeat(s, 0)"},
	{text: "octet_length(encode(s))"}, {text: "decode(encode(s))"}, {text: "strlen(s)"}, {text: "character_length(s)"}, {text: "length(s)"},
	// regular expressions
	{text: `regexp_extract(s, '([a-z]+) ([A-Z])', 2)`}, {text: `regexp_extract(s, '\w+')`},
	{text: `regexp_extract(s, '(x)?y', 1)`}, {text: "regexp_extract(s, 'ö', 0, 'i')"},
	{text: "regexp_extract(s, '(a)(n)?', 2)"}, {text: "regexp_extract(s, '[^ ]+$')"},
	{text: "regexp_extract(s, '(', 1)"}, {text: "regexp_extract(s, '(a)', 1)"},
	// regexp_extract(s, '(a)', 2), a group the pattern does not have, is
	// an error in expr, an empty string in DuckDB (documented).
	// split and join
	{text: "string_split(s, ' ')", list: true}, {text: "string_split(s, '')", list: true},
	{text: "str_split(s, 'a')", list: true}, {text: "string_split(s, 'aa')", list: true},
	{text: "regexp_split_to_array(s, '[ _]')", list: true}, {text: `string_split_regex(s, '\s+')`, list: true},
	{text: "regexp_split_to_array(s, 'A', 'i')", list: true}, {text: "regexp_split_to_array(s, 'a+')", list: true},
	{text: "regexp_split_to_array(s, '')", list: true},
	// regexp_split_to_array(s, 'a*'): an empty match right after another
	// match splits in DuckDB, not in Go's regexp (documented).
	{text: `regexp_split_to_array(s, '')`, list: true},
	{text: "array_to_string(string_split(s, 'a'), '-')"}, {text: "array_to_string(string_split(s, ''), '')"},
	{text: "array_to_string(regexp_split_to_array(s, ' '), '·')"},
	{text: "len(s)"}, {text: "suffix(s, 'e')"}, {text: "split(s, 'a')", list: true},
	{text: "concat_ws(', ', s, i8, s)"}, {text: "concat_ws(s, 'a', NULL, 'b')"}, {text: "concat_ws('-', s)"},
	{text: "concat_ws(NULL, s)"}, {text: "nullif(s, '')"}, {text: "nullif(s, 'banana')"}, {text: "position('a' IN s)"}, {text: "position(s IN 'banana split')"},
	{text: "array_to_string(string_to_array(s, 'e'), '+')"}, {text: "array_to_string(str_split_regex(s, '[aeiou]'), '')"},
	// greatest / least (nulls skipped, NaN above every number, ties keep the first)
	{text: "greatest(f64, i32)"}, {text: "least(f64, i32)"}, {text: "greatest(f64, 0)"}, {text: "least(f64, -0.0, i8)"},
	{text: "greatest(i8, i32, i64)"}, {text: "least(i64, i8)"}, {text: "greatest(u32, i8)"}, {text: "least(s, 'b')"},
	{text: "greatest(s, 'MiXeD', NULL)"}, {text: "least(NULL, i32)"}, {text: "greatest(b, NOT b)"}, {text: "least(f64, CAST('NaN' AS DOUBLE))"},
	{text: "greatest(f64, CAST('NaN' AS DOUBLE))"}, {text: "greatest(d, DATE '2000-01-01')"},
	// split_part, translate, ascii, chr, bit_length, md5, sha256
	{text: "split_part(s, ' ', 1)"}, {text: "split_part(s, 'a', -1)"}, {text: "split_part(s, '', 2)"}, {text: "split_part(s, 'a', i8)"},
	{text: "split_part(s, 'an', 2)"}, {text: "split_part(s, s, 1)"}, {text: "split_part(s, '', -3)"}, {text: "split_part(s, 'ä', 0)"},
	{text: "translate(s, 'aeß', 'AE')"}, {text: "translate(s, '', 'x')"}, {text: "translate(s, 'a🎉', '🎉a')"}, {text: "translate(s, 'aa', 'xy')"},
	{text: "ascii(s)"}, {text: "chr(i32 + 1000)"}, {text: "chr(abs(i8))"}, {text: "chr(i32 + 127000)"},
	{text: "bit_length(s)"}, {text: "md5(s)"}, {text: "sha256(s)"}, {text: "md5(encode(s))"},
	{text: "regexp_extract_all(s, '[a-z]+')", list: true}, {text: "regexp_extract_all(s, '(a)(n)?', 2)", list: true},
	{text: "regexp_extract_all(s, '')", list: true}, {text: "regexp_extract_all(s, 'A', 0, 'i')", list: true},
	{text: "regexp_extract_all(s, '(\\w)(\\w)', 1)", list: true},
	// regexp_extract_all(s, 'a*'): an empty match right after another
	// match counts in DuckDB, not in Go's regexp (documented).
	// math
	{text: "sign(f64)"}, {text: "sign(i32)"}, {text: "sign(i64)"}, {text: "sign(u32)"}, {text: "sign(i8)"},
	{text: "sqrt(abs(f64))"}, {text: "sqrt(u32)"}, {text: "sqrt(f64)"}, {text: "cbrt(f64)", tol: 1e-14},
	{text: "ln(abs(f64) + 1)", tol: 1e-14}, {text: "log10(abs(f64) + 1)", tol: 1e-14}, {text: "log2(u32 + 1)", tol: 1e-14},
	{text: "ln(f64)"}, {text: "log10(i32)"}, {text: "log(abs(f64) + 1)", tol: 1e-14},
	{text: "exp(i8)", tol: 1e-14}, {text: "exp(f64 / 1000)", tol: 1e-14},
	{text: "pow(f64, 2)"}, {text: "pow(i8, 3)", tol: 1e-14}, {text: "power(2, i8)"}, {text: "pow(abs(f64), 0.5)", tol: 1e-14},
	{text: "pow(f64, 0)"}, {text: "pow(0, i8)"},
	{text: "ceil(f64)"}, {text: "floor(f64)"}, {text: "trunc(f64)"}, {text: "ceil(i32)"}, {text: "floor(i8)"},
	// floor(i64): expr keeps an integer whole, DuckDB rounds it to a
	// DOUBLE (documented); the small integers above print alike.
	{text: "ceiling(f64 * 10)"}, {text: "trunc(i8)"}, {text: "roundbankers(f64, 1)"}, {text: "roundbankers(f64, 0)"},
	{text: "trunc(f64, 2)"}, {text: "trunc(f64, -1)"}, {text: "trunc(f64, 0)"}, {text: "trunc(f64, 20)"}, {text: "trunc(f64, -400)"},
	{text: "trunc(f64 * 1000, -2)"}, {text: "trunc(CAST(f64 AS REAL), 1)"}, {text: "trunc(f64, NULL)"},
	{text: "trunc(i32, -2)"}, {text: "trunc(i64, -3)"}, {text: "trunc(i64, -18)"}, {text: "trunc(u32, -5)"}, {text: "trunc(i8, -1)"}, {text: "trunc(i8, -3)"},
	{text: "trunc(CAST(CAST(i32 AS VARCHAR) || '.57' AS DECIMAL(10,2)), 1)"},
	{text: "trunc(CAST(CAST(i32 AS VARCHAR) || '.57' AS DECIMAL(10,2)), -2)"},
	{text: "trunc(CAST(CAST(i32 AS VARCHAR) || '.57' AS DECIMAL(10,2)))"},
	{text: "trunc(CAST(CAST(i64 AS VARCHAR) || '.5' AS DECIMAL(38,1)), -4)"},
	{text: "round(f64, 2)"}, {text: "round(f64, 1)"}, {text: "round(f64, -2)"},
	{text: "round_even(i32, -1)"}, {text: "round_even(f64, 1)"}, {text: "round_even(f64, 2)"}, {text: "round_even(f64, -1)"},
	{text: "fmod(f64, 1.5)"}, {text: "fmod(i32, 7)"}, {text: "fmod(f64, i8 - i8)"}, {text: "fmod(f64, -2)"}, {text: "mod(i32, 7)"}, {text: "mod(f64, 2.5)"}, {text: "mod(i32, -3)"},
}

// TestExprStringMathDuckDBOracle compares expr's string and math
// functions with DuckDB's (see the top of this file).
func TestExprStringMathDuckDBOracle(t *testing.T) {
	for _, seed := range []uint64{3, 4} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			n := 1000 + int(seed)*131
			rec := exprOracleRecord(t, n, seed)
			path := filepath.Join(t.TempDir(), "t.parquet")
			f, err := os.Create(path)
			require.NoError(t, err)
			w, err := parquet.NewWriter(f, rec.Schema())
			require.NoError(t, err)
			require.NoError(t, w.Write(rec))
			require.NoError(t, w.Close())
			require.NoError(t, f.Close())

			var queries []string
			for _, c := range strfnOracleCases {
				q := c.text
				if c.list {
					q = "to_json(" + q + ")"
				}
				queries = append(queries, "SELECT "+q+" FROM t ORDER BY rn")
			}
			answers := askDuckDB(t, path, queries)
			compared, refused := 0, 0
			for k, c := range strfnOracleCases {
				duck := answers[k]
				t.Run(c.text, func(t *testing.T) {
					got, ourErr := evalExpr(rec, c.text)
					if duck.Error != "" || ourErr != nil {
						if duck.Error == "" || ourErr == nil {
							t.Fatalf("DuckDB error %q, ours %v", duck.Error, ourErr)
						}
						refused++
						return // both refuse (a bad pattern, a negative square root, …)
					}
					require.Len(t, duck.Rows, n)
					for i := range n {
						var our any
						if c.list {
							our = listJSON(t, got, i)
						} else {
							our = ours(got, i)
						}
						tol := sameTol(got, i)
						if c.tol > 0 {
							if f, ok := our.(float64); ok {
								tol = math.Abs(f) * c.tol
							}
						}
						if !same(our, duck.Rows[i][0], tol) {
							t.Fatalf("row %d: ours %v, DuckDB %v", i, our, duck.Rows[i][0])
						}
					}
					compared++
				})
			}
			t.Logf("%d expressions over %d rows compared with DuckDB, %d refused by both", compared, n, refused)
		})
	}
}

// listJSON is slot i of a list<utf8> array as JSON (nil when null).
func listJSON(t *testing.T, a array.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	l := a.(*array.ListArray)
	start, end := l.ValueOffsets(i)
	vals := l.ListValues().(*array.BinaryArray)
	out := make([]any, 0, end-start)
	for k := start; k < end; k++ {
		if vals.IsNull(k) {
			out = append(out, nil)
			continue
		}
		out = append(out, string(vals.Value(k)))
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}
