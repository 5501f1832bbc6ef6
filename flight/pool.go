package flight

import (
	"math/bits"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/experimental"
)

// bufferPool is the gRPC buffer pool of this package's clients and
// servers. gRPC's default pool zeroes every buffer it hands out; on a
// Flight stream every buffer it takes is a received frame, read in full
// (io.ReadFull) before anything looks at it, or a buffer filled before it
// is sent, so the zeroing only costs: a tenth of the CPU time of a 1 GiB
// DoPut on loopback (measured with -cpuprofile). This pool keeps buffers
// of 256 B to 1 MiB in one sync.Pool per power of two and does not clear
// them; larger requests are allocated and left to the garbage collector.
type bufferPool struct {
	tiers [bufferTiers]sync.Pool
}

const (
	minBufferShift = 8  // 256 B
	maxBufferShift = 20 // 1 MiB
	bufferTiers    = maxBufferShift - minBufferShift + 1
)

var sharedPool = &bufferPool{}

// tier is the index of the smallest tier holding n bytes, or -1 when n
// is above the largest.
func tier(n int) int {
	if n <= 1<<minBufferShift {
		return 0
	}
	shift := bits.Len(uint(n - 1))
	if shift > maxBufferShift {
		return -1
	}
	return shift - minBufferShift
}

// Get returns a buffer of length n whose contents are not defined.
func (p *bufferPool) Get(n int) *[]byte {
	t := tier(n)
	if t < 0 {
		b := make([]byte, n)
		return &b
	}
	if v, ok := p.tiers[t].Get().(*[]byte); ok {
		*v = (*v)[:n]
		return v
	}
	b := make([]byte, n, 1<<(t+minBufferShift))
	return &b
}

// Put gives b back to the tier of its capacity; a buffer of another
// capacity (not from this pool) is dropped.
func (p *bufferPool) Put(b *[]byte) {
	c := cap(*b)
	t := tier(c)
	if t < 0 || c != 1<<(t+minBufferShift) {
		return
	}
	p.tiers[t].Put(b)
}

func poolDialOption() grpc.DialOption     { return experimental.WithBufferPool(sharedPool) }
func poolServerOption() grpc.ServerOption { return experimental.BufferPool(sharedPool) }
