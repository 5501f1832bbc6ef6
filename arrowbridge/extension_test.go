package arrowbridge

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aext "github.com/apache/arrow-go/v18/arrow/extensions"
	amemory "github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// TestExtensionTypesBothLibrariesKnow: arrow.uuid is registered on both
// sides (arrow-go's extensions package is imported here): it converts to
// arrow-go's UUID type and back to Alkaid's.
func TestExtensionTypesBothLibrariesKnow(t *testing.T) {
	storage := randdata.New(3).Array(must(datatype.NewFixedSizeBinary(16)), 20, true)
	uuids, err := array.NewExtension(&extension.UUIDType{}, storage)
	require.NoError(t, err)
	aa, err := ToArrow(uuids)
	require.NoError(t, err)
	defer aa.Release()
	require.IsType(t, &aext.UUIDType{}, aa.DataType())
	require.IsType(t, &aext.UUIDArray{}, aa)
	back, err := FromArrow(aa)
	require.NoError(t, err)
	require.IsType(t, &extension.UUIDType{}, back.DataType())
	require.True(t, array.Equal(uuids, back))
	requireSharedWithArrow(t, "uuid", uuids.Data(), aa.Data())
}

// TestExtensionTypesOneLibraryKnows: a type only Alkaid has (a fixed-shape
// tensor) crosses as storage with its name in the field metadata and comes
// back as the extension; one only arrow-go has (its timestamp with offset)
// likewise in the other direction.
func TestExtensionTypesOneLibraryKnows(t *testing.T) {
	tt, err := extension.NewFixedShapeTensor(datatype.Float32, []int{2, 2})
	require.NoError(t, err)
	storage := randdata.New(5).Array(tt.StorageType(), 6, true)
	tensors, err := array.NewExtension(tt, storage)
	require.NoError(t, err)
	schema := alkaid.NewSchema([]datatype.Field{{Name: "t", Type: tt, Nullable: true}}, datatype.Metadata{})
	rec, err := alkaid.NewRecord(schema, []array.Array{tensors}, 6)
	require.NoError(t, err)
	arec, err := ToArrowRecord(rec)
	require.NoError(t, err)
	defer arec.Release()
	require.NotEqual(t, arrow.EXTENSION, arec.Column(0).DataType().ID(), "arrow-go has no fixed-shape tensor")
	name, ok := arec.Schema().Field(0).Metadata.GetValue(extensionNameKey)
	require.True(t, ok)
	require.Equal(t, tt.ExtensionName(), name)
	back, err := FromArrowRecord(arec)
	require.NoError(t, err)
	require.True(t, schema.Equal(back.Schema()), "%v", back.Schema())
	require.True(t, array.Equal(tensors, back.Column(0)))

	// arrow-go's timestamp-with-offset, unknown to Alkaid.
	ext := aext.NewTimestampWithOffsetType(arrow.Microsecond)
	b := aarray.NewExtensionBuilder(amemory.NewGoAllocator(), ext)
	defer b.Release()
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	as := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: ext, Nullable: true}}, nil)
	ar := aarray.NewRecordBatch(as, []arrow.Array{arr}, 1)
	defer ar.Release()
	ours, err := FromArrowRecord(ar)
	require.NoError(t, err)
	name, ok = ours.Schema().Field(0).Metadata.Get(extensionNameKey)
	require.True(t, ok)
	require.Equal(t, ext.ExtensionName(), name)
	require.Equal(t, datatype.KindStruct, ours.Column(0).DataType().Kind())
	again, err := ToArrowRecord(ours)
	require.NoError(t, err)
	defer again.Release()
	require.IsType(t, ext, again.Column(0).DataType())
	require.True(t, aarray.Equal(arr, again.Column(0)))
}
