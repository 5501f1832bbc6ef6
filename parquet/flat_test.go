package parquet

import (
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/shred"
)

// TestFlatPathsMatchAssembly checks the direct builders of top-level
// leaves and lists against shred's general assembly, on random arrays of
// every nullability.
func TestFlatPathsMatchAssembly(t *testing.T) {
	g := randdata.New(3)
	for _, nullable := range []bool{false, true} {
		for _, elemNullable := range []bool{false, true} {
			for _, et := range []datatype.DataType{datatype.Int32, datatype.String, datatype.Bool, datatype.Float16Type} {
				cases := []datatype.Field{
					{Name: "x", Type: et, Nullable: nullable},
					{Name: "l", Type: datatype.ListOfField(datatype.Field{Name: "item", Type: et, Nullable: elemNullable}), Nullable: nullable},
				}
				for _, f := range cases {
					a := g.Array(f.Type, 300, f.Nullable)
					cols, err := shred.ShredField(f, a)
					if err != nil {
						t.Fatal(err)
					}
					want, err := shred.Assemble(f, cols)
					if err != nil {
						t.Fatal(err)
					}
					got, ok := flatLeaf(f, cols)
					if !ok {
						got, ok = flatList(f, cols)
					}
					if !ok {
						t.Fatalf("%s: no direct path", f)
					}
					if !array.Equal(got, want) || !array.Equal(got, a) {
						t.Fatalf("%s: direct path differs:\n got %s\nwant %s", f, array.Format(got), array.Format(want))
					}
				}
			}
		}
	}
}

// TestCountLevel checks the four-at-a-time level count against a plain
// count, for every length up to 40 and levels up to the largest.
func TestCountLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 40 {
		for _, max := range []int16{0, 1, 2, 3, 7, 255, 32767} {
			lv := make([]int16, n)
			want := 0
			for i := range lv {
				lv[i] = int16(r.IntN(int(max) + 1))
				if r.IntN(3) == 0 {
					lv[i] = max
				}
				if lv[i] == max {
					want++
				}
			}
			if got := countLevel(lv, max); got != want {
				t.Fatalf("n %d max %d: got %d, want %d", n, max, got, want)
			}
		}
	}
}
