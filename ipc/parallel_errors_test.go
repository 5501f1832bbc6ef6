package ipc

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// parallel returns the error of the lowest failing index, as a serial run
// does, even when a higher index fails first in time.
func TestParallelReportsLowestIndex(t *testing.T) {
	for _, workers := range []int{1, 2, 4, 16} {
		err := parallel(8, workers, func(i int) error {
			switch i {
			case 1:
				time.Sleep(20 * time.Millisecond)
				return fmt.Errorf("index %d", i)
			case 5, 6:
				return fmt.Errorf("index %d", i)
			}
			return nil
		})
		require.EqualError(t, err, "index 1", "workers %d", workers)
	}
}

// A file whose two batches both hold corrupt compressed buffers (every
// buffer of each) reports, with any concurrency, the error a serial read
// reports: the first buffer of the first batch.
func TestCorruptBuffersSameErrorAtAnyConcurrency(t *testing.T) {
	const n = 4096
	types := []datatype.DataType{datatype.Int8, datatype.Int16, datatype.Int32, datatype.Int64}
	fields := make([]datatype.Field, len(types))
	cols := make([]array.Array, len(types))
	for i, dt := range types {
		fields[i] = datatype.Field{Name: fmt.Sprintf("c%d", i), Type: dt}
		width := []int{1, 2, 4, 8}[i]
		// Compressible, and a different size per column, so that each
		// buffer's error names a different stated size.
		cols[i] = array.MustMake(array.NewData(dt, n, []*memory.Buffer{nil, memory.NewBuffer(make([]byte, width*n))}, nil, 0, 0))
	}
	s := alkaid.NewSchema(fields, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, cols, n)
	require.NoError(t, err)
	raw := writeFile(t, s, []*alkaid.Record{rec, rec}, WithCompression(Zstd, 0))
	zstdMagic := []byte{0x28, 0xb5, 0x2f, 0xfd}
	require.Equal(t, 2*len(types), bytes.Count(raw, zstdMagic), "one frame per buffer")
	bad := bytes.ReplaceAll(raw, zstdMagic, []byte{0, 0, 0, 0})

	read := func(opts ...Option) error {
		fr, err := NewFileReader(bytes.NewReader(bad), int64(len(bad)), opts...)
		require.NoError(t, err)
		_, err = drain(fr)
		return err
	}
	serial := read(WithConcurrency(1))
	require.ErrorIs(t, serial, ErrInvalid)
	require.Contains(t, serial.Error(), "record batch 0")
	require.Contains(t, serial.Error(), fmt.Sprintf("stated %d bytes", n), "the int8 column's buffer, the first")
	for range 20 {
		for _, workers := range []int{2, 4, 0} {
			err := read(WithConcurrency(workers))
			require.Equal(t, serial.Error(), err.Error(), "concurrency %d", workers)
			require.True(t, errors.Is(err, ErrInvalid))
		}
	}
}
