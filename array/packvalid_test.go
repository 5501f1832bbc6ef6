package array

import (
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
)

// TestPackValid checks the eight-at-a-time packing against bit-by-bit
// writing at every start offset within a byte and lengths around the word
// size, over a bitmap holding random bits: packValid writes every bit it
// covers, set or clear, and no other.
func TestPackValid(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for off := range 16 {
		for n := range 40 {
			valid := make([]bool, n)
			before := make([]byte, 8)
			for i := range before {
				before[i] = byte(r.Uint32())
			}
			want := append([]byte(nil), before...)
			wantNulls := 0
			for i := range valid {
				valid[i] = r.IntN(3) != 0
				bitutil.SetBitTo(want, off+i, valid[i])
				if !valid[i] {
					wantNulls++
				}
			}
			got := append([]byte(nil), before...)
			if nulls := packValid(got, off, valid); nulls != wantNulls || string(got) != string(want) {
				t.Fatalf("off %d n %d: %08b (%d nulls), want %08b (%d)", off, n, got, nulls, want, wantNulls)
			}
		}
	}
}

// TestAppendValuesNullsZeroed appends with nulls after single appends (so
// at unaligned lengths) and checks validity, null count and zeroed slots.
func TestAppendValuesNullsZeroed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := NewPrimitiveBuilder[int64](datatype.Int64)
	var wantValid []bool
	var wantVals []int64
	for round := range 50 {
		for range round % 5 {
			b.Append(7)
			wantValid, wantVals = append(wantValid, true), append(wantVals, 7)
		}
		if round%7 == 3 {
			b.AppendNull()
			wantValid, wantVals = append(wantValid, false), append(wantVals, 0)
		}
		n := r.IntN(30)
		vs, valid := make([]int64, n), make([]bool, n)
		for i := range vs {
			vs[i], valid[i] = r.Int64N(100)+1, r.IntN(4) != 0
			wantValid = append(wantValid, valid[i])
			if valid[i] {
				wantVals = append(wantVals, vs[i])
			} else {
				wantVals = append(wantVals, 0)
			}
		}
		b.AppendValues(vs, valid)
	}
	a := b.Finish()
	nulls := 0
	for i, ok := range wantValid {
		if !ok {
			nulls++
		}
		if a.IsValid(i) != ok || a.Value(i) != wantVals[i] {
			t.Fatalf("slot %d: valid %v value %d, want %v %d", i, a.IsValid(i), a.Value(i), ok, wantVals[i])
		}
	}
	if a.NullN() != nulls || a.Len() != len(wantValid) {
		t.Fatalf("len %d nulls %d, want %d %d", a.Len(), a.NullN(), len(wantValid), nulls)
	}
	if err := Validate(a.Data(), ValidateFull); err != nil {
		t.Fatal(err)
	}
}

func TestFillOnes(t *testing.T) {
	for n := range 300 {
		p := make([]byte, n+2)
		fillOnes(p[1 : n+1])
		for i, c := range p {
			want := byte(0xFF)
			if i == 0 || i == n+1 {
				want = 0
			}
			if c != want {
				t.Fatalf("n %d: byte %d is %#x", n, i, c)
			}
		}
	}
}
