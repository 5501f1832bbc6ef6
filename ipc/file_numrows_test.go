package ipc

import (
	"bytes"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// rangeLog is an io.ReaderAt that logs the ranges read.
type rangeLog struct {
	r      *bytes.Reader
	mu     sync.Mutex
	ranges [][2]int64
}

func (l *rangeLog) ReadAt(p []byte, off int64) (int, error) {
	n, err := l.r.ReadAt(p, off)
	l.mu.Lock()
	l.ranges = append(l.ranges, [2]int64{off, off + int64(n)})
	l.mu.Unlock()
	return n, err
}

func TestFileReaderNumRows(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}}, datatype.Metadata{})
	sizes := []int{3, 0, 1000}
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s)
	require.NoError(t, err)
	for _, n := range sizes {
		b := array.NewPrimitiveBuilder[int64](datatype.Int64)
		for i := range n {
			b.Append(int64(i))
		}
		rec, err := alkaid.NewRecord(s, []array.Array{b.Finish()}, n)
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	raw := buf.Bytes()

	log := &rangeLog{r: bytes.NewReader(raw)}
	fr, err := NewFileReader(log, int64(len(raw)))
	require.NoError(t, err)
	log.ranges = nil
	for i, n := range sizes {
		got, err := fr.NumRows(i)
		require.NoError(t, err)
		require.Equal(t, int64(n), got)
	}
	// no byte of a batch body was read
	for i := range sizes {
		blk, err := fr.footerBlock(recordBatchBlocks, i)
		require.NoError(t, err)
		lo, hi := blk.offset+int64(blk.metaLen), blk.offset+int64(blk.metaLen)+blk.bodyLen
		for _, r := range log.ranges {
			require.False(t, r[0] < hi && lo < r[1], "read %v overlaps body %d [%d, %d)", r, i, lo, hi)
		}
	}
	require.NotEmpty(t, log.ranges)

	for _, i := range []int{-1, 3} {
		_, err := fr.NumRows(i)
		require.Error(t, err)
	}

	// metadata that does not verify is ErrInvalid, not a panic
	blk, err := fr.footerBlock(recordBatchBlocks, 2)
	require.NoError(t, err)
	bad := bytes.Clone(raw)
	for k := blk.offset + 8; k < blk.offset+int64(blk.metaLen); k++ {
		bad[k] = 0xff
	}
	fr, err = NewFileReader(bytes.NewReader(bad), int64(len(bad)))
	require.NoError(t, err)
	_, err = fr.NumRows(2)
	require.ErrorIs(t, err, ErrInvalid)
	n, err := fr.NumRows(0)
	require.NoError(t, err)
	require.Equal(t, int64(3), n)
}
