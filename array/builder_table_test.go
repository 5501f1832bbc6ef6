package array

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

// builderTestExt is an extension type over int32 for the builder tests.
type builderTestExt struct{}

func (builderTestExt) Kind() datatype.Kind                        { return datatype.KindExtension }
func (e builderTestExt) String() string                           { return datatype.ExtensionString(e) }
func (builderTestExt) ExtensionName() string                      { return "alkaid.test.builder" }
func (builderTestExt) StorageType() datatype.DataType             { return datatype.Int32 }
func (builderTestExt) Serialize() string                          { return "" }
func (builderTestExt) ExtensionEqual(datatype.ExtensionType) bool { return true }
func (e builderTestExt) Deserialize(datatype.DataType, string) (datatype.ExtensionType, error) {
	return e, nil
}

func mustOK[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// builderTypeTable has one entry per type of the spec's type table (and the
// variants of each): a JSON literal and how Format prints the array.
var builderTypeTable = []struct {
	t      datatype.DataType
	json   string
	format string
}{
	{datatype.Null, `[null, null]`, `[(null) (null)]`},
	{datatype.Bool, `[true, null, false]`, `[true (null) false]`},
	{datatype.Int8, `[-128, null, 127]`, `[-128 (null) 127]`},
	{datatype.Int16, `[-32768, 7]`, `[-32768 7]`},
	{datatype.Int32, `[1, null, "3"]`, `[1 (null) 3]`},
	{datatype.Int64, `[-9223372036854775808, 9223372036854775807]`, `[-9223372036854775808 9223372036854775807]`},
	{datatype.Uint8, `[255, 0]`, `[255 0]`},
	{datatype.Uint16, `[65535]`, `[65535]`},
	{datatype.Uint32, `[4294967295, null]`, `[4294967295 (null)]`},
	{datatype.Uint64, `[18446744073709551615]`, `[18446744073709551615]`},
	{datatype.Float16Type, `[1.5, null, -2]`, `[1.5 (null) -2]`},
	{datatype.Float32, `[1.5, "NaN", null, "-Inf"]`, `[1.5 NaN (null) -Inf]`},
	{datatype.Float64, `[0.1, 1e300, "Inf"]`, `[0.1 1e+300 +Inf]`},
	{mustOK(datatype.NewDecimal(32, 9, 2)), `["123.45", null, -1, "0.5"]`, `[123.45 (null) -1.00 0.50]`},
	{mustOK(datatype.NewDecimal(64, 18, 3)), `["-1.5", 2]`, `[-1.500 2.000]`},
	{mustOK(datatype.NewDecimal(128, 38, 2)), `["-12345678901234567890.12", null]`, `[-12345678901234567890.12 (null)]`},
	{mustOK(datatype.NewDecimal(256, 76, 0)), `["123456789012345678901234567890123456789012345678901234567890"]`, `[123456789012345678901234567890123456789012345678901234567890]`},
	{datatype.Date32Type, `[0, "2024-02-29", null]`, `[1970-01-01 2024-02-29 (null)]`},
	{datatype.Date64Type, `[86400000, "2000-01-01"]`, `[1970-01-02 2000-01-01]`},
	{mustOK(datatype.NewTime(datatype.Second)), `[3600, null]`, `[01:00:00 (null)]`},
	{mustOK(datatype.NewTime(datatype.Nanosecond)), `[1]`, `[00:00:00.000000001]`},
	{mustOK(datatype.NewTimestamp(datatype.Millisecond, "")), `[0, 1500, "2024-01-01T00:00:01Z"]`, `[1970-01-01T00:00:00 1970-01-01T00:00:01.5 2024-01-01T00:00:01]`},
	{mustOK(datatype.NewTimestamp(datatype.Second, "UTC")), `[86400, null]`, `[1970-01-02T00:00:00Z (null)]`},
	{datatype.MonthIntervalType, `[3, -1]`, `[{"months":3} {"months":-1}]`},
	{datatype.DayTimeIntervalType, `[[1, 2], {"days": 3}, null]`, `[{"days":1,"milliseconds":2} {"days":3,"milliseconds":0} (null)]`},
	{datatype.MonthDayNanoIntervalType, `[[1, 2, 3], {"nanoseconds": 9}]`, `[{"months":1,"days":2,"nanoseconds":3} {"months":0,"days":0,"nanoseconds":9}]`},
	{mustOK(datatype.NewDuration(datatype.Second)), `[5, null]`, `[5 (null)]`},
	{mustOK(datatype.NewFixedSizeBinary(3)), `["abc", null]`, `["abc" (null)]`},
	{datatype.Binary, `["a", null, ""]`, `["a" (null) ""]`},
	{datatype.String, `["héllo", null, ""]`, `["héllo" (null) ""]`},
	{datatype.LargeBinary, `["a", null]`, `["a" (null)]`},
	{datatype.LargeString, `["a", null]`, `["a" (null)]`},
	{datatype.BinaryView, `["short", "a value longer than twelve bytes", null]`, `["short" "a value longer than twelve bytes" (null)]`},
	{datatype.StringView, `["x", null, "another value longer than twelve"]`, `["x" (null) "another value longer than twelve"]`},
	{mustOK(datatype.FixedSizeListOf(datatype.Int32, 2)), `[[1, 2], null, [3, null]]`, `[[1 2] (null) [3 (null)]]`},
	{datatype.ListOf(datatype.Int32), `[[1, 2], null, []]`, `[[1 2] (null) []]`},
	{datatype.LargeListOf(datatype.String), `[["a"], null, [], [null]]`, `[["a"] (null) [] [(null)]]`},
	{datatype.ListViewOf(datatype.Int8), `[[1], null, [2, 3]]`, `[[1] (null) [2 3]]`},
	{datatype.LargeListViewOf(datatype.Int8), `[[], [4]]`, `[[] [4]]`},
	{datatype.ListOf(datatype.ListOf(datatype.Int16)), `[[[1], null], [[]]]`, `[[[1] (null)] [[]]]`},
	{
		datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int64, Nullable: true}, datatype.Field{Name: "b", Type: datatype.String, Nullable: true}),
		`[{"a": 1, "b": "x"}, null, {"b": "y"}, [3, null]]`,
		`[{a: 1, b: "x"} (null) {a: (null), b: "y"} {a: 3, b: (null)}]`,
	},
	{datatype.MapOf(datatype.String, datatype.Int32, false), `[[["k", 1], ["k2", 2]], null, {"z": 3, "a": null}, []]`, `[{"k": 1, "k2": 2} (null) {"z": 3, "a": (null)} {}]`},
	{
		mustOK(datatype.NewUnion(datatype.Sparse, []datatype.Field{{Name: "i", Type: datatype.Int32, Nullable: true}, {Name: "s", Type: datatype.String, Nullable: true}}, []int8{5, 7})),
		`[[5, 1], [7, "x"], null, [7, null]]`, `[1 "x" (null) (null)]`,
	},
	{
		mustOK(datatype.NewUnion(datatype.Dense, []datatype.Field{{Name: "i", Type: datatype.Int32, Nullable: true}, {Name: "l", Type: datatype.ListOf(datatype.Int8), Nullable: true}}, nil)),
		`[[1, [1, 2]], [0, 4], null]`, `[[1 2] 4 (null)]`,
	},
	{mustOK(datatype.NewDictionary(datatype.Int8, datatype.String, false)), `["a", "b", "a", null]`, `["a" "b" "a" (null)]`},
	{mustOK(datatype.NewDictionary(datatype.Uint16, datatype.Float64, false)), `[1.5, 1.5, "NaN", "NaN", null]`, `[1.5 1.5 NaN NaN (null)]`},
	{mustOK(datatype.NewDictionary(datatype.Int64, mustOK(datatype.NewFixedSizeBinary(2)), true)), `["ab", "ab"]`, `["ab" "ab"]`},
	{mustOK(datatype.NewRunEndEncoded(datatype.Int16, datatype.String)), `["a", "a", null, null, "b"]`, `["a" "a" (null) (null) "b"]`},
	{mustOK(datatype.NewRunEndEncoded(datatype.Int64, datatype.ListOf(datatype.Int32))), `[[1, 2], [1, 2], [1], null]`, `[[1 2] [1 2] [1] (null)]`},
	{builderTestExt{}, `[1, null]`, `[1 (null)]`},
}

// TestFromJSONEveryType parses the table's literals (through
// arrayjson.Parse, see literal_test.go) and checks the arrays.
func TestFromJSONEveryType(t *testing.T) {
	for _, tt := range builderTypeTable {
		t.Run(tt.t.String(), func(t *testing.T) {
			a, err := parseLiteral(tt.t, tt.json)
			require.NoError(t, err)
			require.True(t, datatype.Equal(tt.t, a.DataType()), "type %s", a.DataType())
			require.NoError(t, Validate(a.Data(), ValidateStructure))
			require.Equal(t, tt.format, Format(a))
		})
	}
}

// Timestamps print as dates, except seconds that no time.Time holds,
// which print as the count itself rather than a date wrapped around.
func TestFormatTimestampRange(t *testing.T) {
	ts, err := datatype.NewTimestamp(datatype.Second, "UTC")
	require.NoError(t, err)
	b := NewPrimitiveBuilder[datatype.Timestamp](ts)
	b.AppendValues([]datatype.Timestamp{86400, math.MaxInt64}, nil)
	require.Equal(t, "[1970-01-02T00:00:00Z 9223372036854775807]", b.Finish().String())
}
