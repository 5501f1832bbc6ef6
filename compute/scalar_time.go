package compute

import (
	"time"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// temporalString prints a temporal scalar in the text grammar (see
// internal/textval/grammar): dates as 2006-01-02, times of day as
// 15:04:05.999999999, timestamps as 2006-01-02T15:04:05.999999999 (in
// their zone, with its offset, when they have one); durations as Go does
// (1h2m3s). ok is false for other scalars.
func temporalString(s Scalar) (string, bool) {
	switch v := s.Value.(type) {
	case datatype.Date32:
		return string(grammar.AppendDate(nil, int64(v))), true
	case datatype.Date64:
		if v%msPerDay == 0 {
			return string(grammar.AppendDate(nil, int64(v)/msPerDay)), true
		}
	case datatype.Time32:
		if t, ok := s.Type.(*datatype.TimeType); ok {
			return string(grammar.AppendTimeOfDay(nil, int64(v), t.Unit.PerSecond())), true
		}
	case datatype.Time64:
		if t, ok := s.Type.(*datatype.TimeType); ok {
			return string(grammar.AppendTimeOfDay(nil, int64(v), t.Unit.PerSecond())), true
		}
	case datatype.Timestamp:
		t, ok := s.Type.(*datatype.TimestampType)
		if !ok {
			return "", false
		}
		z, err := grammar.ParseZone(t.TimeZone)
		if err != nil {
			z = grammar.UTC
		}
		return string(grammar.AppendTimestamp(nil, int64(v), t.Unit.PerSecond(), z)), true
	case datatype.Duration:
		if t, ok := s.Type.(*datatype.DurationType); ok {
			return time.Duration(int64(v) * (1e9 / t.Unit.PerSecond())).String(), true
		}
	}
	return "", false
}
