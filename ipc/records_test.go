package ipc

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStreamRecordsYieldsTheError checks that StreamReader.Records has
// the shape of FileReader.Records: the batches, then the error that
// stopped the stream with a nil record.
func TestStreamRecordsYieldsTheError(t *testing.T) {
	s, recs := randomBatches(3)
	raw := writeStream(t, s, recs)
	for _, tc := range []struct {
		name    string
		data    []byte
		wantErr bool
	}{
		{"whole stream", raw, false},
		{"cut in the last message", raw[:len(raw)-16], true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sr, err := NewStreamReader(bytes.NewReader(tc.data))
			require.NoError(t, err)
			var got int
			var last error
			for rec, err := range sr.Records() {
				if err != nil {
					require.Nil(t, rec)
					last = err
					continue
				}
				got++
			}
			if !tc.wantErr {
				require.NoError(t, last)
				require.Equal(t, len(recs), got)
				return
			}
			require.ErrorIs(t, last, ErrInvalid)
			require.Equal(t, sr.Err(), last)
			require.Less(t, got, len(recs))
		})
	}
}
