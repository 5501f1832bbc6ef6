package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"a\nb", `"a\nb"`},
		{strings.Repeat("x", Max), `"` + strings.Repeat("x", Max) + `"`},
		{strings.Repeat("x", 600000), `"` + strings.Repeat("x", Max) + `"… (600000 bytes)`},
		// A 3-byte character straddling byte Max is left out whole.
		{strings.Repeat("x", Max-1) + "€€", `"` + strings.Repeat("x", Max-1) + `"… (105 bytes)`},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%d bytes) = %s, want %s", len(c.in), got, c.want)
		}
		if got := Bytes([]byte(c.in)); got != c.want {
			t.Errorf("Bytes(%d bytes) = %s, want %s", len(c.in), got, c.want)
		}
	}
	long := strings.Repeat("é", 1000)
	if got := String(long); !utf8.ValidString(got) || len(got) > Max+30 {
		t.Errorf("String of 2000 bytes of é = %s", got)
	}
}
