package expr

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/datatype"
)

// TestStrptimeErrorKinds: each way a strptime format or a string can be
// wrong is an error wrapping ErrInvalid, prefixed "expr: ", that names the
// fault (the parser's own messages, wrapped where the call is bound or
// evaluated).
func TestStrptimeErrorKinds(t *testing.T) {
	for _, c := range []struct {
		s, format, want string
	}{
		{"", "%Y%", "ends in a lone %"},
		{"", "%Y-%Q", "unknown directive %Q at byte 3"},
		{"2024-01-02", "%Y-%m-%d %H", "expected white space"},
		{"2024/01/02", "%Y-%m-%d", `expected "-"`},
		{"2024-xx-02", "%Y-%m-%d", "%m does not match"},
		{"2024-01-02 junk", "%Y-%m-%d", "trailing characters"},
		{"13 am", "%I %p", "hour 13 out of range 1…12"},
		{"13 pm", "%H %p", "hour 13 with PM"},
		{"2024-13-01", "%Y-%m-%d", "month 13 out of range"},
		{"2023-02-29", "%Y-%m-%d", "day 29 out of range for 2023-02"},
		{"2024-01-01 24:00:00", "%Y-%m-%d %H:%M:%S", "time 24:00:00 out of range"},
		{"2023-366", "%Y-%j", "day of year 366 out of range for 2023"},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, err := evalTime(t, timeRecord(t, time.Unix(0, 0), c.s), "strptime(s, '"+c.format+"')")
			if !errors.Is(err, datatype.ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrInvalid", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "expr: ") || !strings.Contains(msg, c.want) {
				t.Fatalf("error %q: want the prefix and %q", msg, c.want)
			}
		})
	}
}
