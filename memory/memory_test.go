package memory

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func TestAllocateAlignedPaddedZeroed(t *testing.T) {
	for _, n := range []int{0, 1, 7, 63, 64, 65, 1000, 4096, 32 << 10, 1<<20 + 3} {
		b := DefaultAllocator.Allocate(n)
		require.Len(t, b, n)
		require.Zero(t, cap(b)%Alignment, "cap %d for n=%d", cap(b), n)
		require.GreaterOrEqual(t, cap(b), n)
		full := b[:cap(b)]
		require.Zero(t, uintptr(unsafe.Pointer(&full[0]))%Alignment, "n=%d", n)
		for i, v := range full {
			if v != 0 {
				t.Fatalf("n=%d: byte %d not zero", n, i)
			}
		}
	}
}

func TestAllocateNegativePanics(t *testing.T) {
	require.Panics(t, func() { DefaultAllocator.Allocate(-1) })
}

func TestBufferViewAndSlice(t *testing.T) {
	src := []int32{1, 2, 3, 4}
	buf := FromSlice(src)
	require.Equal(t, 16, buf.Len())
	require.Equal(t, src, View[int32](buf))
	s := buf.Slice(4, 8)
	require.Equal(t, []int32{2, 3}, View[int32](s))
	View[int32](s)[0] = 20
	require.Equal(t, int32(20), src[1], "views share memory")
	require.Panics(t, func() { buf.Slice(10, 8) })
	var nilBuf *Buffer
	require.Zero(t, nilBuf.Len())
	require.Nil(t, nilBuf.Bytes())
	require.Nil(t, View[int64](nilBuf))
	require.Len(t, ViewBytes[int64](make([]byte, 15)), 1, "partial element dropped")
}

func TestBufferSliceAll(t *testing.T) {
	region := &[1]int{7}
	buf := NewBufferOwned([]byte("abcdefgh"), region)
	got := buf.SliceAll([][2]int{{0, 3}, {3, 0}, {3, 5}, {8, 0}})
	require.Len(t, got, 4)
	for i, want := range []string{"abc", "", "defgh", ""} {
		require.Equal(t, want, string(got[i].Bytes()), "view %d", i)
		require.Equal(t, len(want), cap(got[i].Bytes()), "view %d reaches past its range", i)
		require.Same(t, region, got[i].Owner().(*[1]int))
	}
	require.Same(t, &buf.Bytes()[3], &got[2].Bytes()[0], "views share memory")
	require.Panics(t, func() { buf.SliceAll([][2]int{{0, 1}, {6, 3}}) })
	require.Empty(t, buf.SliceAll(nil))
}

func TestAccountingAllocator(t *testing.T) {
	a := NewAccountingAllocator()
	keep := a.Allocate(100)
	func() {
		for range 10 {
			_ = a.Allocate(1000)
		}
	}()
	st := a.Stats()
	require.EqualValues(t, 11, st.Allocations)
	require.EqualValues(t, 10100, st.Allocated)
	require.GreaterOrEqual(t, st.Peak, int64(100))
	// Garbage is reclaimed eventually; Outstanding falls back to what is kept.
	deadline := time.Now().Add(5 * time.Second)
	for a.Stats().Outstanding > 100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	require.EqualValues(t, 100, a.Stats().Outstanding)
	runtime.KeepAlive(keep)
}

func TestMapFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	want := []byte("hello, mapped world")
	require.NoError(t, os.WriteFile(path, want, 0o644))
	r, err := MapFile(path)
	require.NoError(t, err)
	require.Equal(t, want, r.Bytes())
	b := r.Buffer(7, 6)
	require.Equal(t, "mapped", string(b.Bytes()))
	require.Same(t, r, b.Owner())
	require.Panics(t, func() { r.Buffer(10, 100) })

	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	r, err = MapFile(empty)
	require.NoError(t, err)
	require.Zero(t, r.Len())

	_, err = MapFile(filepath.Join(dir, "missing"))
	require.ErrorContains(t, err, "missing")
}

func TestMappedBufferOutlivesRegionReference(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, make([]byte, 1<<16), 0o644))
	r, err := MapFile(path)
	require.NoError(t, err)
	b := r.Buffer(100, 10)
	r = nil
	for range 3 {
		runtime.GC()
	}
	// Reading would fault if the buffer's region had been unmapped.
	require.Equal(t, make([]byte, 10), b.Bytes())
}

// TestMapFileBoundsLiveMappings maps many files, dropping every region:
// the live mappings must stay bounded (MapFile collects once a threshold
// is reached), not grow with the number of files mapped.
func TestMapFileBoundsLiveMappings(t *testing.T) {
	saved := minGCMappings
	minGCMappings = 64
	defer func() { minGCMappings = saved }()
	gcMappings.Store(0)
	dir := t.TempDir()
	runtime.GC()
	base := liveMappings.Load()
	peak := int64(0)
	for i := range 3 * minGCMappings {
		path := filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(path, []byte("mapped bytes"), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := MapFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(r.Bytes()) != "mapped bytes" {
			t.Fatalf("read %q", r.Bytes())
		}
		peak = max(peak, liveMappings.Load()-base)
	}
	if peak > 2*minGCMappings+8 {
		t.Fatalf("%d mappings alive at once", peak)
	}
}

// TestMapFileSharesLiveMapping maps a file twice while the first region is
// alive (one mapping), then after the file is replaced (a new mapping with
// the new bytes).
func TestMapFileSharesLiveMapping(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no mappings here")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatal("a live mapping of an unchanged file was not shared")
	}
	// Replace the file (a new inode), as writers that rename into place do.
	tmp := filepath.Join(dir, "g")
	if err := os.WriteFile(tmp, []byte("second!"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	c, err := MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c == a || string(c.Bytes()) != "second!" || string(a.Bytes()) != "first" {
		t.Fatalf("after replacing: shared %v, new %q, old %q", c == a, c.Bytes(), a.Bytes())
	}
	runtime.KeepAlive(a)
}

// TestConcurrentMapFile maps a few files from several goroutines while
// collections unmap the regions that went out of use (run it with -race):
// the table of live mappings is shared by all of them.
func TestConcurrentMapFile(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(p, bytes.Repeat([]byte{byte('a' + i)}, 4096*(i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 60 {
				i := (g + k) % len(paths)
				r, err := MapFile(paths[i])
				if err != nil {
					errs <- err
					return
				}
				b := r.Bytes()
				if len(b) != 4096*(i+1) || b[0] != byte('a'+i) || b[len(b)-1] != byte('a'+i) {
					errs <- fmt.Errorf("goroutine %d: file %d mapped as %d bytes starting %q", g, i, len(b), b[:min(len(b), 1)])
					return
				}
				if k%10 == 0 {
					runtime.GC()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
