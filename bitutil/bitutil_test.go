package bitutil

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// Naive bit-by-bit references.

func refGet(b []byte, i int) bool { return b[i/8]&(1<<(i%8)) != 0 }

func refSet(b []byte, i int, v bool) {
	if v {
		b[i/8] |= 1 << (i % 8)
	} else {
		b[i/8] &^= 1 << (i % 8)
	}
}

func randBits(r *rand.Rand, nbytes int) []byte {
	b := make([]byte, nbytes)
	for i := range b {
		switch r.IntN(8) {
		case 0:
			b[i] = 0
		case 1:
			b[i] = 0xff
		default:
			b[i] = byte(r.Uint32())
		}
	}
	return b
}

var binOps = []struct {
	name string
	fn   func(dst []byte, dOff int, a []byte, aOff int, b []byte, bOff int, n int)
	f    func(x, y bool) bool
}{
	{"And", And, func(x, y bool) bool { return x && y }},
	{"Or", Or, func(x, y bool) bool { return x || y }},
	{"Xor", Xor, func(x, y bool) bool { return x != y }},
	{"AndNot", AndNot, func(x, y bool) bool { return x && !y }},
}

func checkBinary(t *testing.T, r *rand.Rand, dOff, aOff, bOff, n int) {
	t.Helper()
	a := randBits(r, BytesForBits(aOff+n)+r.IntN(3))
	b := randBits(r, BytesForBits(bOff+n)+r.IntN(3))
	dst0 := randBits(r, BytesForBits(dOff+n)+r.IntN(3))
	for _, o := range binOps {
		want := slices.Clone(dst0)
		for i := range n {
			refSet(want, dOff+i, o.f(refGet(a, aOff+i), refGet(b, bOff+i)))
		}
		got := slices.Clone(dst0)
		o.fn(got, dOff, a, aOff, b, bOff, n)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s(dOff=%d, aOff=%d, bOff=%d, n=%d) mismatch", o.name, dOff, aOff, bOff, n)
		}
	}
	// Unary operations reuse a as the source.
	wantC, wantN := slices.Clone(dst0), slices.Clone(dst0)
	for i := range n {
		refSet(wantC, dOff+i, refGet(a, aOff+i))
		refSet(wantN, dOff+i, !refGet(a, aOff+i))
	}
	gotC, gotN := slices.Clone(dst0), slices.Clone(dst0)
	CopyBits(gotC, dOff, a, aOff, n)
	Not(gotN, dOff, a, aOff, n)
	if !bytes.Equal(gotC, wantC) || !bytes.Equal(gotN, wantN) {
		t.Fatalf("CopyBits/Not(dOff=%d, srcOff=%d, n=%d) mismatch", dOff, aOff, n)
	}
}

func TestLogicEveryOffset(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for dOff := range 18 {
		for aOff := range 18 {
			for bOff := range 18 {
				checkBinary(t, r, dOff, aOff, bOff, r.IntN(301))
			}
		}
	}
}

func TestLogicEveryLength(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 301 {
		for range 4 {
			checkBinary(t, r, r.IntN(18), r.IntN(18), r.IntN(18), n)
		}
		checkBinary(t, r, 0, 0, 0, n)
	}
}

func TestLogicLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1023, 1024, 1500, 8 * 130, 16384 + 77, 3*16384 + 5, 100_003} {
		for _, offs := range [][3]int{{0, 0, 0}, {0, 3, 0}, {5, 5, 5}, {3, 0, 7}, {1, 2, 3}, {8, 16, 17}} {
			checkBinary(t, r, offs[0], offs[1], offs[2], n)
		}
	}
}

func TestLogicInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 5, 100, 3000, 40000} {
		a := randBits(r, BytesForBits(n+3))
		b := randBits(r, BytesForBits(n+6))
		want := slices.Clone(a)
		for i := range n {
			refSet(want, 3+i, refGet(a, 3+i) && refGet(b, 6+i))
		}
		And(a, 3, a, 3, b, 6, n)
		if !bytes.Equal(a, want) {
			t.Fatalf("in-place And n=%d mismatch", n)
		}
	}
}

