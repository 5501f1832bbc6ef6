package array

import (
	"math"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

func TestIndexRange(t *testing.T) {
	check := func(name string, got, want [2]int64) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: indexRange = %v, want %v", name, got, want)
		}
	}
	for _, n := range []int{1, 2, 15, 16, 17, 100, 1000} {
		i32, i64, i8, u16 := make([]int32, n), make([]int64, n), make([]int8, n), make([]uint16, n)
		for i := range n {
			v := int64((i*7919)%(n+3)) - int64(n/3)
			i32[i], i64[i], i8[i], u16[i] = int32(v), v<<33, int8(v), uint16(v+int64(n))
		}
		ref := func(v []int64) [2]int64 {
			lo, hi := v[0], v[0]
			for _, x := range v {
				lo, hi = min(lo, x), max(hi, x)
			}
			return [2]int64{lo, hi}
		}
		widen := func(f func(int) int64) []int64 {
			out := make([]int64, n)
			for i := range out {
				out[i] = f(i)
			}
			return out
		}
		lo, hi := indexRange(i32)
		check("int32", [2]int64{int64(lo), int64(hi)}, ref(widen(func(i int) int64 { return int64(i32[i]) })))
		lo64, hi64 := indexRange(i64)
		check("int64", [2]int64{lo64, hi64}, ref(i64))
		lo8, hi8 := indexRange(i8)
		check("int8", [2]int64{int64(lo8), int64(hi8)}, ref(widen(func(i int) int64 { return int64(i8[i]) })))
		lo16, hi16 := indexRange(u16)
		check("uint16", [2]int64{int64(lo16), int64(hi16)}, ref(widen(func(i int) int64 { return int64(u16[i]) })))
	}
}

// TestCheckRoom: the string builders say, instead of panicking, when a
// value would not fit their offsets or views.
func TestCheckRoom(t *testing.T) {
	b := NewBinaryBuilder[int32](datatype.String)
	if err := b.CheckRoom(1 << 30); err != nil {
		t.Fatalf("1 GiB into an empty builder: %v", err)
	}
	b.dlen = math.MaxInt32 - 10 // as if that much were appended
	if err := b.CheckRoom(10); err != nil {
		t.Fatalf("up to the limit: %v", err)
	}
	if err := b.CheckRoom(11); err == nil {
		t.Fatal("past the limit: no error")
	}
	large := NewBinaryBuilder[int64](datatype.LargeString)
	large.dlen = math.MaxInt32
	if err := large.CheckRoom(1 << 30); err != nil {
		t.Fatalf("large offsets: %v", err)
	}
	v := NewBinaryViewBuilder(datatype.StringView)
	if v.CheckRoom(math.MaxInt32) != nil || v.CheckRoom(math.MaxInt32+1) == nil {
		t.Fatal("view limit misplaced")
	}
}
