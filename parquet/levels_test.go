package parquet

import (
	"errors"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/parquet/internal/format"
)

// TestInconsistentListLevels: an entry that repeats a list the previous
// entry left null or empty cannot be placed; it is refused naming the
// column, never dropped.
func TestInconsistentListLevels(t *testing.T) {
	lt := datatype.ListOf(datatype.Int32) // levels: rep 1, def 3
	for _, tc := range []struct {
		name     string
		fld      datatype.Field
		rep, def []int32
		vals     []int32
		want     string // "" for an error
	}{
		{"valid", datatype.Field{Name: "l", Type: lt, Nullable: true}, []int32{0, 1, 0}, []int32{3, 3, 0}, []int32{1, 2}, "[[1 2] (null)]"},
		{"continues a null list", datatype.Field{Name: "l", Type: lt, Nullable: true}, []int32{0, 1, 0}, []int32{0, 3, 3}, []int32{1, 2}, ""},
		{"continues an empty list", datatype.Field{Name: "l", Type: lt, Nullable: true}, []int32{0, 1, 0}, []int32{1, 3, 3}, []int32{1, 2}, ""},
		{"repeats into a null list", datatype.Field{Name: "l", Type: lt, Nullable: true}, []int32{0, 1}, []int32{3, 0}, []int32{1}, ""},
		{"required list", datatype.Field{Name: "l", Type: lt}, []int32{0, 1, 0}, []int32{0, 2, 2}, []int32{1, 2}, ""},
		{"nested list", datatype.Field{Name: "l", Type: datatype.ListOf(lt), Nullable: true}, []int32{0, 2, 0}, []int32{3, 5, 5}, []int32{1, 2}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			maxRep, maxDef := int32(0), int32(0)
			for _, r := range tc.rep {
				maxRep = max(maxRep, r)
			}
			if strings.HasPrefix(tc.name, "nested") {
				maxRep, maxDef = 2, 5
			} else {
				maxRep, maxDef = 1, 3
				if !tc.fld.Nullable {
					maxDef = 2
				}
			}
			body := append(rlePrefixed(tc.rep, bitWidthOf(maxRep)), rlePrefixed(tc.def, bitWidthOf(maxDef))...)
			body = append(body, int32s(tc.vals...)...)
			var rows int64
			for _, r := range tc.rep {
				if r == 0 {
					rows++
				}
			}
			data := chunkFile(t, tc.fld, []int64{rows}, int64(len(tc.rep)), dataPageV1(len(tc.rep), format.Plain, body), false)
			f, err := NewFileBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := readAll(f)
			if tc.want != "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := array.Format(recs[0].Column(0)); got != tc.want {
					t.Fatalf("read %s, want %s", got, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `"l`) {
				var got string
				if err == nil {
					got = array.Format(recs[0].Column(0))
				}
				t.Fatalf("got %v (%s), want ErrInvalid naming the column", err, got)
			}
			if testing.Verbose() {
				t.Log(err)
			}
		})
	}
}

func bitWidthOf(max int32) int {
	w := 0
	for max > 0 {
		w++
		max >>= 1
	}
	return w
}
