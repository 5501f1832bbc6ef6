package parquet

// Arrow types with no Parquet unit of their own, which the writer scales
// to one and the reader scales back (with a stored ARROW:schema).

import "github.com/alkaid-go/alkaid/datatype"

// secondsFactor is what the values of a type with no Parquet unit of its
// own are multiplied by (seconds to milliseconds), or divided by when
// negative (Date64 milliseconds to days); 0 for other types.
func secondsFactor(t datatype.DataType) int64 {
	switch tt := t.(type) {
	case *datatype.TimeType:
		if tt.Unit == datatype.Second {
			return 1000
		}
	}
	if t.Kind() == datatype.KindDate64 {
		return -86400000
	}
	return 0
}
