package array

import (
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// ValueChecks is a set of the value checks of [ValidateFull] that a
// caller may leave out with [ValidationOptions].Skip: Arrow's integration
// tools turn them off for golden files that older Arrow releases (0.14.1
// to 1.0) wrote with decimals beyond their precision, date64 values that
// are not whole days and out-of-day times.
type ValueChecks uint8

const (
	// CheckDecimalPrecision: every non-null decimal has at most precision
	// digits.
	CheckDecimalPrecision ValueChecks = 1 << iota
	// CheckDate64Days: every non-null date64 is a whole number of days
	// (a multiple of 86,400,000 milliseconds).
	CheckDate64Days
	// CheckTimeOfDay: every non-null time32 or time64 is a time of day,
	// in [0, 86,400 s) counted in the type's unit.
	CheckTimeOfDay
)

const msPerDay = 86_400_000

// checkDate64 requires every non-null value to be a whole day.
func checkDate64(d *Data, path string) error {
	vals := memory.View[int64](d.Buffers[1])[d.Offset : d.Offset+d.Length]
	valid := d.validity()
	for i, x := range vals {
		if x%msPerDay != 0 && (valid == nil || bitutil.GetBit(valid, d.Offset+i)) {
			return fault(path, i, "date64 value %d ms is not a whole number of days (a multiple of %d)", x, msPerDay)
		}
	}
	return nil
}

// checkTimeOfDay requires every non-null value in [0, one day).
func checkTimeOfDay(d *Data, t *datatype.TimeType, path string) error {
	day := 86_400 * t.Unit.PerSecond()
	valid := d.validity()
	bad := func(i int, x int64) bool {
		return (x < 0 || x >= day) && (valid == nil || bitutil.GetBit(valid, d.Offset+i))
	}
	fail := func(i int, x int64) error {
		return fault(path, i, "%s value %d is not a time of day: want [0, %d)", t, x, day)
	}
	if t.Kind() == datatype.KindTime32 {
		for i, x := range memory.View[int32](d.Buffers[1])[d.Offset : d.Offset+d.Length] {
			if bad(i, int64(x)) {
				return fail(i, int64(x))
			}
		}
		return nil
	}
	for i, x := range memory.View[int64](d.Buffers[1])[d.Offset : d.Offset+d.Length] {
		if bad(i, x) {
			return fail(i, x)
		}
	}
	return nil
}
