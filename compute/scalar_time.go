package compute

import (
	"time"

	"github.com/alkaid-go/alkaid/datatype"
)

// temporalString prints a temporal scalar as a time: dates as
// 2006-01-02, times of day as 15:04:05.999999999, timestamps as
// 2006-01-02 15:04:05.999999999 (with their zone's offset when they have
// one), durations as Go does (1h2m3s). ok is false for other scalars.
func temporalString(s Scalar) (string, bool) {
	switch v := s.Value.(type) {
	case datatype.Date32:
		return v.Time().Format(time.DateOnly), true
	case datatype.Date64:
		return v.Time().Format(time.DateOnly), true
	case datatype.Time32:
		if t, ok := s.Type.(*datatype.TimeType); ok {
			return clock(int64(v), t.Unit), true
		}
	case datatype.Time64:
		if t, ok := s.Type.(*datatype.TimeType); ok {
			return clock(int64(v), t.Unit), true
		}
	case datatype.Timestamp:
		t, ok := s.Type.(*datatype.TimestampType)
		if !ok || !v.InTimeRange(t.Unit) {
			return "", false
		}
		tm := v.Time(t.Unit)
		layout := "2006-01-02 15:04:05.999999999"
		if t.TimeZone != "" {
			if loc, err := time.LoadLocation(t.TimeZone); err == nil {
				tm = tm.In(loc)
			}
			layout += "Z07:00"
		}
		return tm.Format(layout), true
	case datatype.Duration:
		if t, ok := s.Type.(*datatype.DurationType); ok {
			return time.Duration(int64(v) * (1e9 / t.Unit.PerSecond())).String(), true
		}
	}
	return "", false
}

func clock(v int64, u datatype.TimeUnit) string {
	return time.Unix(0, v*(1e9/u.PerSecond())).UTC().Format("15:04:05.999999999")
}
