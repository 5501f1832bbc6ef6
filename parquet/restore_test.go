package parquet

import (
	"encoding/binary"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestRestoreOtherWritersLayouts: stored types come back from the layouts
// other writers give them: arrow-rs's plain INT64 milliseconds for date64
// and INT32 seconds for time32[s], and Parquet's INTERVAL (months, days,
// milliseconds) for month and day-time intervals; Alkaid's own layouts
// (date32 days, time32 milliseconds) are scaled.
func TestRestoreOtherWritersLayouts(t *testing.T) {
	fsb12, _ := datatype.NewFixedSizeBinary(12)
	// Three INTERVAL values: (1 month, 2 days, 3 ms), (-1, 0, 1000),
	// (0, 40, 86399999), as little-endian 32-bit integers.
	b := array.NewBuilder(fsb12)
	for _, v := range [][3]uint32{{1, 2, 3}, {0xffffffff, 0, 1000}, {0, 40, 86399999}} {
		b.(interface{ Append([]byte) }).Append(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(
			binary.LittleEndian.AppendUint32(nil, v[0]), v[1]), v[2]))
	}
	iv := b.NewArray()
	time32s, _ := datatype.NewTime(datatype.Second)
	time32ms, _ := datatype.NewTime(datatype.Millisecond)
	tests := []struct {
		stored datatype.DataType
		read   array.Array
		want   string
	}{
		{datatype.Date64Type, arrayjson.MustParse(datatype.Int64, `[86400000, 0]`), `[86400000, 0]`},
		{datatype.Date64Type, arrayjson.MustParse(datatype.Date32Type, `[1, 0]`), `[86400000, 0]`},
		{time32s, arrayjson.MustParse(datatype.Int32, `[59, 3600]`), `[59, 3600]`},
		{time32s, arrayjson.MustParse(time32ms, `[59000, 3600000]`), `[59, 3600]`},
		{datatype.MonthIntervalType, iv, `[1, -1, 0]`},
		{datatype.DayTimeIntervalType, iv, `[{"days": 2, "milliseconds": 3}, {"days": 0, "milliseconds": 1000}, {"days": 40, "milliseconds": 86399999}]`},
	}
	for _, tc := range tests {
		if !restorable(tc.stored, tc.read.DataType()) {
			t.Errorf("%s over %s: not restorable", tc.stored, tc.read.DataType())
			continue
		}
		got, err := convertLeaf(tc.read, tc.stored)
		if err != nil {
			t.Fatalf("%s over %s: %v", tc.stored, tc.read.DataType(), err)
		}
		want := arrayjson.MustParse(tc.stored, tc.want)
		if !array.Equal(got, want) {
			t.Errorf("%s over %s: got %s, want %s", tc.stored, tc.read.DataType(), array.Format(got), array.Format(want))
		}
	}
	if restorable(datatype.MonthIntervalType, datatype.Float64) || restorable(datatype.Date64Type, datatype.Float64) {
		t.Error("restorable over float64")
	}
}
