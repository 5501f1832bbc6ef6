package objstore

import (
	"slices"
)

// Coalescing: ranges at most coalesceGap apart are merged while the
// bytes fetched stay within 1+1/wasteDenominator of the bytes asked for
// and the merged range within maxBlock.
const (
	coalesceGap      = 1 << 20
	wasteDenominator = 10
	maxBlock         = 64 << 20
)

// span is the byte range [off, end) of an object.
type span struct{ off, end int64 }

// coalesced is a range to fetch and the bytes of it asked for.
type coalesced struct {
	span
	useful int64
}

// coalesce sorts and merges ranges (which do not overlap once
// subtracted) into the ranges to fetch.
func coalesce(rs []span) []coalesced {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b span) int { return int(min(max(a.off-b.off, -1), 1)) })
	var out []coalesced
	for _, r := range rs {
		if r.end <= r.off {
			continue
		}
		if n := len(out); n > 0 {
			c := &out[n-1]
			if r.off < c.end { // overlapping: the union
				if r.end > c.end {
					c.useful += r.end - c.end
					c.end = r.end
				}
				continue
			}
			gap := r.off - c.end
			fetched := r.end - c.off
			useful := c.useful + r.end - r.off
			if gap <= coalesceGap && fetched <= maxBlock && (fetched-useful)*wasteDenominator <= useful {
				c.end, c.useful = r.end, useful
				continue
			}
		}
		out = append(out, coalesced{span: r, useful: r.end - r.off})
	}
	return out
}

// subtract removes from r the parts covered by the spans of cover.
func subtract(r span, cover []span) []span {
	out := []span{r}
	for _, c := range cover {
		var next []span
		for _, s := range out {
			if c.end <= s.off || c.off >= s.end {
				next = append(next, s)
				continue
			}
			if s.off < c.off {
				next = append(next, span{s.off, c.off})
			}
			if c.end < s.end {
				next = append(next, span{c.end, s.end})
			}
		}
		out = next
	}
	return out
}
