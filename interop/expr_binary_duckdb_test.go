package interop

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet"
)

// The binary forms of expr's string functions checked value by value
// against DuckDB over random binaries (nulls, empty values, 0x00 and
// 0xff bytes, bytes of multi-byte UTF-8 characters and bytes that are no
// UTF-8 at all). DuckDB has few BLOB functions (octet_length, ||,
// repeat, hex, unhex, to_base64, from_base64): those are asked as they
// are. For the others DuckDB answers the string function over enc(x), x
// with each byte b spelled as the character U+0100+b, so that its code
// points are expr's bytes; a binary answer of expr is compared in that
// spelling.

const encMacro = `CREATE MACRO enc(b) AS CASE WHEN b IS NULL THEN NULL ELSE array_to_string(list_transform(
	range(0, octet_length(b)), i -> chr(256 + ('0x' || substr(hex(b), 2*i+1, 2))::INTEGER)), '') END`

// binaryOracleCases: text is expr's, duck DuckDB's (text when empty);
// enc marks a binary answer of expr, compared as enc of it.
var binaryOracleCases = []struct {
	text, duck string
	enc        bool
}{
	{text: "octet_length(bl)"}, {text: "octet_length(lb)"},
	{text: "hex(bl)"}, {text: "to_hex(lb)"}, {text: "hex(unhex(hex(bl)))"}, {text: "hex(from_hex(lower(hex(bl))))"},
	{text: "to_base64(bl)"}, {text: "hex(from_base64(to_base64(lb)))"},
	{text: "hex(bl || lb)"}, {text: "hex(bl || unhex('00FF'))"}, {text: "hex(repeat(bl, 3))"}, {text: "hex(repeat(lb, i8))"},
	// Few rows left undecided: the right side runs over those rows only.
	{text: "i8 > 5 AND contains(bl, unhex('FF'))", duck: "i8 > 5 AND contains(enc(bl), enc(unhex('FF')))"},
	{text: "bl = lb"}, {text: "bl < lb"}, {text: "bl >= unhex('61')"}, {text: "bl IS NULL"},
	{text: "length(bl)", duck: "length(enc(bl))"}, {text: "strlen(lb)", duck: "length(enc(lb))"},
	{text: "reverse(bl)", duck: "reverse(enc(bl))", enc: true},
	{text: "substr(bl, 2, 3)", duck: "substr(enc(bl), 2, 3)", enc: true},
	{text: "substr(bl, -3)", duck: "substr(enc(bl), -3)", enc: true},
	{text: "substr(bl, 0, 2)", duck: "substr(enc(bl), 0, 2)", enc: true},
	{text: "substr(bl, 4, -2)", duck: "substr(enc(bl), 4, -2)", enc: true},
	{text: "substr(lb, i8)", duck: "substr(enc(lb), i8)", enc: true},
	{text: "substr(bl, i8, i8)", duck: "substr(enc(bl), i8, i8)", enc: true},
	{text: "left(bl, 2)", duck: "left(enc(bl), 2)", enc: true}, {text: "left(bl, -2)", duck: "left(enc(bl), -2)", enc: true},
	{text: "right(lb, 3)", duck: "right(enc(lb), 3)", enc: true}, {text: "right(bl, i8)", duck: "right(enc(bl), i8)", enc: true},
	{text: "starts_with(bl, unhex('00'))", duck: "starts_with(enc(bl), enc(unhex('00')))"},
	{text: "starts_with(bl, lb)", duck: "starts_with(enc(bl), enc(lb))"},
	{text: "ends_with(bl, unhex('FF'))", duck: "ends_with(enc(bl), enc(unhex('FF')))"},
	{text: "ends_with(lb, 'é')", duck: "ends_with(enc(lb), enc(unhex('C3A9')))"},
	{text: "contains(bl, unhex('FF00'))", duck: "contains(enc(bl), enc(unhex('FF00')))"},
	{text: "contains(bl, lb)", duck: "contains(enc(bl), enc(lb))"}, {text: "contains(bl, '')", duck: "contains(enc(bl), '')"},
	{text: "strpos(bl, unhex('A9'))", duck: "strpos(enc(bl), enc(unhex('A9')))"},
	{text: "instr(lb, bl)", duck: "instr(enc(lb), enc(bl))"},
	{text: "replace(bl, unhex('FF'), unhex('0000'))", duck: "replace(enc(bl), enc(unhex('FF')), enc(unhex('0000')))", enc: true},
	{text: "replace(bl, 'a', '')", duck: "replace(enc(bl), enc(unhex('61')), '')", enc: true},
	{text: "replace(lb, bl, 'x')", duck: "replace(enc(lb), enc(bl), enc(unhex('78')))", enc: true},
	{text: "trim(bl, unhex('00FF'))", duck: "trim(enc(bl), enc(unhex('00FF')))", enc: true},
	{text: "ltrim(bl, 'a ')", duck: "ltrim(enc(bl), enc(unhex('6120')))", enc: true},
	{text: "rtrim(lb, unhex('C3A9'))", duck: "rtrim(enc(lb), enc(unhex('C3A9')))", enc: true},
	{text: "trim(bl)", duck: "trim(enc(bl), enc(unhex('20')))", enc: true},
	{text: "lpad(bl, 5, unhex('EE'))", duck: "lpad(enc(bl), 5, enc(unhex('EE')))", enc: true},
	{text: "rpad(bl, 4, 'é')", duck: "rpad(enc(bl), 4, enc(unhex('C3A9')))", enc: true},
	{text: "lpad(lb, i8, unhex('00FF'))", duck: "lpad(enc(lb), i8, enc(unhex('00FF')))", enc: true},
	{text: "concat(bl, lb)", duck: "concat(enc(bl), enc(lb))", enc: true},
	{text: "concat(bl, NULL, unhex('FF'))", duck: "concat(enc(bl), NULL, enc(unhex('FF')))", enc: true},
	// fb is fixed_size_binary(3) (a BLOB in DuckDB): compared with the
	// other binaries and string literals as their bytes.
	{text: "fb = bl"}, {text: "fb < lb"}, {text: "lb >= fb"}, {text: "fb = unhex('61FF00')"}, {text: "fb > 'a'"},
	{text: "fb IN ('ab ', 'aaa', NULL)"}, {text: "fb BETWEEN 'a' AND 'b'"}, {text: "hex(fb)"}, {text: "octet_length(fb)"},
	{text: "fb = left(bl, 3)", duck: "fb = unhex(left(hex(bl), 6))"},
	// A string literal next to a binary is its bytes in CASE and coalesce.
	{text: "hex(CASE WHEN i8 > 0 THEN bl ELSE 'ab' END)"}, {text: "hex(CASE WHEN i8 > 0 THEN 'ab' ELSE lb END)"},
	{text: "hex(CASE WHEN i8 > 0 THEN fb ELSE 'abcd' END)"}, {text: "hex(CASE WHEN i8 > 2 THEN fb WHEN i8 > 0 THEN bl END)"},
	{text: "hex(coalesce(fb, bl, 'z'))"}, {text: "hex(coalesce(bl, 'zz'))"}, {text: "hex(coalesce(NULL, 'zz', lb))", duck: "hex(coalesce(NULL, 'zz'::BLOB, lb))"},
}

