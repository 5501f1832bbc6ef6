package compute

import (
	"cmp"
	"slices"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
)

// TopKIndices returns the positions of the first k rows of a in order o,
// in that order: what [SortIndices] would start with, found with a heap
// of k rows instead of a full sort. k larger than a gives every row.
func TopKIndices(a array.Array, k int, o Order, opts ...Option) (*array.Int64, error) {
	return indicesOut(topRows("TopKIndices", opts, k, arrayKey(a, o)))
}

// TopKIndicesChunked is [TopKIndices] over the rows of a chunked column;
// positions count across chunks.
func TopKIndicesChunked(c *alkaid.Chunked, k int, o Order, opts ...Option) (*array.Int64, error) {
	return indicesOut(topRows("TopKIndicesChunked", opts, k, chunkedKey(c, o)))
}

// TopKIndicesRecord is [TopKIndices] of a record's rows by several keys
// (see [SortIndicesRecord]).
func TopKIndicesRecord(r *alkaid.Record, k int, keys []SortKey, opts ...Option) (*array.Int64, error) {
	return indicesOut(topRows("TopKIndicesRecord", opts, k, recordKeys(r, keys)))
}

// TopKIndicesTable is [TopKIndicesRecord] over a table; positions count
// across chunks.
func TopKIndicesTable(t *alkaid.Table, k int, keys []SortKey, opts ...Option) (*array.Int64, error) {
	return indicesOut(topRows("TopKIndicesTable", opts, k, tableKeys(t, keys)))
}

// topRows is topK of ks, for the function fn called with opts (which
// it checks; the heap runs on the calling goroutine).
func topRows(fn string, opts []Option, k int, ks keySet) ([]int, error) {
	if _, err := configure(fn, opts); err != nil {
		return nil, err
	}
	if ks.err != nil {
		return nil, ks.err
	}
	return topK(ks.cols, ks.orders, k)
}

func topK(cols []array.Array, orders []Order, k int) ([]int, error) {
	if k < 0 {
		return nil, errf(ErrInvalid, "top %d", k)
	}
	keys := make([]sortKey, len(cols))
	for c, col := range cols {
		var err error
		if keys[c], err = prepareKey(col, orders[c]); err != nil {
			return nil, err
		}
	}
	less := func(x, y int) int {
		for c := range keys {
			if r := keys[c].compare(x, y); r != 0 {
				return r
			}
		}
		return cmp.Compare(x, y)
	}
	n := cols[0].Len()
	k = min(k, n)
	// heap is a max-heap by less: heap[0] is the worst row kept.
	heap := make([]int, 0, k)
	down := func(i int) {
		for {
			l, big := 2*i+1, i
			if l < len(heap) && less(heap[l], heap[big]) > 0 {
				big = l
			}
			if r := l + 1; r < len(heap) && less(heap[r], heap[big]) > 0 {
				big = r
			}
			if big == i {
				return
			}
			heap[i], heap[big] = heap[big], heap[i]
			i = big
		}
	}
	for row := range n {
		switch {
		case len(heap) < k:
			heap = append(heap, row)
			for i := len(heap) - 1; i > 0; {
				p := (i - 1) / 2
				if less(heap[i], heap[p]) <= 0 {
					break
				}
				heap[i], heap[p] = heap[p], heap[i]
				i = p
			}
		case k > 0 && less(row, heap[0]) < 0:
			heap[0] = row
			down(0)
		}
	}
	slices.SortFunc(heap, less)
	return heap, nil
}
