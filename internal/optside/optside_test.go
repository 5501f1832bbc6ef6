package optside

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

func TestSides(t *testing.T) {
	tests := []struct {
		name      string
		set       func(s *Sides)
		forReader string // "" for no error
		forWriter string
	}{
		{"none", func(*Sides) {}, "", ""},
		{"reader only", func(s *Sides) { s.Reader("WithA"); s.Reader("WithB") }, "", "x: invalid: WithA is an option of a Reader, not of a Writer"},
		{"writer only", func(s *Sides) { s.Writer("WithC") }, "x: invalid: WithC is an option of a Writer, not of a Reader", ""},
		{"bad value first", func(s *Sides) { s.Writer("WithC"); s.Badf("WithN(%d): negative", -1); s.Badf("later") },
			"x: invalid: WithN(-1): negative", "x: invalid: WithN(-1): negative"},
	}
	for _, tt := range tests {
		s := New("x")
		tt.set(&s)
		for _, c := range []struct {
			err  error
			want string
		}{{s.ForReader(), tt.forReader}, {s.ForWriter(), tt.forWriter}} {
			if c.want == "" {
				if c.err != nil {
					t.Errorf("%s: %v, want none", tt.name, c.err)
				}
				continue
			}
			if c.err == nil || c.err.Error() != c.want || !errors.Is(c.err, datatype.ErrInvalid) {
				t.Errorf("%s: %v, want %q wrapping ErrInvalid", tt.name, c.err, c.want)
			}
		}
	}
}
