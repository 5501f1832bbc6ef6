package arrowbridge

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	aarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// TestMappedFileStaysMappedForArrowGo: arrow-go arrays over a memory-mapped
// file's buffers keep the mapping alive after every Alkaid reference is
// gone (an unmapped page would crash the reads below).
func TestMappedFileStaysMappedForArrowGo(t *testing.T) {
	schema := randdata.AllTypes()
	rec := randdata.New(7).Record(schema, 500)
	path := filepath.Join(t.TempDir(), "data.ipc")
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := ipc.NewFileWriter(f, schema)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())

	want, err := ToArrowRecord(rec) // arrow-go over Go memory, for comparison
	require.NoError(t, err)
	defer want.Release()

	r, err := ipc.OpenFile(path)
	require.NoError(t, err)
	mapped, err := r.Record(0)
	require.NoError(t, err)
	col := schema.FieldIndex("utf8")
	require.Equal(t, datatype.KindString, schema.Field(col).Type.Kind())
	owner := mapped.Column(col).Data().Buffers[2].Owner()
	require.NotNil(t, owner, "the reader should map the file")
	owner = nil
	got, err := ToArrowRecord(mapped)
	require.NoError(t, err)
	defer got.Release()
	require.NoError(t, r.Close())
	r, mapped = nil, nil
	for range 5 {
		runtime.GC()
	}
	for i := range int(want.NumCols()) {
		require.True(t, aarray.Equal(want.Column(i), got.Column(i)), "column %s", want.ColumnName(i))
	}
	runtime.KeepAlive(owner)
}
