package dataset

import (
	"fmt"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// widen is the type both a and b convert to without loss, by the rules
// of the package documentation; ok is false when there is none.
func widen(a, b datatype.DataType) (datatype.DataType, bool) {
	if datatype.Equal(a, b) {
		return a, true
	}
	ka, kb := a.Kind(), b.Kind()
	switch {
	case ka == datatype.KindNull:
		return b, true
	case kb == datatype.KindNull:
		return a, true
	case ka.IsInteger() && kb.IsInteger():
		wa, wb := datatype.ByteWidth(a)*8, datatype.ByteWidth(b)*8
		sa, sb := ka.IsSignedInteger(), kb.IsSignedInteger()
		if sa == sb {
			t, err := datatype.IntType(max(wa, wb), sa)
			return t, err == nil
		}
		if !sa { // make a the signed one
			wa, wb = wb, wa
		}
		w := max(wa, 2*wb)
		if w > 64 {
			return nil, false
		}
		t, err := datatype.IntType(w, true)
		return t, err == nil
	case ka.IsNumeric() && kb.IsNumeric() && ka != datatype.KindFloat16 && kb != datatype.KindFloat16 &&
		(ka.IsFloat() || ka.IsInteger()) && (kb.IsFloat() || kb.IsInteger()):
		return datatype.Float64, true
	case pair(ka, kb, datatype.KindString, datatype.KindLargeString):
		return datatype.LargeString, true
	case pair(ka, kb, datatype.KindBinary, datatype.KindLargeBinary):
		return datatype.LargeBinary, true
	case ka == datatype.KindTimestamp && kb == datatype.KindTimestamp:
		ta, tb := a.(*datatype.TimestampType), b.(*datatype.TimestampType)
		if ta.TimeZone != tb.TimeZone {
			return nil, false
		}
		if ta.Unit >= tb.Unit {
			return a, true
		}
		return b, true
	}
	return nil, false
}

func pair(a, b, x, y datatype.Kind) bool { return a == x && b == y || a == y && b == x }

// unify merges the schemas of files (named by names) into one: fields in
// order of first appearance, each of the widened type of every file that
// has it, nullable when any file's is or some file lacks it; the schema's
// metadata is the files' when they all have the same.
func unify(schemas []*alkaid.Schema, names []string) (*alkaid.Schema, error) {
	var fields []datatype.Field
	from := map[string]int{} // field name -> file that set its type
	index := map[string]int{}
	count := map[string]int{}
	for fi, s := range schemas {
		seen := map[string]bool{}
		for _, f := range s.Fields() {
			if seen[f.Name] {
				return nil, fileErr(names[fi], fmt.Errorf("%w: column %q appears twice", ErrInvalid, f.Name))
			}
			seen[f.Name] = true
			count[f.Name]++
			i, ok := index[f.Name]
			if !ok {
				index[f.Name] = len(fields)
				from[f.Name] = fi
				fields = append(fields, f)
				continue
			}
			t, ok := widen(fields[i].Type, f.Type)
			if !ok {
				return nil, fmt.Errorf("%w: column %q is %s in %s and %s in %s",
					ErrSchemaConflict, f.Name, fields[i].Type, names[from[f.Name]], f.Type, names[fi])
			}
			if !datatype.Equal(t, fields[i].Type) {
				from[f.Name] = fi
			}
			fields[i].Type = t
			fields[i].Nullable = fields[i].Nullable || f.Nullable
		}
	}
	for i := range fields {
		if count[fields[i].Name] < len(schemas) {
			fields[i].Nullable = true
		}
	}
	return alkaid.NewSchema(fields, commonMetadata(schemas)), nil
}

// commonMetadata is the schemas' metadata when they all have the same,
// none otherwise.
func commonMetadata(schemas []*alkaid.Schema) datatype.Metadata {
	if len(schemas) == 0 {
		return datatype.Metadata{}
	}
	m := schemas[0].Metadata()
	for _, s := range schemas[1:] {
		if !s.Metadata().Equal(m) {
			return datatype.Metadata{}
		}
	}
	return m
}
