package interop

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	aparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	amemory "github.com/alkaid-go/alkaid/memory"
	"github.com/alkaid-go/alkaid/parquet"
)

// The Parquet UUID logical type is the arrow.uuid extension in both
// libraries, without a stored Arrow schema to carry it.
func TestParquetUUIDPqarrow(t *testing.T) {
	ids := []string{"f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "", "00112233-4455-6677-8899-aabbccddeeff"}
	raw := make([]byte, 16*len(ids))
	valid := []byte{0b101}
	for i, s := range ids {
		if s != "" {
			u := extension.MustParseUUID(s)
			copy(raw[16*i:], u[:])
		}
	}
	col, err := array.Make(array.NewData(extension.NewUUIDType(), len(ids), []*amemory.Buffer{amemory.NewBuffer(valid), amemory.NewBuffer(raw)}, nil, 1, 0))
	require.NoError(t, err)
	s := alkaid.NewSchema([]datatype.Field{{Name: "id", Type: extension.NewUUIDType(), Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(s, []array.Array{col}, len(ids))
	require.NoError(t, err)

	// Alkaid → pqarrow.
	var buf bytes.Buffer
	w, err := parquet.NewWriter(&buf, s, parquet.WithoutStoredSchema())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	require.NoError(t, err)
	defer tbl.Release()
	require.IsType(t, &extensions.UUIDType{}, tbl.Schema().Field(0).Type)
	got := tbl.Column(0).Data().Chunk(0).(*extensions.UUIDArray)
	require.Equal(t, ids[0], got.ValueStr(0))
	require.True(t, got.IsNull(1))
	require.Equal(t, ids[2], got.ValueStr(2))

	// pqarrow → Alkaid.
	var out bytes.Buffer
	require.NoError(t, pqarrow.WriteTable(tbl, &out, 10, aparquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties()))
	pf, err := parquet.NewFile(bytes.NewReader(out.Bytes()), int64(out.Len()))
	require.NoError(t, err)
	require.Equal(t, extension.UUIDName, pf.Schema().Field(0).Type.(datatype.ExtensionType).ExtensionName())
	back, err := pqRecords(pf)
	require.NoError(t, err)
	require.True(t, array.Equal(col, back[0].Column(0)), "%s", array.Format(back[0].Column(0)))
}
