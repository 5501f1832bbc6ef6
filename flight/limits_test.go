package flight

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// deepSchemaMessages encodes the schema message of a field nested depth
// lists deep.
func deepSchemaMessages(t *testing.T, depth int) []*FlightData {
	var typ datatype.DataType = datatype.Int64
	for range depth {
		typ = datatype.ListOf(typ)
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "deep", Type: typ, Nullable: true}}, datatype.Metadata{})
	var sink collect
	require.NoError(t, newWriter(t, &sink, s).WriteSchema())
	return sink.msgs
}

// TestReaderLimits: RecordReader applies the limits of ipc.WithLimits,
// below and above the defaults, to every part of a message.
func TestReaderLimits(t *testing.T) {
	valid := validMessages(t) // 4 rows of every type
	var header, body int
	for _, m := range valid {
		header, body = max(header, len(m.DataHeader)), max(body, len(m.DataBody))
	}
	// As deep as writers allow (they refuse what default readers refuse).
	deep := deepSchemaMessages(t, ipc.DefaultLimits.MaxDepth-4)
	for _, tc := range []struct {
		name   string
		msgs   []*FlightData
		limits *ipc.Limits // nil: no option
		refuse string      // "" accepts
	}{
		{"defaults", valid, nil, ""},
		{"metadata over", valid, &ipc.Limits{MaxMetadataSize: header - 1}, "metadata"},
		{"metadata at", valid, &ipc.Limits{MaxMetadataSize: header}, ""},
		{"body over", valid, &ipc.Limits{MaxBodySize: int64(body) - 1}, "body"},
		{"body at", valid, &ipc.Limits{MaxBodySize: int64(body)}, ""},
		{"rows over", valid, &ipc.Limits{MaxRows: 3}, "limit 3 rows"},
		{"rows above the default", valid, &ipc.Limits{MaxRows: 1 << 40}, ""},
		{"deep, default depth", deep, nil, ""},
		{"deep, depth below the default", deep, &ipc.Limits{MaxDepth: 32}, "nesting deeper than 32"},
		{"deep, small metadata limit", deep, &ipc.Limits{MaxMetadataSize: 64}, "metadata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []ipc.Option
			if tc.limits != nil {
				opts = append(opts, ipc.WithLimits(*tc.limits))
			}
			rr, err := NewRecordReader(&fakeStream{msgs: append([]*FlightData(nil), tc.msgs...)}, opts...)
			if err == nil {
				_, err = readRecords(rr)
			}
			if tc.refuse == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ipc.ErrLimit)
			require.ErrorContains(t, err, tc.refuse)
		})
	}
}
