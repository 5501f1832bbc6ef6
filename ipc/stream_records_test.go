package ipc

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// StreamReader.Records hands the error that ends a stream to the loop,
// once, with a nil record, after the batches read before it; a clean end
// yields no error. Breaking out of the loop early stops reading.
func TestStreamRecordsYieldsTheError(t *testing.T) {
	s := randdata.AllTypes()
	g := randdata.New(5)
	recs := []*alkaid.Record{g.Record(s, 4), g.Record(s, 6), g.Record(s, 3)}
	raw := writeStream(t, s, recs)
	for _, c := range []struct {
		name     string
		in       []byte
		wantRecs int
		wantErr  bool
	}{
		{"whole", raw, 3, false},
		{"cut in the last batch", raw[:len(raw)-20], 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := NewStreamReader(bytes.NewReader(c.in))
			require.NoError(t, err)
			var got, errs int
			for rec, err := range r.Records() {
				if err != nil {
					require.Nil(t, rec)
					require.ErrorIs(t, err, ErrInvalid)
					errs++
					continue
				}
				require.Zero(t, errs, "a record after the error")
				require.Equal(t, recs[got].String(), rec.String())
				got++
			}
			require.Equal(t, c.wantRecs, got)
			require.Equal(t, c.wantErr, errs == 1)
			require.LessOrEqual(t, errs, 1)
		})
	}
	r, err := NewStreamReader(bytes.NewReader(raw))
	require.NoError(t, err)
	n := 0
	for range r.Records() {
		n++
		break
	}
	require.Equal(t, 1, n, "breaking out of the loop stops after the first batch")
}
