package simd

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestConcat compares every level with the reference: values of every
// length up to and past the kernels' limits, empty and nil ones, with and
// without validity flags, into destinations that are exactly as long as
// needed or longer, at unaligned starts, guarded against writes past their
// end.
func TestConcat(t *testing.T) {
	testConcat[int32, string](t)
	testConcat[int64, string](t)
	testConcat[int32, []byte](t)
	testConcat[int64, []byte](t)
}

func testConcat[O ~int32 | ~int64, S ~string | ~[]byte](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	lengths := func(n, maxLen int) []int {
		ls := make([]int, n)
		for i := range ls {
			ls[i] = r.IntN(maxLen + 1)
		}
		return ls
	}
	cases := [][]int{nil, {0}, {1}, {2}, {3}, {0, 0, 0}}
	for l := range 300 {
		cases = append(cases, []int{l}, []int{l, 1, l})
	}
	for _, m := range []int{8, 40, 70, 300, 600} {
		for _, n := range []int{5, 31, 100, 1000} {
			cases = append(cases, lengths(n, m))
		}
	}
	cases = append(cases, lengths(concatChunk+77, 40))
	forEachVector(t, func(t *testing.T) {
		for ci, ls := range cases {
			vs := make([]S, len(ls))
			for i, l := range ls {
				if l > 0 || r.IntN(2) == 0 { // some empty values are nil
					vs[i] = S(randBytes(r, l))
				}
			}
			var valid []bool
			if ci%2 == 1 {
				valid = make([]bool, len(vs))
				for i := range valid {
					valid[i] = r.IntN(4) != 0
				}
			}
			for _, slack := range []int{0, 5, 64} {
				checkConcat(t, vs, valid, O(r.IntN(1000)), slack, ci%3)
			}
		}
	})
}

// checkConcat runs Concat into a destination with slack spare bytes, shift
// bytes into its allocation and guard bytes after it.
func checkConcat[O ~int32 | ~int64, S ~string | ~[]byte](t *testing.T, vs []S, valid []bool, base O, slack, shift int) {
	t.Helper()
	total := 0
	for i, v := range vs {
		if valid == nil || valid[i] {
			total += len(v)
		}
	}
	const guard = 40
	buf := make([]byte, shift+total+slack+guard)
	for i := range buf {
		buf[i] = 0xA5
	}
	dst := buf[shift : shift+total+slack : shift+total+slack]
	ends := make([]O, len(vs))
	want := make([]byte, total)
	wantEnds := make([]O, len(vs))
	wantN := concatGeneric(want, wantEnds, base, vs, valid)
	n := Concat(dst, ends, base, vs, valid)
	if n != wantN || !bytes.Equal(dst[:n], want) || !slices.Equal(ends, wantEnds) {
		t.Fatalf("%d values (level %s, slack %d, shift %d): got %d bytes, want %d; data equal %v, ends equal %v",
			len(vs), active.level, slack, shift, n, wantN, bytes.Equal(dst[:n], want), slices.Equal(ends, wantEnds))
	}
	for i, c := range buf[shift+total+slack:] {
		if c != 0xA5 {
			t.Fatalf("%d values (level %s): byte %d past dst written", len(vs), active.level, i)
		}
	}
	for i, c := range buf[:shift] {
		if c != 0xA5 {
			t.Fatalf("%d values (level %s): byte %d before dst written", len(vs), active.level, i)
		}
	}
}

func TestConcatPanicsOnShortInputs(t *testing.T) {
	mustPanic(t, map[string]func(){
		"ends":  func() { Concat(make([]byte, 8), make([]int32, 1), 0, []string{"a", "b"}, nil) },
		"valid": func() { Concat(make([]byte, 8), make([]int32, 2), 0, []string{"a", "b"}, []bool{true}) },
		"dst":   func() { Concat(make([]byte, 1), make([]int32, 2), 0, []string{"a", "b"}, nil) },
	})
}

func BenchmarkConcat(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 5))
	vs := make([]string, 1<<20)
	total := 0
	for i := range vs {
		vs[i] = string(randBytes(r, 8+r.IntN(25)))
		total += len(vs[i])
	}
	dst := make([]byte, total)
	ends := make([]int32, len(vs))
	for _, k := range levels {
		b.Run(k.level, func(b *testing.B) {
			withLevel(k, func() {
				b.SetBytes(int64(total))
				for range b.N {
					Concat(dst, ends, 0, vs, nil)
				}
			})
		})
	}
}
