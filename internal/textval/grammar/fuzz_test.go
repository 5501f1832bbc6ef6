package grammar

import (
	"strconv"
	"testing"
)

// FuzzParse: no text panics any parser, and what ParseInt, ParseFloat
// and ParseTimestamp accept is written back to the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"12", "-1.5e3", "0x10", "NaN", "2024-02-29T12:00:00.123+02:00", "12:00:00.5", ".", "1e-400", "2024-01-01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, o := range []Options{{}, {TrimSpace: true, Truncate: true}} {
			if v, err := ParseInt(b, o); err == nil {
				if back, err := ParseInt(strconv.AppendInt(nil, v, 10), Options{}); err != nil || back != v {
					t.Fatalf("%q: %d read back as %d, %v", b, v, back, err)
				}
			}
			if v, err := ParseFloat(b, 64, o); err == nil && v == v {
				if back, err := ParseFloat(AppendFloat(nil, v, 64), 64, Options{}); err != nil || back != v {
					t.Fatalf("%q: %g read back as %g, %v", b, v, back, err)
				}
			}
			ParseUint(b, o)
			ParseDecimal(b, 38, 4, o)
			ParseDate(b, o)
			ParseTimeOfDay(b, 1e6, o)
			if v, err := ParseTimestamp(b, 1e9, o); err == nil {
				if back, err := ParseTimestamp(AppendTimestamp(nil, v, 1e9, UTC), 1e9, Options{}); err != nil || back != v {
					t.Fatalf("%q: %d read back as %d, %v", b, v, back, err)
				}
			}
		}
	})
}