func binaryOracleRecord(t *testing.T, n int, seed uint64) *alkaid.Record {
	r := rand.New(rand.NewPCG(seed, 17))
	alphabet := []byte{0x00, 0xff, 'a', 'b', ' ', 0xc3, 0xa9, 0xfe, 0x80}
	value := func() []byte {
		v := make([]byte, r.IntN(9))
		for k := range v {
			v[k] = alphabet[r.IntN(len(alphabet))]
		}
		return v
	}
	rn := array.NewPrimitiveBuilder[int64](datatype.Int64)
	i8 := array.NewPrimitiveBuilder[int8](datatype.Int8)
	bl := array.NewBinaryBuilder[int32](datatype.Binary)
	lb := array.NewBinaryBuilder[int64](datatype.LargeBinary)
	fbType, err := datatype.NewFixedSizeBinary(3)
	require.NoError(t, err)
	fb := array.NewFixedSizeBinaryBuilder(fbType)
	for i := range n {
		rn.Append(int64(i))
		if r.IntN(8) == 0 {
			i8.AppendNull()
		} else {
			i8.Append(int8(r.IntN(13) - 5))
		}
		for _, b := range []interface{ Append([]byte) }{bl, lb} {
			switch {
			case r.IntN(8) == 0:
				b.(array.Builder).AppendNull()
			default:
				b.Append(value())
			}
		}
		if r.IntN(8) == 0 {
			fb.AppendNull()
		} else {
			fb.Append(append(value(), 'a', 'b', ' ')[:3])
		}
	}
	fields := []datatype.Field{{Name: "rn", Type: datatype.Int64}, {Name: "i8", Type: datatype.Int8, Nullable: true},
		{Name: "bl", Type: datatype.Binary, Nullable: true}, {Name: "lb", Type: datatype.LargeBinary, Nullable: true},
		{Name: "fb", Type: fbType, Nullable: true}}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}),
		[]array.Array{rn.NewArray(), i8.NewArray(), bl.NewArray(), lb.NewArray(), fb.NewArray()}, n)
	require.NoError(t, err)
	return rec
}

// encBytes is v spelled as enc spells it in DuckDB.
func encBytes(v []byte) string {
	var sb strings.Builder
	for _, b := range v {
		sb.WriteRune(rune(256 + int(b)))
	}
	return sb.String()
}

// TestExprBinaryDuckDBOracle compares the binary forms of expr's string
// functions with DuckDB (see the top of this file).
func TestExprBinaryDuckDBOracle(t *testing.T) {
	for _, seed := range []uint64{5, 6} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			n := 800 + int(seed)*53
			rec := binaryOracleRecord(t, n, seed)
			path := filepath.Join(t.TempDir(), "t.parquet")
			f, err := os.Create(path)
			require.NoError(t, err)
			w, err := parquet.NewWriter(f, rec.Schema())
			require.NoError(t, err)
			require.NoError(t, w.Write(rec))
			require.NoError(t, w.Close())
			require.NoError(t, f.Close())

			queries := []string{encMacro}
			for _, c := range binaryOracleCases {
				q := c.text
				if c.duck != "" {
					q = c.duck
				}
				queries = append(queries, "SELECT "+q+" FROM t ORDER BY rn")
			}
			answers := askDuckDB(t, path, queries)
			require.Empty(t, answers[0].Error)
			compared := 0
			for k, c := range binaryOracleCases {
				duck := answers[k+1]
				t.Run(c.text, func(t *testing.T) {
					got, err := evalExpr(rec, c.text)
					require.NoError(t, err)
					require.Empty(t, duck.Error)
					require.Len(t, duck.Rows, n)
					bin, _ := got.(interface{ Value(int) []byte })
					for i := range n {
						our := ours(got, i)
						if c.enc && our != nil {
							our = encBytes(bin.Value(i))
						}
						if !same(our, duck.Rows[i][0], 0) {
							t.Fatalf("row %d: ours %q, DuckDB %q", i, our, duck.Rows[i][0])
						}
					}
					compared++
				})
			}
			t.Logf("%d expressions over %d rows compared with DuckDB", compared, n)
		})
	}
}
