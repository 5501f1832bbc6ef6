package cli

import (
	"fmt"
	"time"
)

// withTotal makes the progress line show the percent done and the time
// left, the bytes passed to update being a part of total (0: unknown).
func (p *progress) withTotal(total int64) *progress {
	p.total = total
	return p
}

// totalSuffix is ", 42%, 1m05s left" when the total is known.
func (p *progress) totalSuffix(bytes int64, now time.Time) string {
	if p.total <= 0 || bytes <= 0 {
		return ""
	}
	frac := min(float64(bytes)/float64(p.total), 1)
	left := time.Duration(float64(now.Sub(p.start)) * (1 - frac) / frac).Round(time.Second)
	return fmt.Sprintf(", %.0f%%, %s left", 100*frac, left)
}
