package array_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/memory"
)

// same compares exactly, NaNs equal (random floats may be NaN).
func same(a, b array.Array) bool {
	return array.ApproxEqual(a, b, array.AbsTolerance(0), array.NaNEqual())
}

// TestRandomArrays checks, for random arrays of every type, that they are
// fully valid, that their slices are, and that cutting into pieces and
// concatenating gives back equal arrays; and that concatenating two
// different arrays (different dictionaries) keeps both halves.
func TestRandomArrays(t *testing.T) {
	s := randdata.AllTypes()
	r := rand.New(rand.NewPCG(1, 2))
	for i := range s.NumFields() {
		f := s.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			for seed, n := range []int{0, 1, 9, 70, 300} {
				g := randdata.New(uint64(seed*100 + i))
				a := g.Array(f.Type, n, true)
				b := g.Array(f.Type, n/2+1, true)
				require.NoError(t, array.Validate(a.Data(), array.ValidateFull))
				require.True(t, same(a, a))

				lo := r.IntN(n + 1)
				hi := lo + r.IntN(n-lo+1)
				sl := array.Slice(a, lo, hi)
				require.NoError(t, array.Validate(sl.Data(), array.ValidateFull), "slice [%d:%d]", lo, hi)

				cuts := []int{0, r.IntN(n + 1), r.IntN(n + 1), n}
				if cuts[1] > cuts[2] {
					cuts[1], cuts[2] = cuts[2], cuts[1]
				}
				c, err := array.Concatenate(array.Slice(a, cuts[0], cuts[1]), array.Slice(a, cuts[1], cuts[2]), array.Slice(a, cuts[2], cuts[3]))
				require.NoError(t, err)
				require.NoError(t, array.Validate(c.Data(), array.ValidateFull))
				if !same(a, c) {
					k, desc, _ := array.FirstDifference(a, c)
					t.Fatalf("%d rows cut at %v: differs at %d: %s", n, cuts, k, desc)
				}

				ab, err := array.Concatenate(sl, b)
				require.NoError(t, err)
				require.NoError(t, array.Validate(ab.Data(), array.ValidateFull))
				require.True(t, same(sl, array.Slice(ab, 0, sl.Len())))
				require.True(t, same(b, array.Slice(ab, sl.Len(), ab.Len())))
			}
		})
	}
}

// dataBytes is the number of buffer bytes d's slots use, children and
// dictionary included.
func dataBytes(d *array.Data) int64 {
	var n int64
	for _, b := range d.Buffers {
		n += int64(b.Len())
	}
	for _, c := range d.Children {
		n += dataBytes(c)
	}
	if d.Dictionary != nil {
		n += dataBytes(d.Dictionary)
	}
	return n
}

// BenchmarkValidateFull measures full validation of 1M-row arrays with
// 10% nulls:
//
//	go test -run XXX -bench ValidateFull -benchtime 2s ./array/
func BenchmarkValidateFull(b *testing.B) {
	const rows = 1 << 20
	for _, tc := range []struct {
		name string
		t    datatype.DataType
	}{
		{"int64", datatype.Int64},
		{"utf8", datatype.String}, // random words, about one in seven characters not ASCII
		{"utf8 ascii", datatype.String},
		{"list<int32>", datatype.ListOf(datatype.Int32)},
	} {
		g := randdata.New(7)
		g.MaxListLen = 8
		d := g.Array(tc.t, rows, true).Data()
		if tc.name == "utf8 ascii" {
			d = asciiStrings(d)
		}
		for _, v := range []struct {
			name  string
			level array.ValidationLevel
		}{{"Safe", array.ValidateSafe}, {"Full", array.ValidateFull}} {
			b.Run(fmt.Sprintf("%s/%s", tc.name, v.name), func(b *testing.B) {
				b.SetBytes(dataBytes(d))
				for b.Loop() {
					if err := array.Validate(d, v.level); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// asciiStrings returns d (utf8) with every non-ASCII byte replaced.
func asciiStrings(d *array.Data) *array.Data {
	out := *d
	data := append([]byte(nil), d.Buffers[2].Bytes()...)
	for i, c := range data {
		if c >= 0x80 {
			data[i] = 'x'
		}
	}
	out.Buffers = []*memory.Buffer{d.Buffers[0], d.Buffers[1], memory.NewBuffer(data)}
	return &out
}
