package grammar

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/datatype"
)

// TestCivilDays: the day arithmetic agrees with package time over ±1000
// years around the epoch and at the ends of 0000-9999.
func TestCivilDays(t *testing.T) {
	for _, d := range []int64{-719528, -719162, -1, 0, 1, 11016, 2932896} {
		y, m, dd := civilFromDays(d)
		want := time.Unix(d*86400, 0).UTC()
		if int(y) != want.Year() || time.Month(m) != want.Month() || int(dd) != want.Day() {
			t.Fatalf("day %d: %d-%d-%d, want %v", d, y, m, dd, want)
		}
		if back := daysFromCivil(y, m, dd); back != d {
			t.Fatalf("day %d: back %d", d, back)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		d := r.Int64N(730000) - 365000
		y, m, dd := civilFromDays(d)
		if daysFromCivil(y, m, dd) != d {
			t.Fatalf("day %d does not round-trip", d)
		}
	}
}

func TestParseInt(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"+7", 7, true},
		{"9223372036854775807", math.MaxInt64, true}, {"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false}, {"-9223372036854775809", 0, false},
		{"99999999999999999999", 0, false}, {"", 0, false}, {"-", 0, false}, {"1e3", 1000, true}, {"1.50e1", 15, true}, {"1.5", 0, false}, {"1 ", 0, false}, {"0x10", 0, false},
	} {
		got, err := ParseInt([]byte(c.in), Options{})
		if ok := err == nil; ok != c.ok || got != c.want {
			t.Errorf("parseInt(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestDecimalText: formatting then parsing gives the same unscaled value,
// small and big, for several scales; too many digits are errors.
func TestDecimalText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, scale := range []int32{0, 2, 10, 30} {
		dt, err := datatype.NewDecimal(256, 76, scale)
		if err != nil {
			t.Fatal(err)
		}
		for range 500 {
			digits := make([]byte, r.IntN(76-int(scale))+1)
			for i := range digits {
				digits[i] = byte('0' + r.IntN(10))
			}
			v, _ := new(big.Int).SetString(string(digits), 10)
			if r.IntN(2) == 0 {
				v.Neg(v)
			}
			text := AppendDecimal(nil, 0, v, scale)
			small, bi, err := ParseDecimal(text, dt.Precision, dt.Scale, Options{})
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if bi == nil {
				bi = big.NewInt(small)
			}
			if bi.Cmp(v) != 0 {
				t.Fatalf("scale %d: %s read back as %s", scale, text, bi)
			}
		}
	}
	dt, _ := datatype.NewDecimal(64, 5, 2)
	for _, bad := range []string{"1.234", "1234.5", "", ".", "1e3", "1.2.3", "--1", "1/4", "0x10"} {
		if _, _, err := ParseDecimal([]byte(bad), dt.Precision, dt.Scale, Options{}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if v, _, err := ParseDecimal([]byte("-123.40"), dt.Precision, dt.Scale, Options{}); err != nil || v != -12340 {
		t.Errorf("-123.40: %d, %v", v, err)
	}
}

// TestTimestampText: every unit, negative values, out-of-range years as
// counts.
func TestTimestampText(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, unit := range []datatype.TimeUnit{datatype.Second, datatype.Millisecond, datatype.Microsecond, datatype.Nanosecond} {
		per := unit.PerSecond()
		vals := []int64{0, -1, 1, math.MaxInt64, math.MinInt64, 253402300799 * per, -62167219200 * per}
		for range 300 {
			vals = append(vals, r.Int64())
		}
		for _, v := range vals {
			for _, zone := range []string{"", "UTC", "+02:00", "-09:30", "Europe/Paris"} {
				z, err := ParseZone(zone)
				if err != nil {
					t.Fatal(err)
				}
				text := AppendTimestamp(nil, v, per, z)
				got, err := ParseTimestamp(text, per, Options{})
				if err != nil || got != v {
					t.Fatalf("%s %d: %s read back as %d, %v", unit, v, text, got, err)
				}
			}
		}
	}
	if _, err := ParseTimestamp([]byte("2024-01-02T00:00:00.5"), 1, Options{}); err == nil {
		t.Error("a fraction finer than the unit is no error")
	}
	got, err := ParseTimestamp([]byte("2024-01-02T01:00:00+01:00"), 1, Options{})
	if err != nil || got != 1704153600 {
		t.Errorf("offset: %d, %v", got, err)
	}
}

func TestAppendIntervals(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{string(AppendDuration(nil, -5400)), "-5400"},
		{string(AppendMonthInterval(nil, -14)), `{"months":-14}`},
		{string(AppendDayTimeInterval(nil, 1, -500)), `{"days":1,"milliseconds":-500}`},
		{string(AppendMonthDayNanoInterval(nil, 1, 2, -3)), `{"months":1,"days":2,"nanoseconds":-3}`},
		{string(AppendMonthDayNanoInterval(nil, math.MinInt32, math.MaxInt32, math.MinInt64)),
			`{"months":-2147483648,"days":2147483647,"nanoseconds":-9223372036854775808}`},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}
