package ipc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecoderLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []ReaderOption
		want Limits
	}{
		{"no option", nil, DefaultLimits},
		{"zero fields take defaults", []ReaderOption{WithLimits(Limits{MaxDepth: 5, MaxBodySize: 1 << 40})},
			Limits{MaxMetadataSize: DefaultLimits.MaxMetadataSize, MaxDepth: 5, MaxBodySize: 1 << 40,
				MaxDecompressed: DefaultLimits.MaxDecompressed, MaxRows: DefaultLimits.MaxRows,
				MaxTables: DefaultLimits.MaxTables, MaxMetadataExpansion: DefaultLimits.MaxMetadataExpansion,
				MaxCompressionRatio: DefaultLimits.MaxCompressionRatio}},
		{"the last option wins", []ReaderOption{WithLimits(Limits{MaxRows: 1}), WithLimits(Limits{MaxMetadataSize: 9})},
			Limits{MaxMetadataSize: 9, MaxDepth: DefaultLimits.MaxDepth, MaxBodySize: DefaultLimits.MaxBodySize,
				MaxDecompressed: DefaultLimits.MaxDecompressed, MaxRows: DefaultLimits.MaxRows,
				MaxTables: DefaultLimits.MaxTables, MaxMetadataExpansion: DefaultLimits.MaxMetadataExpansion,
				MaxCompressionRatio: DefaultLimits.MaxCompressionRatio}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, NewDecoder(tc.opts...).Limits())
		})
	}
}
