package grammar

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseIntFast checks the eight-digits-at-a-time parser against strconv
// on random integers of every length and on the edges.
func TestParseIntFast(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for range 100_000 {
		x := r.Int64() >> uint(r.IntN(64))
		if r.IntN(2) == 0 {
			x = -x
		}
		s := strconv.FormatInt(x, 10)
		got, err := ParseInt([]byte(s), Options{})
		require.NoError(t, err, s)
		require.Equal(t, x, got, s)
	}
	for _, s := range []string{"-9223372036854775808", "9223372036854775807", "9223372036854775808",
		"-9223372036854775809", "12345678a", "1234567/", "1234567:", "00000000000000000001", "+0", "-", "",
		"12345678901234567890", "99999999999999999999", "0x10", "١٢", "1_000"} {
		got, gerr := ParseInt([]byte(s), Options{})
		want, err := strconv.ParseInt(s, 10, 64)
		require.Equal(t, err == nil, gerr == nil, s)
		if err == nil {
			require.Equal(t, want, got, s)
		}
	}
	_, err := ParseInt([]byte(" 42 "), Options{})
	require.ErrorIs(t, err, ErrSyntax, "spaces are refused by default")
	got, err := ParseInt([]byte(" 42 "), Options{TrimSpace: true})
	require.NoError(t, err)
	require.Equal(t, int64(42), got, "spaces are trimmed on request")
}

// TestParseUintFast checks ParseUint, which shares ParseInt's fast path,
// against strconv on random integers of every length and on the edges.
func TestParseUintFast(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 100_000 {
		x := r.Uint64() >> uint(r.IntN(64))
		s := strconv.FormatUint(x, 10)
		got, err := ParseUint([]byte(s), Options{})
		require.NoError(t, err, s)
		require.Equal(t, x, got, s)
	}
	for _, s := range []string{"18446744073709551615", "18446744073709551616", "+7", "-1", "", "+",
		"12345678a", "1234567/", "00000000000000000001", "99999999999999999999", "0x10", "1_000", "++5", "+-5", "-0"} {
		got, gerr := ParseUint([]byte(s), Options{})
		want, err := strconv.ParseUint(s, 10, 64)
		switch s {
		case "+7":
			want, err = 7, nil // strconv.ParseUint refuses a sign; the grammar takes "+"
		case "-0":
			want, err = 0, nil // and "-0", which is 0
		}
		require.Equal(t, err == nil, gerr == nil, s)
		if err == nil {
			require.Equal(t, want, got, s)
		}
	}
}
