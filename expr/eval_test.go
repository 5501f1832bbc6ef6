package expr

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
)

// randomRecord has n rows: a (int64, 0…999, 1 in 10 null), s (strings,
// 1 in 10 null, invalid UTF-8 where a >= 990) and b (bool, 1 in 5 null).
func randomRecord(t testing.TB, n int) *alkaid.Record {
	r := rand.New(rand.NewPCG(1, 2))
	ab := array.NewPrimitiveBuilder[int64](datatype.Int64)
	sb := array.NewBinaryBuilder[int32](datatype.String)
	bb := array.NewBooleanBuilder(datatype.Bool)
	for range n {
		v := r.Int64N(1000)
		null := r.IntN(10) == 0
		if null {
			ab.AppendNull()
		} else {
			ab.Append(v)
		}
		switch {
		case r.IntN(10) == 0:
			sb.AppendNull()
		case v >= 990 && !null:
			sb.AppendString("bad\xff")
		default:
			sb.AppendString([]string{"x", "Y", "", "ü"}[r.IntN(4)])
		}
		if r.IntN(5) == 0 {
			bb.AppendNull()
		} else {
			bb.Append(r.IntN(2) == 0)
		}
	}
	fields := []datatype.Field{{Name: "a", Type: datatype.Int64, Nullable: true},
		{Name: "s", Type: datatype.String, Nullable: true}, {Name: "b", Type: datatype.Bool, Nullable: true}}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), []array.Array{ab.NewArray(), sb.NewArray(), bb.NewArray()}, n)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestShortCircuit checks AND and OR evaluated over the undecided rows
// only against the two sides evaluated whole and combined by compute.
func TestShortCircuit(t *testing.T) {
	rec := randomRecord(t, 20000)
	for _, c := range []struct{ left, right, op string }{
		{"a < 100", "b", "AND"},   // few undecided: selection path
		{"a < 900", "b", "AND"},   // many undecided: whole path
		{"a >= 100", "b", "OR"},   // few undecided (false or null)
		{"a < 50", "NOT b", "OR"}, // many undecided
		{"a IS NULL", "b OR a > 500", "AND"},
		{"b", "a < 10", "AND"},
	} {
		t.Run(c.left+" "+c.op+" "+c.right, func(t *testing.T) {
			got, err := evalText(t, rec, "("+c.left+") "+c.op+" ("+c.right+")")
			if err != nil {
				t.Fatal(err)
			}
			l, err := evalText(t, rec, c.left)
			if err != nil {
				t.Fatal(err)
			}
			r, err := evalText(t, rec, c.right)
			if err != nil {
				t.Fatal(err)
			}
			var want *array.Boolean
			if c.op == "AND" {
				want, err = compute.And(l.(*array.Boolean), r.(*array.Boolean))
			} else {
				want, err = compute.Or(l.(*array.Boolean), r.(*array.Boolean))
			}
			if err != nil {
				t.Fatal(err)
			}
			if i, desc, eq := array.FirstDifference(got, want); !eq {
				t.Errorf("row %d: %s", i, desc)
			}
		})
	}
	// The right side never sees the rows the left one decides: lower
	// meets no invalid UTF-8 (in rows a >= 990) below a < 100.
	if _, err := evalText(t, rec, "a < 100 AND lower(s) = 'x'"); err != nil {
		t.Errorf("short circuit: %v", err)
	}
	_, err := evalText(t, rec, "lower(s) = 'x'")
	if !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("lower over invalid UTF-8: %v, want ErrInvalid naming the row", err)
	}
}

