package ipc

import (
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/memory"
)

// TestDecodeRecordAt decodes a stream's record batches out of order and
// concurrently, as the file reader does, after the schema and
// dictionaries went through DecodeMessage.
func TestDecodeRecordAt(t *testing.T) {
	s, recs := randomBatches(4)
	raw := writeStream(t, s, recs)
	d := mustDecoder(t)
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

	_, err := mustDecoder(t).DecodeRecordAt(batches[0], 0)
	require.ErrorContains(t, err, "record batch before the schema")
	schemaMsg, err := (&bytesSource{data: memory.NewBuffer(raw)}).next(DefaultLimits)
	require.NoError(t, err)
	_, err = d.DecodeRecordAt(schemaMsg, 7)
	require.ErrorContains(t, err, "record batch 7: a schema message")
}