func TestAlloc(t *testing.T) {
	a := []byte{0b1011_0110, 0xff}
	b := []byte{0b0110_1100, 0x0f}
	if got := AndAlloc(a, 1, b, 2, 9); !bytes.Equal(got, []byte{0b1101_1011, 1}) {
		t.Errorf("AndAlloc = %08b", got)
	}
	if got := OrAlloc(a, 0, b, 0, 4); !bytes.Equal(got, []byte{0b1110}) {
		t.Errorf("OrAlloc = %08b", got)
	}
	if got := XorAlloc(a, 0, b, 0, 8); !bytes.Equal(got, []byte{0b1101_1010}) {
		t.Errorf("XorAlloc = %08b", got)
	}
	if got := AndNotAlloc(a, 0, b, 0, 8); !bytes.Equal(got, []byte{0b1001_0010}) {
		t.Errorf("AndNotAlloc = %08b", got)
	}
	if got := NotAlloc(a, 4, 6); !bytes.Equal(got, []byte{0b0000_0100}) {
		t.Errorf("NotAlloc = %08b", got)
	}
}

func TestCountAllNoneSetBits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	lengths := []int{5000, 70000}
	for n := range 301 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for off := range 18 {
			b := randBits(r, BytesForBits(off+n)+r.IntN(2))
			want := 0
			for i := range n {
				if refGet(b, off+i) {
					want++
				}
			}
			if got := CountSetBits(b, off, n); got != want {
				t.Fatalf("CountSetBits(off=%d, n=%d) = %d, want %d", off, n, got, want)
			}
			if got := AllSet(b, off, n); got != (want == n) {
				t.Fatalf("AllSet(off=%d, n=%d) = %v", off, n, got)
			}
			if got := NoneSet(b, off, n); got != (want == 0) {
				t.Fatalf("NoneSet(off=%d, n=%d) = %v", off, n, got)
			}
			// Uniform ranges with one bit flipped exercise the early exits.
			for _, v := range []bool{false, true} {
				SetBitsTo(b, off, n, v)
				if AllSet(b, off, n) != (v || n == 0) || NoneSet(b, off, n) != (!v || n == 0) {
					t.Fatalf("uniform %v off=%d n=%d", v, off, n)
				}
				if n > 0 {
					i := r.IntN(n)
					SetBitTo(b, off+i, !v)
					c := CountSetBits(b, off, n)
					if AllSet(b, off, n) != (c == n) || NoneSet(b, off, n) != (c == 0) {
						t.Fatalf("flipped %v off=%d n=%d i=%d", v, off, n, i)
					}
					if CountSetBits(b, off, n) != map[bool]int{true: n - 1, false: 1}[v] {
						t.Fatalf("flipped count %v off=%d n=%d i=%d", v, off, n, i)
					}
				}
			}
		}
	}
}

func TestSetBitsTo(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := range 200 {
		for off := range 18 {
			for _, v := range []bool{false, true} {
				b := randBits(r, BytesForBits(off+n)+2)
				want := slices.Clone(b)
				for i := range n {
					refSet(want, off+i, v)
				}
				SetBitsTo(b, off, n, v)
				if !bytes.Equal(b, want) {
					t.Fatalf("SetBitsTo(off=%d, n=%d, %v) mismatch", off, n, v)
				}
			}
		}
	}
}

func TestSingleBits(t *testing.T) {
	b := make([]byte, 3)
	SetBit(b, 0)
	SetBit(b, 9)
	SetBitTo(b, 23, true)
	SetBitTo(b, 9, false)
	ClearBit(b, 0)
	SetBit(b, 12)
	if !bytes.Equal(b, []byte{0, 0x10, 0x80}) || !GetBit(b, 12) || GetBit(b, 11) {
		t.Fatalf("bits = %08b", b)
	}
	if BytesForBits(0) != 0 || BytesForBits(1) != 1 || BytesForBits(8) != 1 || BytesForBits(9) != 2 {
		t.Fatal("BytesForBits")
	}
}

