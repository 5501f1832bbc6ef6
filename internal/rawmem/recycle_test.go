package rawmem

import (
	"runtime"
	"testing"
	"time"
	"unsafe"
)

func TestSizeClass(t *testing.T) {
	prevClass, prevSize := -1, 0
	for n := recycleMin; n <= 64<<20; n += n/37 + 1 {
		class, size := sizeClass(n)
		if size < n || size > n+n/8+1 {
			t.Fatalf("n=%d: class size %d", n, size)
		}
		if class < prevClass || (class == prevClass) != (size == prevSize) {
			t.Fatalf("n=%d: class %d size %d after class %d size %d", n, class, size, prevClass, prevSize)
		}
		if classSize(class) != size {
			t.Fatalf("n=%d: classSize(%d) = %d, want %d", n, class, classSize(class), size)
		}
		if c2, s2 := sizeClass(size); c2 != class || s2 != size {
			t.Fatalf("n=%d: the class size %d is in class %d of size %d, not %d", n, size, c2, s2, class)
		}
		prevClass, prevSize = class, size
	}
	for _, n := range []int{recycleMin, recycleMax} {
		if _, size := sizeClass(n); size != n {
			t.Fatalf("power of two %d: class size %d", n, size)
		}
	}
}

// collectUntil runs the collector (and so the finalizers) until ok holds,
// for at most two seconds.
func collectUntil(ok func() bool) bool {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
		if ok() {
			return true
		}
	}
	return false
}

// TestRecycledOnceUnreachable: a buffer no one holds comes back.
func TestRecycledOnceUnreachable(t *testing.T) {
	const n = 1 << 20
	seen := map[uintptr]bool{}
	b := Aligned(n)
	seen[uintptr(unsafe.Pointer(&b[0]))] = true
	b = nil
	var held [][]byte // keep what the loop takes, so that each take is a new buffer
	if !collectUntil(func() bool {
		c := Aligned(n)
		held = append(held, c)
		return seen[uintptr(unsafe.Pointer(&c[0]))]
	}) {
		t.Fatal("a dropped buffer was never handed out again")
	}
	runtime.KeepAlive(held)
}

// TestNotRecycledWhileReferenced: a slice of a buffer's last bytes keeps
// the whole buffer from the pool, whatever is allocated meanwhile.
func TestNotRecycledWhileReferenced(t *testing.T) {
	Poison(true)
	defer Poison(false)
	const n = 512 << 10
	b := Aligned(n)
	for i := range b {
		b[i] = 7
	}
	tail := b[n-16:]
	lo, hi := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&b[0]))+n
	b = nil
	for round := range 20 {
		runtime.GC()
		time.Sleep(time.Millisecond)
		var got [][]byte
		for range 8 {
			c := Aligned(n)
			if p := uintptr(unsafe.Pointer(&c[0])); p >= lo && p < hi {
				t.Fatalf("round %d: a held buffer was handed out again", round)
			}
			got = append(got, c)
		}
		for i, x := range tail {
			if x != 7 {
				t.Fatalf("round %d: byte %d of the held tail changed to %#x", round, i, x)
			}
		}
		runtime.KeepAlive(got)
	}
	runtime.KeepAlive(tail)
}

// poolBytes is what the free lists hold.
func poolBytes() int {
	pool.Lock()
	defer pool.Unlock()
	return pool.bytes
}

// TestPoolBoundedAndEmptied: the free lists never hold more than poolMax
// bytes, and are emptied once nothing takes from them.
func TestPoolBoundedAndEmptied(t *testing.T) {
	const n = 1 << 20
	bufs := make([][]byte, 3*poolMax/n)
	for i := range bufs {
		bufs[i] = Aligned(n)
	}
	bufs = nil
	if !collectUntil(func() bool { return poolBytes() > 0 }) {
		t.Fatal("nothing reached the free lists")
	}
	if b := poolBytes(); b > poolMax {
		t.Fatalf("the free lists hold %d bytes, more than %d", b, poolMax)
	}
	if !collectUntil(func() bool { return poolBytes() == 0 }) {
		t.Fatalf("the free lists still hold %d bytes after collections that took nothing", poolBytes())
	}
}
