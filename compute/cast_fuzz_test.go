package compute

import (
	"errors"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// FuzzCastString parses arbitrary text into every type strings cast to:
// never a panic, every failure one of the documented errors, and an
// integer that parses prints back to text that parses to it again.
func FuzzCastString(f *testing.F) {
	for _, s := range []string{"12", "-7", "2.5", "1e3", "true", "2022-01-08", "2023-11-14T22:13:20.123Z",
		"01:02:03.004", "99999999999999999999", "-0.001", "", " 5 ", "NaN", "+Inf", "\xff"} {
		f.Add(s)
	}
	targets := []datatype.DataType{datatype.Int8, datatype.Int64, datatype.Uint64, datatype.Float32, datatype.Float64,
		datatype.Bool, must(datatype.NewDecimal(128, 10, 2)), must(datatype.NewDecimal(32, 4, 0)), datatype.Date32Type,
		datatype.Date64Type, must(datatype.NewTimestamp(datatype.Millisecond, "UTC")), must(datatype.NewTime(datatype.Second)),
		must(datatype.NewDuration(datatype.Second)), datatype.String, datatype.LargeBinary}
	f.Fuzz(func(t *testing.T, s string) {
		b := array.NewBinaryBuilder[int32](datatype.String)
		b.AppendString(s)
		b.AppendNull()
		a := b.NewArray()
		for _, to := range targets {
			out, err := Cast(a, to)
			if err != nil {
				if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrOverflow) && !errors.Is(err, ErrTruncation) {
					t.Fatalf("%s: %q: unexpected error %v", to, s, err)
				}
				continue
			}
			if out.Len() != 2 || !out.IsNull(1) {
				t.Fatalf("%s: %q: got %v", to, s, out)
			}
			if to.Kind() == datatype.KindInt64 {
				text, err := Cast(out, datatype.String)
				if err != nil {
					t.Fatal(err)
				}
				again, err := Cast(text, datatype.Int64)
				if err != nil || again.(*array.Int64).Value(0) != out.(*array.Int64).Value(0) {
					t.Fatalf("%q: %v does not round-trip (%v)", s, out, err)
				}
			}
		}
	})
}
