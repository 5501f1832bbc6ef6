package flight

import (
	"context"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// The memory a DirService's DoGet calls hold (decoded record batches, and
// decoding Parquet row groups) is bounded in all (every call together)
// and for one batch, so that a file that decodes to much more than its
// size is refused alone and clients that stop reading cannot make the
// server hold more than the total.
const (
	// DefaultDirMemory is the bytes all DoGet calls of a DirService hold
	// at once (see [WithMemory]), unless [WithMemory] says otherwise.
	DefaultDirMemory = 1 << 30
	// DefaultDirBatchMemory is the largest batch one DoGet call decodes,
	// unless [WithMemory] says otherwise.
	DefaultDirBatchMemory = 256 << 20
)

// budget is a number of bytes shared by calls, taken before a batch is
// decoded and given back once it is sent.
type budget struct {
	mu    sync.Mutex
	total int64
	used  int64
	freed chan struct{} // closed when bytes are given back
}

// take waits until n bytes are free, or ctx is done. own is what the
// caller holds already: a call that holds all that is held takes n
// without waiting, whatever n, rather than wait for itself (its batch
// or row group alone takes more than the budget then, and it proceeds
// alone).
func (b *budget) take(ctx context.Context, n, own int64) error {
	if n <= 0 {
		return nil
	}
	for {
		b.mu.Lock()
		if b.used+n <= b.total || b.used <= own {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		if b.freed == nil {
			b.freed = make(chan struct{})
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		}
	}
}

// give returns n bytes.
func (b *budget) give(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	if b.freed != nil {
		close(b.freed)
		b.freed = nil
	}
	b.mu.Unlock()
}

// inUse is the bytes taken.
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// rowBits is the bits one row of fields takes at least in memory: the
// fixed-width buffers of each column and of the children with a slot per
// row (structs, sparse unions, fixed-size lists); the values of lists,
// strings and dictionaries come on top.
func rowBits(fields []datatype.Field) int64 {
	var n int64
	for _, f := range fields {
		n += typeBits(f.Type)
	}
	return n
}

func typeBits(t datatype.DataType) int64 {
	var n int64
	for _, b := range datatype.LayoutOf(t).Buffers {
		switch b.Kind {
		case datatype.BufferValidity, datatype.BufferBitmap:
			n++
		case datatype.BufferFixedWidth:
			n += 8 * int64(b.ByteWidth)
		}
	}
	switch tt := t.(type) {
	case *datatype.StructType:
		n += rowBits(tt.Fields())
	case *datatype.UnionType:
		if tt.Mode() == datatype.Sparse {
			n += rowBits(tt.Fields())
		}
	case *datatype.ListType:
		if t.Kind() == datatype.KindFixedSizeList {
			n += int64(tt.Size()) * typeBits(tt.Elem().Type)
		}
	}
	return n
}

// batchBytes is the least memory rows rows of schema take.
func batchBytes(schema *alkaid.Schema, rows int64) int64 {
	bits := rowBits(schema.Fields())
	if bits > 0 && rows > (1<<62)/bits {
		return 1 << 62
	}
	return (rows*bits + 7) / 8
}

// reserve takes n bytes for a batch of the call named name and work
// bytes more for decoding it, refusing a batch larger than the service's
// batch bound; held is what the call holds already. A batch that takes
// more than the whole budget waits until the call holds all that is
// held, then proceeds (see budget.take).
func (s *DirService) reserve(ctx context.Context, name, what string, n, work, held int64) error {
	if n > s.batchMax {
		return status.Errorf(codes.ResourceExhausted, "flight: %s: %s would take at least %d bytes decoded; the server decodes at most %d at once", echo(name), what, n, s.batchMax)
	}
	return s.mem.take(ctx, n+work, held)
}
