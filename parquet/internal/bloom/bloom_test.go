package bloom

import (
	"encoding/binary"
	"fmt"
	"testing"
)

func TestHash(t *testing.T) {
	long := make([]byte, 100)
	for i := range long {
		long[i] = byte(i)
	}
	cases := []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"a", 0xd24ec4f1a98c6e5b},
		{"abc", 0x44bc2cf5ad770999},
	}
	for _, c := range cases {
		if got := Hash([]byte(c.in)); got != c.want {
			t.Errorf("Hash(%q) = %#x, want %#x", c.in, got, c.want)
		}
	}
	// Every length up to 100 hashes differently (all code paths).
	seen := map[uint64]int{}
	for n := range long {
		h := Hash(long[:n])
		if m, ok := seen[h]; ok {
			t.Fatalf("lengths %d and %d hash alike", m, n)
		}
		seen[h] = n
	}
}

func TestFilter(t *testing.T) {
	for _, ndv := range []int{1, 100, 10000} {
		f := New(Bytes(ndv, 0.01))
		for i := range ndv {
			f.Insert(Hash(binary.LittleEndian.AppendUint64(nil, uint64(i))))
		}
		for i := range ndv {
			if !f.Check(Hash(binary.LittleEndian.AppendUint64(nil, uint64(i)))) {
				t.Fatalf("ndv %d: value %d inserted but not found", ndv, i)
			}
		}
		fp := 0
		for i := ndv; i < ndv+10000; i++ {
			if f.Check(Hash(binary.LittleEndian.AppendUint64(nil, uint64(i)))) {
				fp++
			}
		}
		if fp > 300 {
			t.Errorf("ndv %d: %d false positives in 10000", ndv, fp)
		}
	}
	if !Filter(nil).Check(1) {
		t.Error("an empty filter must say yes")
	}
}

func ExampleFilter() {
	f := New(Bytes(2, 0.01))
	f.Insert(Hash([]byte("hello")))
	fmt.Println(f.Check(Hash([]byte("hello"))), len(f))
	// Output: true 32
}
