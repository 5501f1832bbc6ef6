package parquet

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// pagesAt is the page index of a chunk of n rows whose pages start at
// the rows starts (the first 0).
func pagesAt(starts []int64, n int64) *pageIndex {
	pi := &pageIndex{}
	for i, s := range starts {
		hi := n
		if i+1 < len(starts) {
			hi = starts[i+1]
		}
		pi.rows = append(pi.rows, rowRange{s, hi})
	}
	return pi
}

// coverByRounds is the smallest union of whole pages of every leaf
// holding sel, found by widening until nothing changes (the reference).
func coverByRounds(pis []*pageIndex, sel []rowRange) []rowRange {
	rows := sel
	for {
		var grown []rowRange
		for _, pi := range pis {
			_, kept := keptPages(pi, rows)
			grown = union(grown, kept)
		}
		if rowCount(grown) == rowCount(rows) {
			return grown
		}
		rows = grown
	}
}

// TestCoverRowsLinear: two leaves of 40,000 pages of two rows, one
// shifted by a row, share no page boundary but the first: selecting one
// row takes every page, in steps linear in the pages (widening page by
// page took a round per page, 17 s for such a file).
func TestCoverRowsLinear(t *testing.T) {
	const pages = 40000
	n := int64(2 * pages)
	var a, b []int64
	for i := range int64(pages) {
		a = append(a, 2*i)
		if i == 0 {
			b = append(b, 0)
		} else {
			b = append(b, 2*i-1)
		}
	}
	pis := []*pageIndex{pagesAt(a, n), pagesAt(b, n)}
	before := indexSteps.Load()
	got := coverRows(pis, []rowRange{{5, 6}})
	steps := indexSteps.Load() - before
	if want := []rowRange{{0, n}}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if steps > 8*pages {
		t.Errorf("%d steps for %d pages per leaf: not linear", steps, pages)
	}
}

// TestCoverRowsMatchesRounds compares coverRows with widening round by
// round on random pages and selections.
func TestCoverRowsMatchesRounds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		n := int64(1 + r.IntN(60))
		var pis []*pageIndex
		for range 1 + r.IntN(3) {
			starts := []int64{0}
			for s := int64(1); s < n; s++ {
				if r.IntN(3) == 0 {
					starts = append(starts, s)
				}
			}
			pis = append(pis, pagesAt(starts, n))
		}
		var sel []rowRange
		for lo := int64(0); lo < n; {
			hi := min(n, lo+1+int64(r.IntN(5)))
			if r.IntN(3) == 0 {
				sel = append(sel, rowRange{lo, hi})
			}
			lo = hi + int64(r.IntN(6))
		}
		if got, want := coverRows(pis, sel), coverByRounds(pis, sel); !slices.Equal(got, want) {
			t.Fatalf("pages %v, sel %v: got %v, want %v", pis, sel, got, want)
		}
	}
}

// union is the union of two sorted lists of disjoint ranges.
func union(a, b []rowRange) []rowRange {
	var out []rowRange
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i].lo <= b[j].lo) {
			out = appendRange(out, a[i])
			i++
		} else {
			out = appendRange(out, b[j])
			j++
		}
	}
	return out
}
