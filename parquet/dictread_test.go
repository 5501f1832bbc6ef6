package parquet

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// TestDictionaryColumnKeepsIndices: a top-level dictionary<int32, utf8>
// column comes back as a dictionary array built from the Parquet
// dictionary and indices, with its nulls, also when the writer fell
// back to PLAIN in the middle of a chunk.
func TestDictionaryColumnKeepsIndices(t *testing.T) {
	dt, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	if err != nil {
		t.Fatal(err)
	}
	s := alkaid.NewSchema([]datatype.Field{{Name: "d", Type: dt, Nullable: true}}, datatype.Metadata{})
	tests := []struct {
		name     string
		distinct int
		limit    int // dictionary size limit of the writer
	}{
		{"dictionary", 20, 0},
		{"fallback", 3000, 4096},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := array.NewBuilder(dt).(*array.DictionaryBuilder[string])
			for i := range 5000 {
				if i%7 == 3 {
					b.AppendNull()
					continue
				}
				if err := b.Append(fmt.Sprintf("value-%d", (i*31)%tc.distinct)); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := alkaid.NewRecord(s, []array.Array{b.NewArray()}, 5000)
			if err != nil {
				t.Fatal(err)
			}
			data := writeFile(t, []*alkaid.Record{rec}, WithDictionary(true, tc.limit), WithPageSize(1024))
			f, got := readFile(t, data)
			if plain := plainDataPages(t, f, data); plain != (tc.limit > 0) {
				t.Errorf("PLAIN pages written: %v, want %v", plain, tc.limit > 0)
			}
			if _, ok := got[0].Column(0).(*array.Dictionary); !ok {
				t.Fatalf("read a %T, want *array.Dictionary", got[0].Column(0))
			}
			if n := got[0].Column(0).Data().NullCount; n != rec.Column(0).Data().NullCount {
				t.Errorf("%d nulls, want %d", n, rec.Column(0).Data().NullCount)
			}
			sameRows(t, []*alkaid.Record{rec}, got)
		})
	}
}

// plainDataPages reports whether a chunk of the first column has a PLAIN
// data page.
func plainDataPages(t *testing.T, f *File, data []byte) bool {
	t.Helper()
	encs, _ := chunkPageEncodings(t, f, data, 0)
	for _, e := range encs {
		if slices.Contains(e, format.Plain) {
			return true
		}
	}
	return false
}

// TestWithDictionaryArrays: string columns come back as dictionary
// arrays when asked, equal in values to the plain read, whether the
// writer kept its dictionary or fell back to PLAIN.
func TestWithDictionaryArrays(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "s", Type: datatype.String, Nullable: true},
		{Name: "n", Type: datatype.Int64, Nullable: true},
	}, datatype.Metadata{})
	for _, limit := range []int{0, 512} {
		t.Run(fmt.Sprint("limit=", limit), func(t *testing.T) {
			sb := array.NewBuilder(datatype.String).(*array.BinaryBuilder[int32])
			nb := array.NewPrimitiveBuilder[int64](datatype.Int64)
			for i := range 3000 {
				if i%11 == 4 {
					sb.AppendNull()
				} else {
					sb.Append([]byte(fmt.Sprintf("v%d", (i*17)%300)))
				}
				nb.Append(int64(i))
			}
			rec, err := alkaid.NewRecord(s, []array.Array{sb.NewArray(), nb.NewArray()}, 3000)
			if err != nil {
				t.Fatal(err)
			}
			data := writeFile(t, []*alkaid.Record{rec}, WithDictionary(true, limit), WithRowGroupRows(1000), WithPageSize(256))
			_, plain := readFile(t, data)
			_, dict := readFile(t, data, WithDictionaryArrays())
			for i, r := range dict {
				d, ok := r.Column(0).(*array.Dictionary)
				if !ok {
					t.Fatalf("record %d: column of %T, want *array.Dictionary", i, r.Column(0))
				}
				want := plain[i].Column(0)
				for k := range want.Len() {
					if want.IsNull(k) != d.IsNull(k) || (!want.IsNull(k) && array.FormatValue(want, k) != array.FormatValue(d, k)) {
						t.Fatalf("record %d slot %d: %s, want %s", i, k, array.FormatValue(d, k), array.FormatValue(want, k))
					}
				}
				if !array.Equal(plain[i].Column(1), r.Column(1)) {
					t.Errorf("record %d: the int64 column differs", i)
				}
			}
		})
	}
}

// TestDictionaryIndexOutOfRange: a dictionary index past the dictionary
// is ErrInvalid naming it, whether the values are gathered (4- and 8-byte
// values check as they gather) or the indices kept.
func TestDictionaryIndexOutOfRange(t *testing.T) {
	// Bit width 3, then an RLE run of 4 values of 5.
	page := []byte{3, 4 << 1, 5}
	for _, tc := range []struct {
		name    string
		width   int
		keepIdx bool
	}{{"int64", 8, false}, {"int32", 4, false}, {"fixed 12", 12, false}, {"indices kept", 8, true}} {
		t.Run(tc.name, func(t *testing.T) {
			cr := &columnReader{limits: DefaultLimits, dict: &values{width: tc.width, fixed: make([]byte, 2*tc.width), n: 2}}
			dst := &values{width: tc.width, keepIdx: tc.keepIdx}
			err := cr.decodeDictIndices(page, 4, dst)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "dictionary index 5 at value 0 out of range [0, 2)") {
				t.Fatalf("%v, want ErrInvalid naming index 5", err)
			}
		})
	}
}