func TestBoundFilterAndSchemaCheck(t *testing.T) {
	rec := fixture(t)
	b, err := Bind(And(Gt(Field("i32"), Lit(15)), IsValid(Field("s"))), rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	out, err := b.Filter(rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Column(1).String(); got != "[20 30 50]" {
		t.Errorf("filtered i32 %s", got)
	}
	other := randomRecord(t, 10)
	if _, err := b.Eval(other); !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("Eval over another schema: %v", err)
	}
	nb, err := Bind(Field("i32"), rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Filter(rec); !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("Filter by an int32 expression: %v", err)
	}
}

func TestBuilders(t *testing.T) {
	rec := fixture(t)
	for _, c := range []struct {
		e    *Expr
		want string
	}{
		{AddChecked(Field("i32"), Lit(1)), "[11 21 31 (null) 51]"},
		{Sub(Field("i32"), Field("i8")), "[9 22 (null) (null) 178]"},
		{Mul(Field("i8"), Lit(2)), "[2 -4 (null) -2 0]"},
		{MulChecked(Field("i32"), Lit(2)), "[20 40 60 (null) 100]"},
		{SubChecked(Lit(0), Field("i32")), "[-10 -20 -30 (null) -50]"},
		{IntDiv(Field("i32"), Lit(3)), "[3 6 10 (null) 16]"},
		{Div(Field("i32"), Lit(4)), "[2.5 5 7.5 (null) 12.5]"},
		{Neg(Field("f64")), "[-1.5 2.5 (null) -0.25 -1e+300]"},
		{Or(Eq(Field("i8"), Lit(1)), Ne(Field("i8"), Lit(127)), Lt(Field("i8"), Lit(0))), "[true true (null) false true]"},
		{And(Le(Field("i8"), Lit(1)), Ge(Field("i8"), Lit(-2))), "[true true (null) false false]"},
		{Not(IsNull(Field("st", "x"))), "[true false false true true]"},
		{In(Field("s"), Lit("Hello"), Lit(nil)), "[true (null) (null) (null) (null)]"},
		{Between(Field("d"), Lit(datatype.Date32(0)), Lit(datatype.Date32(20000))), "[true true (null) false true]"},
		{Cast(Field("i8"), datatype.Float64), "[1 -2 (null) 127 -128]"},
		{IfElse(Field("b"), Lit("yes"), Lit("no")), `["yes" "no" "no" "yes" "no"]`},
		{CaseWhen([]*Expr{Lt(Field("i8"), Lit(0))}, []*Expr{Lit("neg")}, nil), `[(null) "neg" (null) (null) "neg"]`},
		{Coalesce(Field("st", "y"), Field("s")), `["a" "wörld" "c" (null) "e"]`},
		{Call("upper", Field("dict")), `["RED" "BLUE" (null) "RED" "GREEN"]`},
		{Lit(uint64(7)), "[7 7 7 7 7]"},
	} {
		t.Run(c.e.String(), func(t *testing.T) {
			b, err := Bind(c.e, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
			if _, err := Parse(c.e.String()); err != nil {
				t.Errorf("String does not parse: %v", err)
			}
		})
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"i8 + 1 > 2 AND s IN ('a', 'b')", "CASE WHEN b THEN lower(s) ELSE upper(s) END",
		"coalesce(st.x, i32, 0) BETWEEN -1 AND 10", "year(tsny) = 2024 OR hour(ts) < 3",
		"regexp_replace(s, '(.)', '\\1\\1', 'g')", "substr(s, -2, 5) || strftime(d, '%Y')",
		"CAST(f64 AS VARCHAR) = '1.5'", "round(f64, -1) / 0", "date_trunc('week', tsny)",
		"i64 * 2 // 3", "NOT (dict = 'red') IS NULL",
		"hex(substr(bl, -2, 1) || unhex('ff0'))", "strpos(bl, 'a') + length(reverse(bl))",
		"trim(lpad(bl, i8, CAST(s AS BLOB)), '\xff')", "contains(bl, unhex(hex(s)))", "to_base64(repeat(bl, 3))",
		"CAST(iv * i8 - INTERVAL '1.5 days' AS VARCHAR)", "tsny + iv > tsny - iv", "date_part('epoch', ts - d)",
		"CAST('1 day -01:02:03.5' AS INTERVAL) IN (iv, INTERVAL 3 HOUR)", "hour(-iv) + to_days(i32) = iv",
		"CAST(iv / f64 * 1.5 AS VARCHAR)", "position('l' IN s) + century(d)", "concat_ws(s, bl, 'x') = bl",
		"CASE WHEN b THEN bl ELSE 'x' END",
		"greatest(f64, i32, NULL) = least(i8, u32)", "split_part(s, '', -i8) || translate(s, 'lö', 'L')",
		"monthname(tsny) || dayname(d) || CAST(last_day(ts) AS VARCHAR)", "make_date(i32, i8, 1) < to_timestamp(f64)",
		"epoch_ms(tsny) + epoch_us(d) - epoch_ns(ts) = epoch_us(epoch_ms(i64))", "date_sub('month', d, ts) + datesub('us', ts, d)", "make_timestamp(i8, i8, i8, i8, i8, f64) > make_timestamp(i64)",
		"time_bucket(INTERVAL '5 months', d, DATE '1999-12-31') < time_bucket(INTERVAL '90 seconds', ts, INTERVAL '1 hour')",
		"chr(ascii(s) + i8) || md5(bl) || sha256(s)", "bit_length(bl) + len(regexp_extract_all(s, '(l)?o', 1))",
	} {
		f.Add(s)
	}
	rec := fixture(f)
	f.Fuzz(func(t *testing.T, text string) {
		e, err := Parse(text)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos < 0 || se.Pos > len(text) {
				t.Fatalf("error %v: not a SyntaxError with a position in the text", err)
			}
			return
		}
		again, err := Parse(e.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", text, e, err)
		}
		if again.String() != e.String() {
			t.Fatalf("%q printed as %q, then %q", text, e, again)
		}
		b, err := Bind(e, rec.Schema())
		if err != nil {
			if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrNotSupported) && !errors.Is(err, datatype.ErrLimit) {
				t.Fatalf("Bind error %v wraps no sentinel", err)
			}
			return
		}
		out, err := b.Eval(rec)
		if err != nil {
			if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrNotSupported) && !errors.Is(err, datatype.ErrLimit) {
				t.Fatalf("Eval error %v wraps no sentinel", err)
			}
			return
		}
		if out.Len() != rec.NumRows() || !datatype.Equal(out.DataType(), b.Type()) {
			t.Fatalf("%s: %d rows of %s, want %d of %s", e, out.Len(), out.DataType(), rec.NumRows(), b.Type())
		}
		// Computing the constant parts first changes nothing.
		s := Simplify(e, nil)
		sb, err := Bind(s, rec.Schema())
		if err != nil {
			t.Fatalf("%s simplified to %s: %v", e, s, err)
		}
		sout, err := sb.Eval(rec)
		if err != nil {
			// Evaluation order may differ where AND/OR skip rows.
			return
		}
		if i, desc, eq := array.FirstDifference(sout, out); !eq && !(out.DataType().Kind().IsFloat()) {
			t.Fatalf("%s simplified to %s: row %d: %s", e, s, i, desc)
		}
	})
}

// TestConcurrentEval evaluates one Bound from several goroutines (run
// with -race).
func TestConcurrentEval(t *testing.T) {
	rec := randomRecord(t, 5000)
	b, err := Bind(mustParse(t, "(a < 100 AND lower(s) = 'x') OR (b AND a IN (1, 2, 3))"), rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	want, err := b.Eval(rec)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := b.Eval(rec)
			if err == nil && !array.Equal(got, want) {
				err = errors.New("results differ")
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
