package rawmem

import (
	"math/bits"
	"runtime"
	"sync"
	"unsafe"
)

// Large buffers are recycled once the collector has found them
// unreachable. A scan hands out arrays of hundreds of kilobytes to a
// consumer that usually drops them soon after; freed by the collector,
// their pages go back to the operating system and the next arrays fault
// fresh pages in again, and a small live heap makes the collector run
// every few megabytes (on a two-core machine the two together took a
// third of a dataset scan's time). A finalizer on each recycled buffer
// instead puts it, unreachable but still allocated, on a free list of
// its size class, from which the next buffer of that class is taken.
// The collector still decides when a buffer is free: any pointer into
// it, a slice or a string of its bytes, keeps it off the list. The
// lists hold at most poolMax bytes, and a buffer not taken again within
// two collections is dropped (freed by the next), so an idle program
// keeps none of it (the runtime collects at least every two minutes).

// recycleMin is the smallest buffer recycled; smaller ones come from the
// runtime's size classes, which reuse their memory already.
const recycleMin = 256 << 10

// recycleMax is the largest buffer recycled.
const recycleMax = 1 << 30

// poolMax bounds the bytes the free lists hold.
var poolMax = 32 << 20

// A class is a size range of a power of two's eighth: class sizes are
// 2^e + k*2^(e-3) for k in 1..8.
const classesPerDouble = 8

const numClasses = 31 * classesPerDouble // classes up to recycleMax

// pool is the free lists: those filled since the last collection (new)
// and those of the one before (old), dropped at the next.
var pool struct {
	sync.Mutex
	new, old [numClasses][]*byte
	bytes    int // held on both
}

var recyclers [numClasses]func(*byte)

func init() {
	for c := range recyclers {
		recyclers[c] = func(p *byte) { put(c, p) }
	}
	runtime.SetFinalizer(new(cycle), onCycle)
}

// sizeClass returns the class of n bytes (recycleMin <= n <= recycleMax)
// and its size, at most an eighth more than n.
func sizeClass(n int) (class, size int) {
	e := bits.Len(uint(n-1)) - 1 // 2^e < n <= 2^(e+1)
	step := 1 << (e - 3)
	k := (n - 1<<e + step - 1) / step // 1..8
	return e*classesPerDouble + k - 1, 1<<e + k*step
}

// put is the finalizer of a buffer of class c at p: it goes on the free
// list unless the lists are full, and is then freed by the next
// collection.
func put(c int, p *byte) {
	size := classSize(c)
	pool.Lock()
	defer pool.Unlock()
	if pool.bytes+size <= poolMax {
		pool.new[c] = append(pool.new[c], p)
		pool.bytes += size
	}
}

// classSize is the size of class c.
func classSize(c int) int {
	e, k := c/classesPerDouble, c%classesPerDouble+1
	return 1<<e + k*(1<<(e-3))
}

// recycled returns at least n bytes (recycleMin <= n <= recycleMax) at a
// page boundary, from the free list of their class or newly allocated,
// with the finalizer that returns them to it; nil when the runtime gave
// memory not on a page (then the caller allocates as it would).
func recycled(n int) []byte {
	class, size := sizeClass(n)
	var p *byte
	pool.Lock()
	for _, lists := range []*[numClasses][]*byte{&pool.new, &pool.old} {
		if l := lists[class]; len(l) > 0 {
			p = l[len(l)-1]
			l[len(l)-1] = nil
			lists[class] = l[:len(l)-1]
			pool.bytes -= size
			break
		}
	}
	full := pool.bytes >= poolMax/2
	pool.Unlock()
	if p == nil {
		p = (*byte)(mallocgc(uintptr(size), nil, false))
		if uintptr(unsafe.Pointer(p))%Align != 0 {
			return nil
		}
		if full {
			// The lists hold plenty that fits no request: a finalizer
			// would only keep this buffer a collection longer.
			return unsafe.Slice(p, size)
		}
	}
	runtime.SetFinalizer(p, recyclers[class])
	return unsafe.Slice(p, size)
}

// cycle is an object whose finalizer runs once per collection (a
// pointer in it keeps it out of the tiny allocator's shared blocks).
type cycle struct{ _ *byte }

// onCycle drops the old free lists, makes the new ones old, and arms
// itself for the next collection.
func onCycle(c *cycle) {
	pool.Lock()
	for class, l := range pool.old {
		if len(l) > 0 {
			pool.bytes -= len(l) * classSize(class)
		}
	}
	pool.old, pool.new = pool.new, [numClasses][]*byte{}
	pool.Unlock()
	runtime.SetFinalizer(c, onCycle)
}

// Pooled is the bytes on the free lists: memory the program keeps for
// reuse, at most 32 MiB, which a test measuring what an operation holds
// subtracts from the heap.
func Pooled() uint64 {
	pool.Lock()
	defer pool.Unlock()
	return uint64(pool.bytes)
}
