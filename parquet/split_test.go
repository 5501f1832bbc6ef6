package parquet

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// byteArrayBytes is the bytes of the values of a string or list of
// strings array.
func byteArrayBytes(a array.Array) int {
	if l, ok := a.(*array.List[int32]); ok {
		a = l.ListValues()
	}
	b := a.(*array.Binary[int32])
	n := 0
	for i := range b.Len() {
		n += b.ValueLen(i)
	}
	return n
}

// TestBatchSplitAtByteArrayLimit lowers the bytes a batch's column of
// byte arrays may hold (int32 offsets, in earnest) below what a column
// chunk holds: the chunk reads split across batches, every value equal,
// no batch beyond the limit, with every encoding of byte arrays.
func TestBatchSplitAtByteArrayLimit(t *testing.T) {
	const n, limit = 1500, 2000
	var ss, ls, is []string
	for i := range n {
		if i%13 == 5 {
			ss = append(ss, "null")
		} else {
			ss = append(ss, fmt.Sprintf("%q", fmt.Sprintf("v%d-%s", i/3, strings.Repeat("x", i%37))))
		}
		ls = append(ls, fmt.Sprintf(`["a%d", null, "%s"]`, i%5, strings.Repeat("y", i%29)))
		is = append(is, fmt.Sprint(i))
	}
	lt := datatype.ListOf(datatype.String)
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "s", Type: datatype.String, Nullable: true},
		{Name: "l", Type: lt, Nullable: true},
		{Name: "i", Type: datatype.Int64},
	}, datatype.Metadata{})
	cols := []array.Array{
		arrayjson.MustParse(datatype.String, "["+strings.Join(ss, ",")+"]"),
		arrayjson.MustParse(lt, "["+strings.Join(ls, ",")+"]"),
		arrayjson.MustParse(datatype.Int64, "["+strings.Join(is, ",")+"]"),
	}
	rec, err := alkaid.NewRecord(s, cols, n)
	if err != nil {
		t.Fatal(err)
	}
	saved := maxBatchBytes
	defer func() { maxBatchBytes = saved }()
	for name, opts := range map[string][]Option{
		"plain":        {WithDictionary(false, 0), WithPageSize(700)},
		"plain v2":     {WithDictionary(false, 0), WithPageSize(5000), WithDataPageV2()},
		"dictionary":   {WithPageSize(300)},
		"one page":     {WithDictionary(false, 0), WithPageSize(1 << 20)},
		"delta":        {WithDictionary(false, 0), WithPageSize(900), WithColumnEncoding("s", DeltaByteArray), WithColumnEncoding("l.list.element", DeltaByteArray)},
		"delta length": {WithDictionary(false, 0), WithPageSize(900), WithColumnEncoding("s", DeltaLengthByteArray)},
	} {
		t.Run(name, func(t *testing.T) {
			maxBatchBytes = saved
			data := writeFile(t, []*alkaid.Record{rec}, append(opts, WithRowGroupRows(1000))...)
			maxBatchBytes = limit
			for _, batch := range []int{65536, 100} {
				_, got := readFile(t, data, WithBatchSize(batch))
				if batch > n && len(got) < 2*2 {
					t.Errorf("batch %d: %d records: the chunks were not split", batch, len(got))
				}
				for k, r := range got {
					for c := range 2 {
						if b := byteArrayBytes(r.Column(c)); b > limit {
							t.Fatalf("batch %d: record %d column %d holds %d bytes, limit %d", batch, k, c, b, limit)
						}
					}
				}
				sameRows(t, []*alkaid.Record{rec}, got)
			}
		})
	}
}

// TestBatchRowBeyondByteArrayLimit: a row whose byte arrays alone exceed
// the limit is refused with ErrLimit.
func TestBatchRowBeyondByteArrayLimit(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "s", Type: datatype.String}}, datatype.Metadata{})
	col := arrayjson.MustParse(datatype.String, fmt.Sprintf(`["a", %q, "b"]`, strings.Repeat("z", 500)))
	rec, err := alkaid.NewRecord(s, []array.Array{col}, 3)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, []*alkaid.Record{rec}, WithDictionary(false, 0))
	saved := maxBatchBytes
	defer func() { maxBatchBytes = saved }()
	maxBatchBytes = 100
	f, err := NewFileBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(f)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v, want ErrLimit", err)
	}
}
