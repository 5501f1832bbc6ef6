package ipc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecoderLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		want Limits
	}{
		{"no option", nil, DefaultLimits},
		{"zero fields take defaults", []Option{WithLimits(Limits{MaxDepth: 5, MaxBodySize: 1 << 40})},
			withLimits(func(l *Limits) { l.MaxDepth, l.MaxBodySize = 5, 1<<40 })},
		{"the last option wins", []Option{WithLimits(Limits{MaxRows: 1}), WithLimits(Limits{MaxMetadataSize: 9})},
			withLimits(func(l *Limits) { l.MaxMetadataSize = 9 })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, mustDecoder(t, tc.opts...).Limits())
		})
	}
}

// withLimits is DefaultLimits changed by set.
func withLimits(set func(*Limits)) Limits {
	l := DefaultLimits
	set(&l)
	return l
}
