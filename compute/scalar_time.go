package compute

import (
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/textval/grammar"
)

// temporalString prints a temporal scalar in the text grammar (see
// internal/textval/grammar): dates as 2006-01-02, times of day as
// 15:04:05.999999999, timestamps as 2006-01-02T15:04:05.999999999 (in
// their zone, with its offset, when they have one); durations as the
// count of their unit and intervals as objects with named parts
// ({"days":1,"milliseconds":500}), the forms csv and ndjson write.
// ok is false for other scalars.
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
		return string(grammar.AppendDuration(nil, int64(v))), true
	case datatype.MonthInterval:
		return string(grammar.AppendMonthInterval(nil, int32(v))), true
	case datatype.DayTimeInterval:
		return string(grammar.AppendDayTimeInterval(nil, v.Days, v.Milliseconds)), true
	case datatype.MonthDayNanoInterval:
		return string(grammar.AppendMonthDayNanoInterval(nil, v.Months, v.Days, v.Nanoseconds)), true
	}
	return "", false
}
