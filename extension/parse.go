package extension

import (
	"encoding/json"

	"github.com/alkaid-go/alkaid/datatype"
)

// The canonical types whose String carries parameters read them back for
// [datatype.ParseType] through [datatype.ExtensionParser].
var (
	_ datatype.ExtensionParser = (*JSONType)(nil)
	_ datatype.ExtensionParser = (*VariantType)(nil)
	_ datatype.ExtensionParser = (*OpaqueType)(nil)
	_ datatype.ExtensionParser = (*FixedShapeTensorType)(nil)
	_ datatype.ExtensionParser = (*VariableShapeTensorType)(nil)
)

// params splits the bracketed parameters of name's String form into a
// map, refusing keys other than those allowed and keys given twice.
func params(name, text string, allowed ...string) (map[string]string, error) {
	ps, err := datatype.SplitParams(text)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ps))
	for _, p := range ps {
		ok := false
		for _, a := range allowed {
			ok = ok || a == p.Key
		}
		if !ok {
			return nil, invalidf(name, "unknown parameter %q", p.Key)
		}
		if _, dup := out[p.Key]; dup {
			return nil, invalidf(name, "parameter %q given twice", p.Key)
		}
		out[p.Key] = p.Value
	}
	return out, nil
}

// paramType reads a type-valued parameter; a missing one is def (nil:
// required).
func paramType(name string, ps map[string]string, key string, def datatype.DataType) (datatype.DataType, error) {
	s, ok := ps[key]
	if !ok {
		if def == nil {
			return nil, invalidf(name, "parameter %q is missing", key)
		}
		return def, nil
	}
	return datatype.ParseType(s)
}

// paramJSON reads a JSON-valued parameter (a string or a list) into v;
// it reports whether the parameter was there.
func paramJSON(name string, ps map[string]string, key string, v any) (bool, error) {
	s, ok := ps[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return false, invalidf(name, "parameter %s=%s: %v", key, s, err)
	}
	return true, nil
}

// ParseExtension reads "storage=T" (utf8 when absent).
func (*JSONType) ParseExtension(text string) (datatype.ExtensionType, error) {
	ps, err := params(JSONName, text, "storage")
	if err != nil {
		return nil, err
	}
	storage, err := paramType(JSONName, ps, "storage", datatype.String)
	if err != nil {
		return nil, err
	}
	return NewJSONType(storage)
}

// ParseExtension reads "storage=T" (the default storage when absent).
func (*VariantType) ParseExtension(text string) (datatype.ExtensionType, error) {
	ps, err := params(VariantName, text, "storage")
	if err != nil {
		return nil, err
	}
	storage, err := paramType(VariantName, ps, "storage", defaultVariantStorage)
	if err != nil {
		return nil, err
	}
	return NewVariantTypeOf(storage)
}

// ParseExtension reads "storage=T, type_name=\"…\", vendor_name=\"…\"".
func (*OpaqueType) ParseExtension(text string) (datatype.ExtensionType, error) {
	ps, err := params(OpaqueName, text, "storage", "type_name", "vendor_name")
	if err != nil {
		return nil, err
	}
	storage, err := paramType(OpaqueName, ps, "storage", nil)
	if err != nil {
		return nil, err
	}
	var typeName, vendorName string
	for key, dst := range map[string]*string{"type_name": &typeName, "vendor_name": &vendorName} {
		ok, err := paramJSON(OpaqueName, ps, key, dst)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, invalidf(OpaqueName, "parameter %q is missing", key)
		}
	}
	return NewOpaque(storage, typeName, vendorName)
}

// tensorLayout reads the optional dim_names and permutation parameters.
func tensorLayout(name string, ps map[string]string) ([]TensorOption, error) {
	var opts []TensorOption
	var names []string
	if ok, err := paramJSON(name, ps, "dim_names", &names); err != nil {
		return nil, err
	} else if ok {
		opts = append(opts, WithDimNames(names...))
	}
	var perm []int
	if ok, err := paramJSON(name, ps, "permutation", &perm); err != nil {
		return nil, err
	} else if ok {
		opts = append(opts, WithPermutation(perm...))
	}
	return opts, nil
}

// ParseExtension reads "value_type=T, shape=[…]" and the optional
// "dim_names=[…]" and "permutation=[…]".
func (*FixedShapeTensorType) ParseExtension(text string) (datatype.ExtensionType, error) {
	const name = FixedShapeTensorName
	ps, err := params(name, text, "value_type", "shape", "dim_names", "permutation")
	if err != nil {
		return nil, err
	}
	value, err := paramType(name, ps, "value_type", nil)
	if err != nil {
		return nil, err
	}
	var shape []int
	if ok, err := paramJSON(name, ps, "shape", &shape); err != nil {
		return nil, err
	} else if !ok {
		return nil, invalidf(name, "parameter \"shape\" is missing")
	}
	opts, err := tensorLayout(name, ps)
	if err != nil {
		return nil, err
	}
	return NewFixedShapeTensor(value, shape, opts...)
}

// ParseExtension reads "value_type=T, ndim=N" and the optional
// "dim_names=[…]", "permutation=[…]" and "uniform_shape=[…]" (null for a
// dimension that varies).
func (*VariableShapeTensorType) ParseExtension(text string) (datatype.ExtensionType, error) {
	const name = VariableShapeTensorName
	ps, err := params(name, text, "value_type", "ndim", "dim_names", "permutation", "uniform_shape")
	if err != nil {
		return nil, err
	}
	value, err := paramType(name, ps, "value_type", nil)
	if err != nil {
		return nil, err
	}
	var ndim int
	if ok, err := paramJSON(name, ps, "ndim", &ndim); err != nil {
		return nil, err
	} else if !ok {
		return nil, invalidf(name, "parameter \"ndim\" is missing")
	}
	opts, err := tensorLayout(name, ps)
	if err != nil {
		return nil, err
	}
	var uniform []*int
	if ok, err := paramJSON(name, ps, "uniform_shape", &uniform); err != nil {
		return nil, err
	} else if ok {
		dims := make([]int, len(uniform))
		for i, d := range uniform {
			dims[i] = NonUniform
			if d != nil {
				dims[i] = *d
			}
		}
		opts = append(opts, WithUniformShape(dims...))
	}
	return NewVariableShapeTensor(value, ndim, opts...)
}
