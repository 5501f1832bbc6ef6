// Package grammar is the text grammar of every scalar value: how numbers,
// decimals, dates, times of day and timestamps are read from text and
// written as text, and how durations and intervals are written.
// compute.Cast (strings to and from values), the csv and ndjson readers
// and writers (through package textval), the array printer (array.Format)
// and the alkaid command all use it, so a text is read the same way, and
// a value written the same way, everywhere.
//
// The package is internal: users reach the grammar through compute.Cast,
// csv and ndjson, and a public copy would be a second way of doing the
// same thing. It depends on datatype only, so that package array can
// print with it.
//
// # Numbers
//
// One grammar for integers, floats and decimals:
//
//	number   = [sign] (digits ["." [digits]] | "." digits) [exponent]
//	sign     = "+" | "-"
//	exponent = ("e" | "E") [sign] digits
//	digits   = one or more of 0-9 (ASCII)
//
// No radix prefixes (0x10, 0b101, 0o17), hex floats (0x1p4), digit
// separators (1_000, 1,000), fractions (1/4) or other digits (١٢). An
// integer or decimal may be written with a point or an exponent when the
// value has no digits below its unit: "1e3" is the int64 1000, "1.50" the
// decimal(5,1) 1.5, but "1.5" is not an int64 (ErrTruncation: the caller
// may ask to truncate). Floats also take the spellings NaN, Inf and
// Infinity in any case, the infinities with an optional sign. A value its
// type cannot hold is ErrRange: an integer past int64, a decimal with more
// digits than its precision, a float past the largest finite one, and a
// nonzero float that would round to zero (1e-400), since neither would
// read back as written. Floats are written in the shortest form that
// reads back exactly (strconv's 'g', NaN, +Inf, -Inf); decimals with
// exactly their scale's digits and no exponent.
//
// # Dates and times
//
//	date      = YYYY "-" MM "-" DD           (years 0000-9999, real dates: 2023-02-29 is no date)
//	time      = hh ":" mm ":" ss ["." digits] (00:00:00 to 23:59:59; no leap second)
//	timestamp = date ("T" | " ") time [zone] | date
//	zone      = "Z" | sign hh ":" mm | sign hhmm | sign hh
//
// A timestamp without a zone is UTC; with one it is the instant it names.
// A date may also be written as a timestamp: its written date is taken
// (the zone does not move it), and a time of day other than midnight is
// ErrTruncation. Dates, times and timestamps may also be written as a
// count of their unit (days, units since midnight, units since the
// epoch); the writers use that form for values outside the years
// 0000-9999. The truncation rule is the same everywhere: fraction digits
// finer than the type's unit are ErrTruncation unless they are zeros, so
// "…00.1234560" is a timestamp[us] and "…00.1234567" is not. Timestamps
// are written as YYYY-MM-DDThh:mm:ss[.f] with the unit's fraction digits
// (trailing zeros dropped): without a time zone as they are, with one as
// the wall time in that zone and its offset (Z for UTC).
//
// # Durations and intervals
//
// A duration is written as the count of its type's unit (5400 in a
// duration[s]); intervals as objects with named parts, the ndjson form:
//
//	month interval           {"months":14}
//	day-time interval        {"days":1,"milliseconds":500}
//	month-day-nano interval  {"months":1,"days":2,"nanoseconds":3}
//
// The csv writer puts an interval's object in one cell, and the array
// printer and compute.Scalar print these forms too.
//
// # Spaces
//
// Spaces and tabs around a value make it invalid everywhere by default;
// Options.TrimSpace (compute.TrimSpace, csv.WithTrimSpace,
// ndjson.WithTrimSpace) drops them first.
//
// # Tricky inputs
//
// compute.Cast, the csv reader and the ndjson reader agree on each of
// these (TestTrickyInputsAgree checks them all); "syntax", "range" and
// "truncation" are ErrSyntax, ErrRange and ErrTruncation (compute.Cast
// reports the last two as ErrOverflow and ErrTruncation):
//
//	input                            type                 verdict
//	"12" "+12" "-0"                  int64                12, 12, 0
//	" 12" "12 " "\t12" "- 12" "--12" int64                syntax
//	"0x10" "0b101" "0o17" "1_000"    int64                syntax
//	"1,000" "1/4" "١٢"               int64                syntax
//	"0x10" "0b101" "0o17" "0x1p-2"   decimal128(10, 2)    syntax
//	"1/4"                            decimal128(10, 2)    syntax
//	"0x1p4" "0x.8p1" "1_0"           float64              syntax
//	"1e3" "1.0"                      int64                1000, 1
//	"1.5" "15e-1"                    int64                truncation
//	"9223372036854775808" "1e19"     int64                range
//	"1.5e2" "-25E-2"                 decimal128(10, 2)    150.00, -0.25
//	"1.255"                          decimal128(10, 2)    truncation
//	"123456789"                      decimal128(10, 2)    range
//	".5" "5." "-2.5e-3"              float64              0.5, 5, -0.0025
//	"1e" "."                         float64              syntax
//	"1e400" "1e-400"                 float64              range
//	"4.9e-324"                       float64              5e-324 (the smallest float)
//	"NaN" "nan"                      float64              NaN
//	"Inf" "+infinity"                float64              +Inf
//	"-Inf" "-Infinity"               float64              -Inf
//	"NaN" / "Inf"                    int64 / decimal      syntax
//	"infinit"                        float64              syntax
//	"2024-01-01T00:00:00.123456"     timestamp[us]        2024-01-01T00:00:00.123456
//	"2024-01-01T00:00:00.1234567"    timestamp[us]        truncation
//	"2024-01-01T00:00:00.1234560"    timestamp[us]        2024-01-01T00:00:00.123456
//	"2024-01-01T00:00:00.1234567891" timestamp[ns]        truncation
//	"12:00:00.1234567"               time64[us]           truncation
//	"12:00:00.5"                     time64[us]           12:00:00.5
//	"2024-01-01T00:00:00+02:00"      timestamp[us]        2023-12-31T22:00:00
//	"2024-01-01 00:00:00Z"           timestamp[us]        2024-01-01T00:00:00
//	"2024-01-01T00:00:00-0930"       timestamp[us]        2024-01-01T09:30:00
//	"2024-01-01T00:00:00+24:00"      timestamp[us]        syntax
//	"2024-01-01T00:00:00Z"           timestamp[s, +02:00] 2024-01-01T02:00:00+02:00
//	"2024-01-01T00:00:00+02:00"      date32               2024-01-01 (the written date)
//	"2024-01-01T10:00:00"            date32               truncation
//	"2024-02-29" "2000-02-29"        date32               leap days
//	"2023-02-29" "1900-02-29"        date32               syntax
//	"2024-02-29T12:00:00"            timestamp[us]        2024-02-29T12:00:00
//	"2024-01-01T23:59:60"            timestamp[us]        syntax
//	"24:00:00"                       time64[us]           syntax
//	"2024-13-01" "2024-1-1"          date32               syntax
//	"10000-01-01"                    date32               syntax
//	"0000-01-01" "9999-12-31"        date32               the ends of the written years
//	"2300-01-01T00:00:00"            timestamp[ns]        range
//	"2024-01-01"                     timestamp[us]        2024-01-01T00:00:00
package grammar
