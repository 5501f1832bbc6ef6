package objstore

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestCoalesce(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name string
		in   []span
		want []coalesced
	}{
		{"empty", nil, nil},
		{"one", []span{{10, 20}}, []coalesced{{span{10, 20}, 10}}},
		{"adjacent merge", []span{{0, 100}, {100, 200}}, []coalesced{{span{0, 200}, 200}}},
		{"unsorted overlapping", []span{{50, 150}, {0, 100}}, []coalesced{{span{0, 150}, 150}}},
		{"small gap within 10%", []span{{0, 1000}, {1050, 2000}}, []coalesced{{span{0, 2000}, 1950}}},
		{"gap over 10% of the bytes", []span{{0, 100}, {200, 300}}, []coalesced{{span{0, 100}, 100}, {span{200, 300}, 100}}},
		{"gap over 1 MiB", []span{{0, 100 * mib}, {101*mib + 1, 200 * mib}}, []coalesced{{span{0, 100 * mib}, 100 * mib}, {span{101*mib + 1, 200 * mib}, 99*mib - 1}}},
		{"empty ranges dropped", []span{{5, 5}, {7, 3}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := coalesce(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("coalesce(%v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

// Whatever the ranges, the merged ranges cover them all and fetch at
// most 1.1 times their bytes.
func TestCoalesceBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		var in []span
		off := int64(0)
		for range rng.IntN(20) + 1 {
			off += rng.Int64N(3 << 20)
			n := rng.Int64N(4<<20) + 1
			in = append(in, span{off, off + n})
			off += n
		}
		var asked, fetched int64
		for _, r := range in {
			asked += r.end - r.off
		}
		out := coalesce(in)
		for _, c := range out {
			fetched += c.end - c.off
		}
		if fetched*10 > asked*11 {
			t.Fatalf("fetched %d bytes for %d asked: %v -> %v", fetched, asked, in, out)
		}
		for _, r := range in {
			covered := false
			for _, c := range out {
				covered = covered || (c.off <= r.off && r.end <= c.end)
			}
			if !covered {
				t.Fatalf("range %v not covered by %v", r, out)
			}
		}
	}
}

func TestSubtract(t *testing.T) {
	tests := []struct {
		r     span
		cover []span
		want  []span
	}{
		{span{0, 100}, nil, []span{{0, 100}}},
		{span{0, 100}, []span{{0, 100}}, nil},
		{span{0, 100}, []span{{20, 30}}, []span{{0, 20}, {30, 100}}},
		{span{0, 100}, []span{{90, 200}, {-5, 10}}, []span{{10, 90}}},
		{span{0, 100}, []span{{100, 200}}, []span{{0, 100}}},
	}
	for _, tc := range tests {
		if got := subtract(tc.r, tc.cover); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("subtract(%v, %v) = %v, want %v", tc.r, tc.cover, got, tc.want)
		}
	}
}
