package compute

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseInt checks the eight-digits-at-a-time parser against strconv
// on random integers of every length and on the edges.
func TestParseInt(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for range 100_000 {
		x := r.Int64() >> uint(r.IntN(64))
		if r.IntN(2) == 0 {
			x = -x
		}
		s := strconv.FormatInt(x, 10)
		got, ok := parseInt([]byte(s))
		require.True(t, ok, s)
		require.Equal(t, x, got, s)
	}
	for _, s := range []string{"-9223372036854775808", "9223372036854775807", "9223372036854775808",
		"-9223372036854775809", "12345678a", "1234567/", "1234567:", "00000000000000000001", "+0", "-", "",
		"12345678901234567890", "99999999999999999999", "1e5", "0x10", "١٢"} {
		got, ok := parseInt([]byte(s))
		want, err := strconv.ParseInt(s, 10, 64)
		require.Equal(t, err == nil, ok, s)
		if ok {
			require.Equal(t, want, got, s)
		}
	}
	got, ok := parseInt([]byte(" 42 "))
	require.True(t, ok)
	require.Equal(t, int64(42), got, "spaces are trimmed")
}
