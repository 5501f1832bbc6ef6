// Package join joins two record sources on equal keys with a hash join.
//
// The right side (the build side) is read fully into memory, within
// [Limits], and indexed by a hash table: build rows chained per distinct
// key through a next-row array, so that building allocates no memory per
// row. The left side (the probe side) is streamed from an
// [alkaid.RecordReader] batch by batch as the result is read, so a large
// probe never has to fit in memory; [Reader] is itself a RecordReader.
// Batches are probed on [WithConcurrency] goroutines and their output is
// yielded in the left side's order, so the output is the same for any
// concurrency (see [Reader.Records] for the order).
//
//	j, err := join.NewReader(orders, customers, join.LeftOuter, join.On("customer_id"))
//	...
//	for rec, err := range j.Records() { ... }
//
// # Types
//
// Inner, left, right and full outer joins, and left and right semi and
// anti joins ([Type]). Semi and anti joins output one side's columns,
// each row once.
//
// # Keys
//
// One or more pairs of columns ([Key], [On]) of the same type on both
// sides: integers, floats, decimals, dates, times, timestamps,
// durations, intervals, booleans, fixed-size binary, strings and binary.
// A dictionary compares by its values (a dictionary of strings joins a
// plain string column); string, large string and string view are one
// type, as are binary, large binary and binary view. Other types must
// match exactly (int32 does not join int64, nor timestamp[ms]
// timestamp[us]: cast first). Nested and run-end encoded types are not
// supported as keys.
//
// A key with a null in any of its columns matches nothing, as in SQL;
// [WithNullsEqual] makes null match null instead (IS NOT DISTINCT FROM).
// Floats compare as DuckDB compares them in joins: -0 equals 0, and NaN
// equals NaN (whatever its payload). One key column of at most 8 bytes
// takes a hash table over 64-bit values; other keys are encoded as bytes
// per row.
//
// # Output
//
// Every left column then every right column, unless [WithColumns]
// chooses; a name both sides have gets a suffix per side
// ([WithSuffixes], by default "" and "_right"). Columns an outer join
// fills with nulls are nullable in the output schema.
//
// # Residual filter
//
// [WithFilter] takes an [expr.Expr] over the candidate pairs (rows
// whose keys are equal), built in Go or parsed, as
// expr.Parse("price <= budget"): a pair matches only where it is true
// (null counts as false). NewReader binds it to every left column then every right
// column, named as in the output before [WithColumns] selects (a name
// both sides have takes its side's suffix); a field that is not there or
// a type that is not boolean is NewReader's error. It is evaluated with
// [expr.Bound.Eval] over each left batch's candidates; an error there
// (a checked overflow, say) names the batch. An outer join outputs a row
// whose every candidate fails the filter with nulls, as SQL's
// ON a = b AND cond does.
//
// # Compared with DuckDB
//
// interop/join_duckdb_test.go checks every join type over every key
// type against DuckDB's answers (nulls, NaN, -0, empty and multi-byte
// strings, decimals, dates, timestamps, dictionaries, null equality as IS
// NOT DISTINCT FROM); the joined rows agree. Differences by choice: key
// types must match (DuckDB casts int32 to int64, or one decimal scale to
// another; here that is an error, cast first), and the output order is
// specified (DuckDB's is not).
//
// # Errors
//
// Errors wrap datatype.ErrInvalid (bad options, unknown or mismatched
// keys), datatype.ErrNotSupported (key types) or datatype.ErrLimit (a
// build side over its limits), and errors of the inputs are returned
// wrapped, naming the side and batch.
package join
