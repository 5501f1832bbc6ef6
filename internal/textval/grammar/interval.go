package grammar

import "strconv"

// AppendDuration writes a duration as the count of its unit (the unit is
// the type's): 5400 is 5400 seconds in a duration[s]. This is the form
// csv and ndjson write and read back.
func AppendDuration(dst []byte, v int64) []byte {
	return strconv.AppendInt(dst, v, 10)
}

// AppendMonthInterval writes a month interval as the object
// {"months":m}, the form ndjson writes (and csv in one cell).
func AppendMonthInterval(dst []byte, months int32) []byte {
	dst = strconv.AppendInt(append(dst, `{"months":`...), int64(months), 10)
	return append(dst, '}')
}

// AppendDayTimeInterval writes a day-time interval as the object
// {"days":d,"milliseconds":ms}.
func AppendDayTimeInterval(dst []byte, days, ms int32) []byte {
	dst = strconv.AppendInt(append(dst, `{"days":`...), int64(days), 10)
	dst = strconv.AppendInt(append(dst, `,"milliseconds":`...), int64(ms), 10)
	return append(dst, '}')
}

// AppendMonthDayNanoInterval writes a month-day-nano interval as the
// object {"months":m,"days":d,"nanoseconds":ns}.
func AppendMonthDayNanoInterval(dst []byte, months, days int32, ns int64) []byte {
	dst = strconv.AppendInt(append(dst, `{"months":`...), int64(months), 10)
	dst = strconv.AppendInt(append(dst, `,"days":`...), int64(days), 10)
	dst = strconv.AppendInt(append(dst, `,"nanoseconds":`...), ns, 10)
	return append(dst, '}')
}
