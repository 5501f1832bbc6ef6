package grammar

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestFastFloat64: wherever the fast path answers, it answers what
// strconv.ParseFloat does, bit for bit.
func TestFastFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	inputs := []string{"0", "-0", "+0.0", "1.5", "-3.25", ".5", "5.", "123456789012345", "0.000000000000001",
		"999999999999999", "9007199254740993", "1e5", "1.2.3", "", "-", ".", "abc", "1,5"}
	for range 100000 {
		v := r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-8))
		inputs = append(inputs, strconv.FormatFloat(v, 'f', r.IntN(12), 64), strconv.FormatFloat(v, 'g', -1, 64))
	}
	hits := 0
	for _, in := range inputs {
		got, ok := fastFloat64([]byte(in))
		if !ok {
			continue
		}
		hits++
		want, err := strconv.ParseFloat(in, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%q: fast %v, strconv %v (%v)", in, got, want, err)
		}
	}
	if hits < len(inputs)/3 {
		t.Fatalf("the fast path answered only %d of %d", hits, len(inputs))
	}
}
