package extension_test

import (
	"bytes"
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/ipc"
)

// Build a UUID column and a 2×3 tensor column, send them through an IPC
// stream and read them back as typed arrays.
func Example() {
	ids := extension.NewUUIDBuilder()
	_ = ids.AppendString("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
	ids.AppendNull()

	tt, _ := extension.NewFixedShapeTensor(datatype.Float32, []int{2, 3}, extension.WithDimNames("H", "W"))
	tb := extension.NewFixedShapeTensorBuilder(tt)
	_ = extension.AppendFixedShapeTensor(tb, []float32{1, 2, 3, 4, 5, 6})
	_ = extension.AppendFixedShapeTensor(tb, []float32{7, 8, 9, 10, 11, 12})

	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: extension.NewUUIDType(), Nullable: true},
		{Name: "image", Type: tt, Nullable: true},
	}, datatype.Metadata{})
	rec, _ := alkaid.NewRecord(schema, []array.Array{ids.Finish(), tb.Finish()}, 2)

	var buf bytes.Buffer
	w, _ := ipc.NewStreamWriter(&buf, schema)
	_ = w.Write(rec)
	_ = w.Close()

	r, _ := ipc.NewStreamReader(&buf)
	var got *alkaid.Record
	for rec, err := range r.Records() {
		if err != nil {
			panic(err)
		}
		got = rec
	}
	fmt.Println(got.Schema().Field(1).Type)
	fmt.Println(tt.Serialize())

	col, _ := extension.Wrap(got.Column(0))
	fmt.Println(col.(*extension.UUIDArray).Value(0), col)
	img, _ := extension.NewFixedShapeTensorArray(got.Column(1))
	t := img.Tensor(1)
	vals, _ := extension.TensorValues[float32](t)
	fmt.Println(t, t.Shape, t.Strides, vals[t.Offset(1, 2)])
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=float32, shape=[2,3], dim_names=["H","W"]]>
	// {"shape":[2,3],"dim_names":["H","W"]}
	// f81d4fae-7dec-11d0-a765-00a0c91e6bf6 [f81d4fae-7dec-11d0-a765-00a0c91e6bf6 (null)]
	// [[7 8 9] [10 11 12]] [2 3] [3 1] 12
}
