package grammar

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// fastFloat64 parses [sign] digits [. digits] with at most 15 digits in
// all, the common form of a float column, without strconv: the digits as
// an integer below 2^53 and a power of ten are both exact, so one
// correctly rounded division gives the correctly rounded value
// (ParseFloat's). ok is false for anything else (the caller falls back).
func fastFloat64(b []byte) (f float64, ok bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	var m uint64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			if digits > 15 {
				return 0, false
			}
			m = m*10 + uint64(c-'0')
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	f = float64(m)
	if frac > 0 {
		f /= pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, true
}
