// Package window computes functions whose value at a row depends on
// other rows: forward and backward fill, cumulative sum, min and max, and
// row_number, rank and dense_rank, each over the rows of a record
// stream or table ordered by a sort order and split into partitions by
// key columns, as SQL's
// f(x) OVER (PARTITION BY k ORDER BY o ROWS UNBOUNDED PRECEDING).
//
//	r, err := window.Eval(table, window.Spec{
//		PartitionBy: []string{"country"},
//		OrderBy:     []compute.SortKey{{Column: "amount", Order: compute.Order{Descending: true}}},
//	}, window.Call{Func: window.Rank}, window.Call{Func: window.CumSum, Column: "amount"})
//
// Eval takes any alkaid.RecordReader (a *alkaid.Table is one; make one
// of a single record with alkaid.TableFromRecords) and returns a reader
// of its record batches, in their order, each with a result column per
// call appended. The results are those of the batches concatenated into
// one record: partitions and ties span batches. With no OrderBy the rows
// keep their order in the input; with no PartitionBy the whole input is
// one partition. Rows that tie on every OrderBy key keep their order in
// the input (the sort is stable), so row_number is deterministic.
//
// Memory: a window over partitions or a sort order, and backward fill,
// need the whole input before the first result (as DuckDB's window
// operator does): Eval's reader reads its input to the end, holds its
// batches and a concatenated copy of the columns the window reads, and
// yields the batches with their results. Without PartitionBy and
// OrderBy the other functions (cumulative sum, min and max, forward
// fill, row_number; rank and dense_rank are then 1) run batch by batch
// with their state carried from one batch to the next, holding one batch
// at a time. fill_null(x, value), which is row-wise, is an expression
// function of package expr.
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
// the function does not take, a result name already taken: returned by
// Eval itself), or compute.ErrOverflow (an integer sum past int64 or
// uint64, yielded by the reader and naming the row of the whole input);
// an error of the input reader is yielded as it is.
package window
