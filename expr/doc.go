// Package expr holds expressions over records: field references (nested
// paths through structs), literals, arithmetic, comparisons, Kleene
// logic, null tests, IN, BETWEEN, casts, conditionals and functions;
// built in Go or parsed from a SQL-like text, bound to a schema, and
// evaluated over record batches a column at a time.
//
//	e, err := expr.Parse("amount > 100 AND country IN ('DE', 'FR')")
//	b, err := expr.Bind(e, rec.Schema())   // fields resolved, types checked
//	mask, err := b.Eval(rec)                // a *array.Boolean
//	kept, err := b.Filter(rec)              // the rows where it is true
//
// The same expression built in Go:
//
//	expr.And(expr.Gt(expr.Field("amount"), expr.Lit(100)),
//		expr.In(expr.Field("country"), expr.Lit("DE"), expr.Lit("FR")))
//
// Over a stream of batches, [Filter] and [Project] wrap an
// alkaid.RecordReader; [ParseSelect] reads a list "a, b + 1 AS c, …".
//
// # Binding
//
// [Bind] resolves every field (a wrong name is an error), picks each
// function for its argument types, inserts the implicit casts below, and
// computes once the parts that read no field. Its errors name the
// expression and, for parsed text, the byte where it starts, e.g.
// `expr: (i8 + s) at byte 3: add_checked of int8 and utf8: invalid`.
// Every error wraps datatype.ErrInvalid, ErrNotSupported or ErrLimit.
//
// # Evaluation
//
// [Bound.Eval] runs compute's kernels over whole columns (no row-by-row
// interpretation of the tree). Nulls propagate: a function of a null is
// null, except for IS [NOT] NULL, coalesce, concat, CASE and Kleene AND
// and OR (false AND null is false, true OR null is true). AND and OR
// evaluate their right side only over the rows the left one leaves
// undecided when those are under a quarter of a batch of 1024 rows or
// more (a selection vector: the referenced columns of those rows are
// gathered, the right side evaluated over them, the results scattered
// back); otherwise over the whole batch. An error in a row the left side already decides (an
// overflow, invalid UTF-8) is therefore not guaranteed to be reported, as
// in SQL engines. A field of a struct is null where the struct is;
// dictionary columns are evaluated by value.
//
// # Types
//
// Operands of different types are brought to a common type:
//   - a literal takes the type of the other operand when its value fits
//     (i8 + 1 is int8, and overflows past 127, as in DuckDB); when it does
//     not, the pair widens as below;
//   - two integer types: the wider one when both are signed or both
//     unsigned, else the signed type twice as wide as the unsigned one, at
//     most int64;
//   - an integer with a float: float64 (float32 for two float32s; an
//     integer literal takes a float column's type);
//   - a decimal with a literal number or string: the decimal's type; with
//     a float: float64; decimals of different precision or scale do not
//     mix;
//   - strings: utf8 with large_utf8 gives large_utf8; a string literal
//     with a number, boolean, date, time or timestamp is read as that type
//     (compute.Cast's text grammar: '2024-02-29' for a date);
//   - binaries (binary, large_binary, binary_view, fixed_size_binary):
//     large_binary with large_binary, else binary (a fixed_size_binary
//     with another width or layout is compared as a binary); a string
//     literal stands for its UTF-8 bytes and takes the other side's type
//     (binary for a fixed_size_binary: a literal of another length is
//     simply unequal); a string column does not mix with a binary;
//   - a date with a timestamp: the timestamp's type; two timestamps: the
//     finer unit (both must have a zone, or neither);
//   - NULL: the other operand's type.
//
// The results of CASE, coalesce and if_else, and the values of IN, take
// one type by these rules, a literal the type of the others wherever it
// stands (CASE WHEN b THEN 2 ELSE i8 END is int8, as in DuckDB); when a
// literal does not fit, the types widen instead.
//
// Arithmetic takes integers and floats. + - * of the text syntax are
// checked (overflow is an error, as in DuckDB); the Go builders Add, Sub
// and Mul wrap around, AddChecked, SubChecked and MulChecked do not. /
// divides as float64 (IEEE 754: x/0 is ±Inf or NaN); // divides integers,
// truncating, a zero divisor being an error.
//
// # Text syntax
//
// Parse reads SQL-like expressions: column names (case-sensitive;
// "double quoted" for any other name, "" for a quote inside; a.b.c for
// nested fields), integer literals (int64, or uint64 above its range),
// decimal literals (float64), 'strings' (” for a quote), TRUE, FALSE,
// NULL, DATE '2024-02-29', TIMESTAMP '2024-02-29 12:00:00'; the operators
// + - * / // % || = == <> != < <= > >=, AND, OR, NOT, IS [NOT] NULL,
// [NOT] IN (v, …) (constant values), [NOT] BETWEEN lo AND hi,
// [NOT] LIKE and ILIKE pattern [ESCAPE c] (constant patterns: % any
// run of characters, _ one, no escape character unless given),
// CASE [x] WHEN … THEN … [ELSE …] END, CAST(x AS type) and x::type,
// EXTRACT(part FROM x) (date_part('part', x)), POSITION(needle IN s)
// (strpos(s, needle)), INTERVAL '…', and
// function calls; -- starts a comment that runs to the end of the
// line. Types are named as in DuckDB (BOOLEAN, TINYINT …
// BIGINT, UTINYINT … UBIGINT, REAL, DOUBLE, VARCHAR, BLOB, DATE, TIME,
// TIMESTAMP, TIMESTAMPTZ or TIMESTAMP WITH TIME ZONE (microseconds, UTC),
// INTERVAL (month_day_nano_interval), DECIMAL(p,s)) or by an Alkaid
// type string in double quotes ("timestamp[ns, tz=Europe/Paris]").
// Precedence, loosest first: OR; AND;
// NOT; comparisons, IS, IN, BETWEEN, LIKE; ||; + -; * / // %; unary -; ::.
// A syntax error is a *SyntaxError with the byte offset of the offending
// token. [Expr.String] prints an expression in this syntax, fully
// parenthesised; Parse reads it back.
//
// # Functions
//
// Named as DuckDB names them (aliases in parentheses, taken by Parse and
// Call alike):
//
//	add, subtract, multiply (wrapping), add_checked, subtract_checked,
//	multiply_checked, divide, integer_divide, modulo (%: the sign of the
//	dividend; fmod for floats), negate, negate_checked,
//	abs (overflow is an error), round(x [, digits]) (half away from zero,
//	DuckDB's way: x·10^d rounded, divided by 10^d; integers round to tens,
//	hundreds, … for negative digits),
//	equal, not_equal, less, less_equal, greater, greater_equal, and, or,
//	not, is_null, is_valid (is_not_null), is_in, between, cast,
//	if_else (if), case_when, coalesce (ifnull), nullif(a, b) (null where
//	a = b, else a),
//	lower (lcase), upper (ucase), length (char_length, len: code
//	points), strlen (bytes), reverse, trim, ltrim, rtrim (spaces, or the
//	characters of a second argument), substr (substring: 1-based code
//	points; a negative start counts from the end, a negative length goes
//	backwards, as DuckDB's), starts_with (prefix), ends_with (suffix),
//	contains, concat (nulls skipped), string_concat (||: null if any is),
//	concat_ws(sep, x, …) (x joined with sep between them, nulls skipped;
//	null when sep is),
//	regexp_matches(s, pattern [, options]) (a match anywhere),
//	regexp_full_match, regexp_replace(s, pattern, replacement [, options])
//	(the first match, every one with option 'g'), like, ilike,
//	year, quarter, month, day (dayofmonth), hour, minute, second,
//	dayofweek (weekday; Sunday is 0), dayofyear, date_trunc(part, t)
//	(datetrunc; millennium … microsecond; week starts on Monday),
//	strftime(t, format).
//
// More string functions: lpad(s, n, fill), rpad (to n code points,
// fill's characters repeated; a longer s is cut to its first n),
// left(s, n), right(s, n) (code points; a negative n drops that many
// from the other end), repeat(s, n), strpos (instr: the
// 1-based code point where a substring first starts, 0 when absent),
// replace(s, from, to) (every occurrence, literally), octet_length
// (bytes, of strings and binaries), character_length (code points),
// encode (utf8 to binary), decode (binary to utf8, checked),
// string_split(s, sep) (str_split, string_to_array, split: list<utf8>; an
// empty sep splits into code points), regexp_split_to_array(s, pattern
// [, options]) (string_split_regex, str_split_regex),
// regexp_extract(s, pattern [, group [, options]]) (the group of the
// first match, "" when none), regexp_extract_all(s, pattern [, group
// [, options]]) (the group of every match, a list<utf8>; null for a match
// the group took no part in), array_to_string(list, sep) (null
// elements skipped), split_part(s, sep, k) (piece k, 1-based, of s split
// at sep; negative k counts from the end; "" past the pieces or for k =
// 0; an empty sep splits into code points), translate(s, from, to)
// (each code point of from replaced by the one at its place in to, or
// dropped when to is shorter), ascii(s) (the first code point, 0 for
// ""), chr(n) (the code point n; a negative one, a surrogate or one past
// U+10FFFF is an error naming the row), bit_length (8 · bytes, of
// strings and binaries), md5 and sha256 (lower-case hex digests of the
// bytes, of strings and binaries), greatest(x, …) and least(x, …) (of
// numbers, strings, binaries, booleans, dates and timestamps brought to
// their common type, as DuckDB's: nulls skipped, null only when every
// argument is; NaN above every number; of equal values the first, so
// greatest(-0.0, 0.0) is -0). More math, over float64
// (integers cast): sign (int8: -1, 0 or 1; 0 for NaN), sqrt, cbrt, exp,
// ln, log10, log2, log (base 10) (the square root of a negative number,
// the logarithm of zero or of a negative number are errors naming the
// row, as in DuckDB), pow (power), fmod (x - y·floor(x/y), DuckDB's),
// mod (%), ceil (ceiling), floor, trunc(x [, digits]) (toward zero to
// digits decimals, a constant integer, 0 when absent, as DuckDB's: a
// float keeps its type (x·10^d truncated, divided by 10^d; x where that
// is not finite), an integer its type and, for digits >= 0, its value
// (negative digits cut to tens, hundreds, …), a decimal(p, s) becomes
// decimal(p, d) for 0 <= d < s and decimal(p, 0) for d < 0),
// round_even(x [, digits]) (roundbankers; half to even: x·10^d
// rounded, divided by 10^d).
//
// String functions take utf8, large_utf8 and utf8_view, return utf8, and
// check UTF-8: invalid bytes are an error naming the row.
//
// # Binary functions
//
// Where it makes sense a string function has a binary form, chosen when
// an argument is a binary (binary, large_binary, binary_view or
// fixed_size_binary); the other text arguments must then be binaries
// too, or string literals, which stand for their bytes (a string column
// is an error: CAST it, or use encode). The binary form counts, cuts and
// compares bytes, never reads them as UTF-8, and returns binary:
// length, strlen, octet_length and character_length (bytes), reverse,
// substr, left, right, lpad, rpad (positions and lengths in bytes, with
// the rules of the string forms), trim, ltrim, rtrim (the bytes of the
// second argument, or 0x20), starts_with, ends_with, contains, strpos
// and instr (1-based byte position), replace, repeat, concat, concat_ws
// and ||.
// lower, upper, LIKE, the regular expressions and the splits have none.
// hex(x) (to_hex: upper-case digits of a binary's bytes, or of a
// string's UTF-8), unhex(s) (from_hex: an odd count of digits has a 0
// put in front, as DuckDB's; another character is an error naming the
// row), to_base64 (base64) and from_base64 (standard alphabet, padded)
// convert between binaries and text. Binaries compare bytewise; a
// binary with a string literal compares with the literal's bytes. Regular
// expressions are Go's regexp package: RE2 syntax and semantics (linear
// time, no backreferences or lookaround), the pattern a constant compiled
// at Bind (a pattern that does not compile is an error naming it);
// options are c (case-sensitive, the default), i (case-insensitive), s (.
// matches a newline), n and p (it does not, the default) and g; in a
// replacement \1…\9 are groups and \0 the match. Time functions take dates
// and timestamps and work in the timestamp's own zone (IANA names from
// the system's zone database, UTC, or offsets such as +05:30; an unknown
// zone is an error of Bind); a timestamp without a zone is read as UTC
// wall-clock time. strftime's directives: %a %A %b %B %d %H %I %j %m %M
// %p %S %f (microseconds) %g (milliseconds) %n (nanoseconds) %y %Y %z %Z
// %%, with %-d etc. dropping leading zeros; an unknown directive is an
// error of Bind.
//
// # Pruning
//
// [Simplify] rewrites an expression with facts known of every row of a
// file or partition ("year = 2024"), so that a filter that cannot match
// becomes FALSE; [MayMatch] decides from min/max statistics whether any
// row of a file, row group or page may match; [Conjuncts] and
// [AsComparison] give the field-against-literal conditions a format with
// simple predicates (Parquet's) can push down.
//
// # Differences from DuckDB
//
// The interop module checks expressions against DuckDB value by value
// (interop/expr_duckdb_test.go). These differences are choices:
//   - floats compare as IEEE 754 (and as compute does): NaN equals nothing,
//     itself included, and is unordered; DuckDB treats NaN as equal to
//     itself and larger than every number (greatest and least follow
//     DuckDB there);
//   - greatest and least do not take intervals;
//   - date_sub of a timestamp with a zone is not supported (an error
//     wrapping ErrNotSupported): DuckDB counts those with ICU, whose
//     months and weeks differ from the rule above in ways not matched;
//   - time_bucket of a timestamp with a zone is not supported (an error
//     wrapping ErrNotSupported; floor_temporal buckets those in local
//     time), nor a width or offset that is not a constant;
//   - integer // by zero is an error; DuckDB gives NULL;
//   - decimal literals such as 1.5 are float64; DuckDB's are DECIMAL;
//   - CAST follows compute.Cast: a float with a fraction cast to an
//     integer is an error (DuckDB rounds it), and the text forms are
//     compute's;
//   - date_trunc of a date is a date; DuckDB gives a TIMESTAMP;
//   - time functions use the zone of the timestamp's type; DuckDB uses the
//     session's TimeZone setting;
//   - column names are case-sensitive; DuckDB folds them;
//   - upper and lower are Go's simple Unicode case mapping (ß becomes ẞ,
//     as in DuckDB); other special casings may differ;
//   - integer % by zero is an error; DuckDB gives NULL;
//   - ceil and floor of an integer keep the integer (exact); DuckDB
//     gives a DOUBLE;
//   - regexp_extract with a group the pattern does not have is an error
//     of Bind; DuckDB gives an empty string;
//   - regexp_split_to_array splits at the matches Go's regexp finds,
//     which skips an empty match right after another match: banana
//     split by a* gives 4 pieces here (b, n, n and an empty one), 7 in
//     DuckDB (an empty piece after each a);
//   - regexp_extract_all likewise skips an empty match right after
//     another match: banana and a* give "", a, a, a here, "", a, "", a,
//     "", a, "" in DuckDB;
//   - round_even takes one argument too (0 digits); DuckDB's needs two;
//     octet_length takes strings too; DuckDB's only BLOB and BIT;
//   - a string literal next to a binary is its UTF-8 bytes; DuckDB reads
//     \xAA escapes in it and refuses other non-ASCII characters;
//   - DuckDB has of the binary forms above only octet_length, ||,
//     repeat, hex, unhex, to_base64 and from_base64; its concat and
//     concat_ws of BLOBs (and || of a BLOB with a VARCHAR) give the
//     VARCHAR of their escaped text, expr's a binary;
//   - not yet in the syntax: /* */ comments, TRY_CAST, SIMILAR TO.
//
// # More time functions
//
// millisecond, microsecond and nanosecond (of the minute, seconds
// included: 44.123 s is 44123 ms, as DuckDB's), isodow (Monday 1 …
// Sunday 7), week (weekofyear, Arrow's iso_week: the ISO 8601 week),
// isoyear (iso_year), yearweek (isoyear·100 + week), decade (year /
// 10), century and millennium (as DuckDB counts them: 2000 is in the
// 20th century, 2001 in the 21st, 1 BC in the -1st), epoch(x)
// (date_part('epoch', x)), Arrow's day_of_year (dayofyear) and
// day_of_week (Arrow's: Monday 0 … Sunday 6, where DuckDB's dayofweek
// has Sunday 0); date_diff(part, a, b) (datediff): the part
// boundaries from a to b in local time, as DuckDB counts them (years,
// quarters, months of the dates; decades, centuries, millennia as
// year/10, /100, /1000 truncated; days; week as whole weeks of days,
// truncated; hour … nanosecond as elapsed units, floored); timezone(zone,
// t): a timestamp without a zone read as wall-clock time in zone becomes
// one with that zone, one with a zone becomes its wall-clock time in zone
// (a skipped wall-clock time takes the offset before the change, a
// repeated one is the later instant, as DuckDB's ICU); floor_temporal,
// ceil_temporal and round_temporal(t, unit [, multiple]) (Arrow's names;
// unit year … nanosecond, week from Monday; multiples counted from
// 1970-01-01 in local time; halfway rounds up); strptime(s, format) and
// try_strptime (null where s does not match): directives %Y (1 to 4
// digits), %y (2000+y below 69, else 1900+y), %m %d %H %I %M %S (1 or 2
// digits), %j (1 to 3), %f %g %n (fractions of a second of up to 6, 3, 9
// digits), %p (AM, PM), %b %h %B (English month names, short or long,
// any case), %a %A (weekday names, checked and ignored), %z (Z, +hh,
// +hhmm, +hh:mm), %Z (UTC, GMT, Z), %% (a "-" after % changes nothing;
// digits finer than a microsecond are dropped); a
// space matches one or more white-space characters; the result is
// timestamp[us], with zone UTC when the format has %z or %Z; a value
// that does not match is an error naming the row, the value, the format
// and the byte; fill_null(x, value) (coalesce of two); monthname and
// dayname (English names of the local date), last_day(t) (the date32 of
// the last day of t's month), make_date(year, month, day) (a date32; a
// date that does not exist is an error naming the row), epoch_ms,
// epoch_us and epoch_ns of a date or timestamp (int64 units since
// 1970-01-01 UTC, truncated toward zero; past int64 an error), epoch_ms
// of an integer (the timestamp[us] that many milliseconds after 1970,
// as DuckDB's), to_timestamp(seconds) (timestamp[us, UTC], rounded half
// to even to the microsecond as DuckDB; NaN, infinities and values past
// the range are errors naming the row), date_sub(part, a, b) (datesub:
// the whole parts from a to b, as DuckDB's: months of the dates and
// times, a start day past the last day of the month b ends on counting
// as that last day (January 31 to February 29 is one month), years,
// quarters, decades … as months / 12, / 3, / 120 …, days and weeks and
// finer parts as elapsed time, all truncated toward zero),
// time_bucket(width, t [, origin | offset]) (of a date or a timestamp
// without a zone, keeping its type, as DuckDB's: width a constant
// positive interval of months only or of days and time only; month
// buckets counted in whole months from the origin's month, 2000-01-01
// when absent, the others in elapsed time from the origin, 2000-01-03
// 00:00:00 when absent; an offset interval of days and time moves the
// buckets by that much), make_timestamp(micros) (timestamp[us] micros
// after 1970) and make_timestamp(year, month, day, hour, minute,
// seconds) (as DuckDB's: whole seconds rounded half to even, up to 60,
// the fraction to the microsecond; hour 24 only as 24:00:00, the next
// midnight; a date or time out of range an error naming the row).
//
// # Intervals
//
// Intervals are month_day_nano_interval values, literals or columns:
// INTERVAL '1 month 2 days' or INTERVAL 3 HOUR (the function
// interval('…'); units year, quarter, month, week, day, hour, minute,
// second, millisecond, microsecond, nanosecond, with DuckDB's plurals and
// abbreviations; "1.5 days" is 1 day 12 hours, "1.5 months" 1 month 15
// days; a time such as -01:02:03.5 adds hours, minutes and seconds),
// CAST(text AS INTERVAL) (the same text, row by row; text that is no
// interval is an error naming the row), to_millennia, to_centuries,
// to_decades, to_years, to_quarters, to_months, to_weeks, to_days,
// to_hours, to_minutes, to_seconds, to_milliseconds and
// to_microseconds of an integer, and differences of timestamps. With
// them:
//   - t + interval, interval + t, t - interval and date_add(t, interval)
//     for a date or timestamp t, as DuckDB: without a zone months first
//     (the day clamped to the month's last), then days, then the rest as
//     elapsed time; in the timestamp's zone as DuckDB's ICU does it, the
//     rest first when a part is negative, else last, months keeping the
//     local wall-clock time, days keeping it where the day reached has it
//     (24-hour days moved by the change of the zone's offset). A date
//     becomes timestamp[us];
//   - a - b of timestamps (or a timestamp and a date, brought to the
//     timestamp's type) is an interval of days and time, no months, as
//     DuckDB's: whole 24-hour days and the rest without a zone; in a
//     zone the whole local days from b to a (counted as + counts them)
//     and the elapsed rest, negated when a is before b. a - b of two
//     dates is the days between them (int64, DuckDB's BIGINT);
//   - interval ± interval and interval · integer (either order), part by
//     part, and -interval; a part out of range (int32 months and days,
//     int64 nanoseconds) is an error naming the row;
//   - interval · float (either order) and interval / number (any integer
//     or float, as a float64; / x is · 1/x), as DuckDB computes them
//     (PostgreSQL's interval_mul): each part multiplied and truncated
//     toward zero, the fraction of the months carried to days (30 a
//     month) and rounded to a microsecond of a day, the fractions of the
//     days to time (86400 s a day) rounded to the microsecond, a whole day
//     of that time moved to the days; the time is then nanoseconds · x
//     plus the carried time, rounded half to even to the nanosecond
//     (DuckDB's to the microsecond: 1 µs / 3 is 333 ns here, 0 there),
//     in float64 as DuckDB does (a time part past 2^53 ns, about 104
//     days, loses its last digits). INTERVAL '1 month' / 7 is 4 days
//     06:51:25.6896, as in DuckDB and PostgreSQL. Division by zero is
//     null, as in DuckDB; NaN, an infinite factor (even with a zero
//     interval) and a part out of range are errors naming the row;
//   - comparisons, IN and BETWEEN in DuckDB's order: 30-day months and
//     24-hour days are moved up, each part keeping its sign, then months,
//     days and the rest compare in turn (INTERVAL '30 days' = INTERVAL
//     '1 month'); a string literal on the other side is read as an
//     interval;
//   - year, quarter, month, day, hour, minute, second, millisecond,
//     microsecond, nanosecond and date_part(part, x) with those parts and
//     decade, century, millennium and epoch (seconds, a year of 365.25
//     days, a month of 30; float64), as DuckDB computes them (months / 12,
//     months % 12, …, truncated toward zero); date_part also takes the
//     parts of dates and timestamps (dow, doy, isodow, week, …, and
//     epoch: seconds since 1970-01-01 UTC, float64);
//   - CAST(interval AS VARCHAR) prints DuckDB's form ("1 year 2 months 3
//     days 04:05:06.5"), is_null, coalesce, CASE and projections carry
//     intervals as any column.
//
// Window functions (row_number, rank, dense_rank, cumulative
// sum/min/max, forward and backward fill over partitions and a sort
// order) are package window.
//
// Checked against DuckDB in interop/expr_timefn_duckdb_test.go and
// interop/expr_interval_duckdb_test.go. Further
// differences, all choices:
//   - date_diff in hours (or finer) between TIMESTAMPTZ values across the
//     repeated hour of a DST change: DuckDB (ICU) counts one hour more;
//     expr counts elapsed hour boundaries;
//   - floor_temporal with a multiple of hours or finer in a zone counts
//     wall-clock time from 1970; DuckDB's time_bucket counts elapsed time
//     from its origin (2000-01-03), so 2-hour buckets in summer time differ;
//   - strptime's %Y takes at most 4 digits and no sign; %Z takes only
//     UTC, GMT or Z (DuckDB takes zone names); DuckDB can also take a list
//     of formats;
//   - there is no time_bucket (use floor_temporal);
//   - intervals hold nanoseconds, DuckDB's microseconds: interval text
//     and CAST keep digits DuckDB truncates, interval · integer and ·
//     float overflow their nanoseconds at a product 1000 times smaller
//     than DuckDB's microseconds do, and interval · float and / number
//     round the time to the nanosecond, DuckDB to the microsecond.
package expr