func TestIterators(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	lengths := []int{1000, 4096 + 3}
	for n := range 301 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for off := range 18 {
			b := randBits(r, BytesForBits(off+n))
			var want []int
			var wantRuns []Run
			for i := range n {
				v := refGet(b, off+i)
				if v {
					want = append(want, i)
				}
				if k := len(wantRuns) - 1; k >= 0 && wantRuns[k].Set == v {
					wantRuns[k].Len++
				} else {
					wantRuns = append(wantRuns, Run{Start: i, Len: 1, Set: v})
				}
			}
			if got := slices.Collect(SetIndices(b, off, n)); !slices.Equal(got, want) {
				t.Fatalf("SetIndices(off=%d, n=%d) = %v, want %v", off, n, got, want)
			}
			if got := slices.Collect(Runs(b, off, n)); !slices.Equal(got, wantRuns) {
				t.Fatalf("Runs(off=%d, n=%d) = %v, want %v", off, n, got, wantRuns)
			}
		}
	}
	// Early stop.
	for i := range SetIndices([]byte{0xff}, 0, 8) {
		if i > 0 {
			t.Fatal("iteration continued after break")
		}
		break
	}
	for range Runs([]byte{0x0f}, 0, 8) {
		break
	}
}

func TestPanics(t *testing.T) {
	cases := map[string]func(){
		"count":   func() { CountSetBits(make([]byte, 1), 1, 8) },
		"negoff":  func() { AllSet(make([]byte, 1), -1, 1) },
		"neglen":  func() { NoneSet(make([]byte, 1), 0, -1) },
		"and dst": func() { And(make([]byte, 1), 0, make([]byte, 2), 0, make([]byte, 2), 0, 9) },
		"copy":    func() { CopyBits(make([]byte, 2), 0, make([]byte, 1), 3, 6) },
		"runs":    func() { Runs(nil, 0, 1) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

func ExampleRuns() {
	valid := []byte{0b1110_0011, 0b0000_0001}
	for r := range Runs(valid, 1, 10) {
		fmt.Println(r.Start, r.Len, r.Set)
	}
	fmt.Println(CountSetBits(valid, 1, 10), slices.Collect(SetIndices(valid, 1, 10)))
	// Output:
	// 0 1 true
	// 1 3 false
	// 4 4 true
	// 8 2 false
	// 5 [0 4 5 6 7]
}

// TestBinaryOpsInPlace checks the documented aliasing: the output may be
// an input at that input's own offset, with the other input misaligned.
func TestBinaryOpsInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{64, 1000, 8 * 300, 8*4096*2 + 13} {
		for _, off := range []int{1, 3, 7} {
			a := make([]byte, n/8+2)
			b := make([]byte, n/8+2)
			for i := range a {
				a[i], b[i] = byte(r.Uint32()), byte(r.Uint32())
			}
			want := make([]byte, n/8+1)
			And(want, 0, a, off, b, 0, n)
			x := append([]byte(nil), b...)
			And(x, 0, a, off, x, 0, n) // dst is b
			for i := range n {
				if GetBit(x, i) != GetBit(want, i) {
					t.Fatalf("n=%d off=%d: dst aliasing b differs at bit %d", n, off, i)
				}
			}
			want2 := make([]byte, n/8+1)
			AndNot(want2, 0, b, 0, a, off, n)
			y := append([]byte(nil), b...)
			AndNot(y, 0, y, 0, a, off, n) // dst is the first input
			for i := range n {
				if GetBit(y, i) != GetBit(want2, i) {
					t.Fatalf("n=%d off=%d: dst aliasing a differs at bit %d", n, off, i)
				}
			}
		}
	}
}
