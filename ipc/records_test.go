package ipc

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/memory"
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

// TestDecodeRecordAt decodes a stream's record batches out of order and
// concurrently, as the file reader does, after the schema and
// dictionaries went through DecodeMessage.
func TestDecodeRecordAt(t *testing.T) {
	s, recs := randomBatches(4)
	raw := writeStream(t, s, recs)
	d := NewDecoder()
	var batches []*Message
	src := &bytesSource{data: memory.NewBuffer(raw)}
	for {
		m, err := src.next(d.Limits())
		if err != nil {
			require.ErrorIs(t, err, io.EOF)
			break
		}
		if m.Type() == MessageRecordBatch {
			batches = append(batches, m)
			continue
		}
		_, err = d.DecodeMessage(m)
		require.NoError(t, err)
	}
	require.Len(t, batches, len(recs))
	got := make([]*alkaid.Record, len(batches))
	var wg sync.WaitGroup
	for i := len(batches) - 1; i >= 0; i-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, err := d.DecodeRecordAt(batches[i], i)
			assert.NoError(t, err)
			got[i] = rec
		}()
	}
	wg.Wait()
	requireSameRecords(t, recs, got, "out of order")

	_, err := NewDecoder().DecodeRecordAt(batches[0], 0)
	require.ErrorContains(t, err, "record batch before the schema")
	schemaMsg, err := (&bytesSource{data: memory.NewBuffer(raw)}).next(DefaultLimits)
	require.NoError(t, err)
	_, err = d.DecodeRecordAt(schemaMsg, 7)
	require.ErrorContains(t, err, "record batch 7: a schema message")
}
