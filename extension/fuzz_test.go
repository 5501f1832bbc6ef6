package extension_test

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
)

// fuzzStorages are storage types a reader may pair with any extension
// name: the canonical ones and some that fit none.
var fuzzStorages = func() []datatype.DataType {
	must := func(t datatype.DataType, err error) datatype.DataType {
		if err != nil {
			panic(err)
		}
		return t
	}
	shape := must(datatype.FixedSizeListOf(datatype.Int32, 2))
	return []datatype.DataType{
		must(datatype.FixedSizeListOf(datatype.Float32, 6)),
		datatype.StructOf(
			datatype.Field{Name: "data", Type: datatype.ListOf(datatype.Float64)},
			datatype.Field{Name: "shape", Type: shape}),
		datatype.String,
		datatype.LargeString,
		must(datatype.NewFixedSizeBinary(16)),
		datatype.Int8,
		datatype.StructOf(
			datatype.Field{Name: "metadata", Type: datatype.Binary},
			datatype.Field{Name: "value", Type: datatype.Binary, Nullable: true}),
		datatype.Null,
		datatype.StringView,
		must(datatype.FixedSizeListOf(datatype.Int64, 0)),
	}
}()

// FuzzDeserialize gives every canonical extension type arbitrary metadata
// over each storage type, as an IPC reader does with a field's custom
// metadata: Deserialize must return an error or a type whose metadata
// deserializes again into an equal type.
func FuzzDeserialize(f *testing.F) {
	seeds := []string{
		"", "{}", "null", `{"shape":[2,3]}`, `{"shape":[3,2],"dim_names":["C","H"],"permutation":[1,0]}`,
		`{"shape":[6]}`, `{"shape":[]}`, `{"uniform_shape":[null,3]}`, `{"dim_names":["x","y"],"permutation":[1,0]}`,
		`{"type_name":"geometry","vendor_name":"postgis"}`, `{"shape":[2,-3]}`, `{"shape":[9223372036854775807,2]}`,
		`{"shape":[2,3],"permutation":[0,0]}`, `{"uniform_shape":[1e400]}`, `{"type_name":""}`,
	}
	for k := range extension.Names() {
		for s := range fuzzStorages {
			for _, m := range seeds {
				f.Add(byte(k), byte(s), m)
			}
		}
	}
	f.Fuzz(func(t *testing.T, name, storage byte, meta string) {
		names := extension.Names()
		proto, ok := datatype.LookupExtension(names[int(name)%len(names)])
		if !ok {
			t.Fatalf("%s is not registered", names[int(name)%len(names)])
		}
		st := fuzzStorages[int(storage)%len(fuzzStorages)]
		typ, err := proto.Deserialize(st, meta)
		if err != nil {
			if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrNotSupported) && !errors.Is(err, datatype.ErrLimit) {
				t.Fatalf("%s over %s, metadata %q: error wraps no sentinel: %v", proto.ExtensionName(), st, meta, err)
			}
			return
		}
		if typ == nil {
			t.Fatalf("%s over %s, metadata %q: no type and no error", proto.ExtensionName(), st, meta)
		}
		again, err := proto.Deserialize(typ.StorageType(), typ.Serialize())
		if err != nil {
			t.Fatalf("%s over %s: metadata %q accepted, its serialization %q refused: %v", proto.ExtensionName(), st, meta, typ.Serialize(), err)
		}
		if !datatype.Equal(typ, again) || !typ.ExtensionEqual(again) {
			t.Fatalf("%s over %s: %s from %q, %s from its serialization %q", proto.ExtensionName(), st, typ, meta, again, typ.Serialize())
		}
		_ = typ.String()
	})
}
