package array

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

func TestValueChecksDateAndTime(t *testing.T) {
	timeOf := func(u datatype.TimeUnit) datatype.DataType {
		tt, err := datatype.NewTime(u)
		require.NoError(t, err)
		return tt
	}
	const day = 86_400_000
	cases := []struct {
		name  string
		d     *Data
		check ValueChecks
		fault string // "" when valid
	}{
		{"date64 whole days", primData[int64](datatype.Date64Type, "", 0, day, -3*day), CheckDate64Days, ""},
		{"date64 part of a day", primData[int64](datatype.Date64Type, "", day, day+1), CheckDate64Days,
			"array: [1]: date64 value 86400001 ms is not a whole number of days (a multiple of 86400000)"},
		{"date64 part of a day, null", primData[int64](datatype.Date64Type, "10", day, day+1), CheckDate64Days, ""},
		{"time32 s in range", primData[int32](timeOf(datatype.Second), "", 0, 86399), CheckTimeOfDay, ""},
		{"time32 s a day", primData[int32](timeOf(datatype.Second), "", 86400), CheckTimeOfDay,
			"array: [0]: time32[s] value 86400 is not a time of day: want [0, 86400)"},
		{"time32 ms negative", primData[int32](timeOf(datatype.Millisecond), "", -1), CheckTimeOfDay,
			"array: [0]: time32[ms] value -1 is not a time of day: want [0, 86400000)"},
		{"time64 us a day", primData[int64](timeOf(datatype.Microsecond), "", 86_400_000_000), CheckTimeOfDay,
			"array: [0]: time64[us] value 86400000000 is not a time of day: want [0, 86400000000)"},
		{"time64 ns in range", primData[int64](timeOf(datatype.Nanosecond), "", 86_400_000_000_000-1), CheckTimeOfDay, ""},
		{"time64 ns out of range, null", primData[int64](timeOf(datatype.Nanosecond), "0", -5), CheckTimeOfDay, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, Validate(c.d, ValidateSafe), "not a check of the safe level")
			err := Validate(c.d, ValidateFull)
			if c.fault == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, c.fault)
			require.NoError(t, ValidateWith(c.d, ValidationOptions{Level: ValidateFull, Skip: c.check}))
			others := (CheckDecimalPrecision | CheckDate64Days | CheckTimeOfDay) &^ c.check
			require.EqualError(t, ValidateWith(c.d, ValidationOptions{Level: ValidateFull, Skip: others}), c.fault)
		})
	}
}

func TestValueChecksDecimalSkip(t *testing.T) {
	dt, err := datatype.NewDecimal(32, 2, 0)
	require.NoError(t, err)
	d := primData[int32](dt, "", 99, 100)
	require.EqualError(t, Validate(d, ValidateFull), "array: [1]: value 100 does not fit precision 2")
	require.NoError(t, ValidateWith(d, ValidationOptions{Level: ValidateFull, Skip: CheckDecimalPrecision}))
}
