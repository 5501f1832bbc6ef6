package dataset

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/internal/textval"
	"github.com/alkaid-go/alkaid/memory"
)

// PartitionStyle is how directory names carry partition values.
type PartitionStyle int

// The partition styles.
const (
	// NoPartitions: directory names carry no values.
	NoPartitions PartitionStyle = iota
	// Hive: each directory level is key=value, the value percent-escaped
	// (as url.PathUnescape reads it); HiveNull is the null value.
	Hive
	// Directory: each directory level is a value, the level's position
	// naming its key (Partitioning.Fields in order).
	Directory
)

// HiveNull is the directory value Hive, Spark and DuckDB write for a null
// partition value.
const HiveNull = "__HIVE_DEFAULT_PARTITION__"

// Partitioning says how a dataset's directories map to partition columns.
// Partition columns follow the files' columns in the dataset's schema.
//
// Fields gives keys and their types. For Hive it is optional: keys found
// in directory names but not listed are appended in order of first
// appearance, and a field of nil Type has its type inferred. For
// Directory it lists one field per level. An inferred type is int64 when
// every non-null value parses as one, else date32 when every value is a
// date YYYY-MM-DD, else utf8. The types a key may be given: the integer
// and float types, utf8, large_utf8, bool and date32.
type Partitioning struct {
	Style  PartitionStyle
	Fields []datatype.Field
	// Dictionary makes partition columns dictionary<int32, T> rather than
	// plain T.
	Dictionary bool
}

// parseHiveSegment reads one directory name as key=value: ok is false
// when it holds no "="; null reports HiveNull.
func parseHiveSegment(seg string) (key, value string, null, ok bool, err error) {
	k, v, found := strings.Cut(seg, "=")
	if !found {
		return "", "", false, false, nil
	}
	if k, err = url.PathUnescape(k); err != nil || k == "" {
		return "", "", false, false, fmt.Errorf("%w: directory %q: key is not a well-formed escaped name", ErrPartitionValue, seg)
	}
	if v == HiveNull {
		return k, "", true, true, nil
	}
	if value, err = url.PathUnescape(v); err != nil {
		return "", "", false, false, fmt.Errorf("%w: directory %q: %v", ErrPartitionValue, seg, err)
	}
	return k, value, false, true, nil
}

