// Package window computes functions whose value at a row depends on
// other rows: forward and backward fill, cumulative sum, min and max, and
// row_number, rank and dense_rank, each over the rows of a record
// ordered by a sort order and split into partitions by key columns, as
// SQL's f(x) OVER (PARTITION BY k ORDER BY o ROWS UNBOUNDED PRECEDING).
//
//	ranks, err := window.Eval(rec, window.Spec{
//		PartitionBy: []string{"country"},
//		OrderBy:     []compute.SortKey{{Column: "amount", Order: compute.Order{Descending: true}}},
//	}, window.Rank, "")
//
// The result has a slot for every row of the record, in the record's own
// order (not the sort order). With no OrderBy the rows keep their order
// in the record; with no PartitionBy the whole record is one partition.
// Rows that tie on every OrderBy key keep their order in the record
// (the sort is stable), so row_number is deterministic.
//
// The functions take a whole record because a partition needs all its
// rows: concatenate a table or a stream first (alkaid.ReadAll, then
// alkaid.ConcatRecords of its records). fill_null(x, value), which is
// row-wise, is an expression function of package expr.
//
// Nulls, as DuckDB's window aggregates: the cumulative functions skip
// null values; their result at a row is the aggregate of the non-null
// values of the partition up to and including it, null while there are
// none. Float minimum and maximum order NaN above every number (as
// compute's sort does). Forward fill gives a null row the last non-null
// value before it in its partition (null if none); backward fill the
// next one after it.
//
// Errors wrap datatype.ErrInvalid (an unknown column, a column of a type
// the function does not take), or compute.ErrOverflow (an integer sum
// past int64 or uint64).
package window