// escapeHive escapes a partition value or key for a directory name: bytes
// other than ASCII letters, digits and -._~ become %XX, and so does the
// first "_" of a string equal to HiveNull, which would read back as null.
func escapeHive(s string) string {
	var b strings.Builder
	if s == HiveNull {
		b.WriteString("%5F")
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// rawValue is a partition value as a directory names it.
type rawValue struct {
	text    string
	null    bool
	present bool
}

const dateLayout = "2006-01-02"

// inferType is the partition type of values (see Partitioning): int64
// when every value reads as one, else date32, else utf8, by the text
// grammar csv and ndjson read.
func inferType(values []string) datatype.DataType {
	if len(values) == 0 {
		return datatype.String
	}
	for _, t := range []datatype.DataType{datatype.Int64, datatype.Date32Type} {
		ap, err := textval.NewAppender(t, &textval.Options{})
		all := err == nil
		for i := 0; all && i < len(values); i++ {
			all = ap.Append([]byte(values[i])) == nil
		}
		if all {
			return t
		}
	}
	return datatype.String
}

// checkPartitionType reports whether t is a type a partition key may have.
func checkPartitionType(t datatype.DataType) error {
	k := t.Kind()
	switch {
	case k.IsInteger(), k == datatype.KindFloat32, k == datatype.KindFloat64,
		k == datatype.KindString, k == datatype.KindLargeString, k == datatype.KindBool, k == datatype.KindDate32:
		return nil
	}
	return fmt.Errorf("dataset: %w: partition key of type %s (want an integer, float, string, bool or date32)", ErrNotSupported, t)
}

// constColumn is n rows of the one value of one: plain (of one's type) or
// a dictionary of it.
func constColumn(one array.Array, n int, dict bool) (array.Array, error) {
	if !dict && one.IsValid(0) {
		switch one := one.(type) {
		case *array.Int64:
			return fill(one, n)
		case *array.Int32:
			return fill(one, n)
		case *array.Float64:
			return fill(one, n)
		case *array.Date32:
			return fill(one, n)
		case *array.Binary[int32]:
			b := array.NewBinaryBuilder[int32](one.DataType())
			b.Reserve(n)
			b.ReserveData(n * one.ValueLen(0))
			v := one.Value(0)
			for range n {
				b.Append(v)
			}
			return b.Finish(), nil
		}
	}
	idx := array.NewPrimitiveBuilder[int32](datatype.Int32)
	if one.IsNull(0) {
		idx.AppendNulls(n)
	} else {
		idx.AppendEmptyValues(n)
	}
	dt, err := datatype.NewDictionary(datatype.Int32, one.DataType(), false)
	if err != nil {
		return nil, err
	}
	d, err := array.NewDictionaryArray(dt, idx.Finish(), one)
	if err != nil || dict {
		return d, err
	}
	return compute.Cast(d, one.DataType())
}

// fill is n copies of the value of one: one buffer written once, the
// value then the bytes already written copied after themselves.
func fill[T array.FixedWidth](one *array.Primitive[T], n int) (array.Array, error) {
	w := datatype.ByteWidth(one.DataType())
	buf := rawmem.Fillable(n * w)
	if n > 0 {
		copy(buf, memory.BytesOf(one.Values()[:1]))
		for k := w; k < len(buf); k *= 2 {
			copy(buf[k:], buf[:k])
		}
	}
	return array.Make(array.NewData(one.DataType(), n, []*memory.Buffer{nil, memory.NewBuffer(buf)}, nil, 0, 0))
}

// formatValue is the text of row i of a partition column for a directory
// name; null reports a null.
func formatValue(a array.Array, i int) (text string, null bool, err error) {
	if a.IsNull(i) {
		return "", true, nil
	}
	switch a := a.(type) {
	case *array.Dictionary:
		return formatValue(a.Dictionary(), a.ValueIndex(i))
	case *array.Primitive[int8]:
		return strconv.FormatInt(int64(a.Value(i)), 10), false, nil
	case *array.Primitive[int16]:
		return strconv.FormatInt(int64(a.Value(i)), 10), false, nil
	case *array.Primitive[int32]:
		return strconv.FormatInt(int64(a.Value(i)), 10), false, nil
	case *array.Primitive[int64]:
		return strconv.FormatInt(a.Value(i), 10), false, nil
	case *array.Primitive[uint8]:
		return strconv.FormatUint(uint64(a.Value(i)), 10), false, nil
	case *array.Primitive[uint16]:
		return strconv.FormatUint(uint64(a.Value(i)), 10), false, nil
	case *array.Primitive[uint32]:
		return strconv.FormatUint(uint64(a.Value(i)), 10), false, nil
	case *array.Primitive[uint64]:
		return strconv.FormatUint(a.Value(i), 10), false, nil
	case *array.Primitive[float32]:
		return strconv.FormatFloat(float64(a.Value(i)), 'g', -1, 32), false, nil
	case *array.Primitive[float64]:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64), false, nil
	case *array.Primitive[datatype.Date32]:
		return time.Unix(int64(a.Value(i))*86400, 0).UTC().Format(dateLayout), false, nil
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i)), false, nil
	case *array.Binary[int32]:
		if a.DataType().Kind() == datatype.KindString {
			return a.ValueString(i), false, nil
		}
	case *array.Binary[int64]:
		if a.DataType().Kind() == datatype.KindLargeString {
			return a.ValueString(i), false, nil
		}
	}
	return "", false, fmt.Errorf("dataset: %w: partition column of type %s", ErrNotSupported, a.DataType())
}
