//go:build cgo

package cdata

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/cdata/internal/ctest"
	"github.com/alkaid-go/alkaid/datatype"
)

// The graph formats the tests below use (indexes of ctest's table).
const (
	graphInt32  = 1
	graphStruct = 3
)

// dag is a chain of depth struct nodes, each with width children that are
// all the next node, ending in an int32: depth+1 nodes that a reader
// visiting per reference sees as width^depth leaves.
func dag(depth, width int, metadata bool) []ctest.Node {
	nodes := make([]ctest.Node, depth+1)
	for i := range depth {
		kids := make([]int, width)
		for k := range kids {
			kids[k] = i + 1
		}
		nodes[i] = ctest.Node{Format: graphStruct, Length: 1, Children: kids, Dictionary: -1, Metadata: metadata}
	}
	nodes[depth] = ctest.Node{Format: graphInt32, Length: 1, Dictionary: -1, Metadata: metadata}
	return nodes
}

// produceGraph returns a producer's schema and array of nodes; the caller
// frees the structs (the import releases them).
func produceGraph(nodes []ctest.Node, metadataLen int) (*ArrowSchema, *ArrowArray) {
	s, a := NewArrowSchema(), NewArrowArray()
	ctest.ProduceGraph(unsafe.Pointer(s), unsafe.Pointer(a), nodes, metadataLen)
	return s, a
}

// measure runs fn and returns the time it took and the bytes it allocated.
func measure(fn func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	fn()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return took, after.TotalAlloc - before.TotalAlloc
}

// A schema whose struct nodes share their children (a DAG of depth 20 took
// 2.8 s, depth 22 1.3 GB, depth 40 died): the import counts nodes once
// per reference and stops at its limit with ErrLimit, in time and memory
// proportional to the limit; a small DAG imports, as a tree.
func TestImportSharedChildrenBounded(t *testing.T) {
	for _, depth := range []int{22, 40, 62} {
		s, a := produceGraph(dag(depth, 2, false), 0)
		var err error
		took, alloc := measure(func() { _, err = ImportField(s) })
		require.ErrorIs(t, err, ErrLimit, "depth %d", depth)
		require.Contains(t, err.Error(), "more than 262144 nodes")
		t.Logf("depth %d: %v, %d MB allocated: %v", depth, took, alloc>>20, err)
		require.Less(t, alloc, uint64(256<<20), "depth %d", depth)
		ReleaseArray(a)
		Free(s)
		Free(a)
	}
	// A lower limit stops sooner; within it the DAG reads as the tree it
	// stands for.
	s, a := produceGraph(dag(12, 2, false), 0)
	_, err := ImportField(s, WithMaxNodes(1000))
	require.ErrorIs(t, err, ErrLimit)
	ReleaseArray(a)
	Free(s)
	Free(a)

	s, a = produceGraph(dag(4, 2, false), 0)
	f, arr, err := ImportArray(a, s)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(f.Type.String(), "struct<c: struct<c: struct<c: struct<c: int32, c: int32>, c: struct<c: int32, c: int32>>, "), f.Type.String())
	require.Equal(t, 1, arr.Len())
	Free(s)
	Free(a)
}

// Arrays are bounded the same way: a type whose fields share one struct
// (cheap in Go) against an array whose children share theirs.
func TestImportSharedArrayChildrenBounded(t *testing.T) {
	depth := 40
	typ := datatype.DataType(datatype.Int32)
	for range depth {
		f := datatype.Field{Name: "c", Type: typ, Nullable: true}
		typ = datatype.StructOf(f, f)
	}
	s, a := produceGraph(dag(depth, 2, false), 0)
	ReleaseSchema(s)
	var err error
	took, alloc := measure(func() { _, err = ImportArrayOf(a, typ) })
	require.ErrorIs(t, err, ErrLimit)
	t.Logf("array depth %d: %v, %d MB allocated: %v", depth, took, alloc>>20, err)
	require.Less(t, alloc, uint64(256<<20))
	Free(s)
	Free(a)
}

// Metadata shared by every node counts once per reference too: 32k nodes
// pointing at one 4 KiB blob are 128 MiB of copies, over the whole
// import's 64 MiB.
func TestImportSharedMetadataBounded(t *testing.T) {
	s, a := produceGraph(dag(15, 2, true), 4<<10)
	var err error
	_, alloc := measure(func() { _, err = ImportField(s) })
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "metadata of all nodes together longer than")
	require.Less(t, alloc, uint64(256<<20))
	ReleaseArray(a)
	Free(s)
	Free(a)
}

// A producer's names and formats of any length come back cut in errors.
func TestImportLongNamesCutInErrors(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	nodes := dag(3, 1, false)
	nodes[3].Format = 0 // "n", replaced below
	s, a := produceGraph(nodes, 0)
	ReleaseArray(a)
	Free(a)
	leaf := s
	for range 3 {
		leaf = schemaChild(leaf, 0)
	}
	leaf.format = cstring(long)
	schemaChild(s, 0).name = cstring(long)
	_, err := ImportField(s)
	require.ErrorIs(t, err, ErrNotSupported)
	require.Less(t, len(err.Error()), 600, "%.300s", err.Error())
	Free(s)
}

// FuzzImportGraph builds a producer's schema and array graph from the
// bytes (up to 16 nodes of any format, children and dictionaries shared
// or cyclic) and imports it with the default limits: an error or a
// result, never a crash or a hang. Array buffers are zeros large enough
// for any node, which is what a producer of C data must guarantee.
func FuzzImportGraph(f *testing.F) {
	for _, seed := range graphSeeds {
		f.Add(seed)
	}
	f.Add([]byte{0, 3, 1, 2, 255, 1, 1, 0, 255})                         // a struct of itself
	f.Add([]byte{2, 3, 2, 2, 1, 1, 255, 3, 2, 2, 0, 0, 255, 1, 0, 0, 1}) // a cycle through two structs
	f.Fuzz(func(t *testing.T, b []byte) {
		nodes := graphFrom(b)
		if nodes == nil {
			return
		}
		s, a := produceGraph(nodes, 64)
		defer Free(s)
		defer Free(a)
		_, arr, err := ImportArray(a, s)
		if err == nil && arr == nil {
			t.Fatal("no array and no error")
		}
		if err != nil {
			requireKind(t, err)
		}
	})
}

// graphSeeds are graphs that import: an int32, a struct of two int32
// children sharing one node, an int32 dictionary-encoded utf8 with
// metadata, a list of int32.
var graphSeeds = [][]byte{
	{0, 1, 5, 0, 255},
	{1, 3, 5, 2, 1, 1, 255, 1, 5, 0, 255},
	{1, 1, 4, 0, 1, 2, 3, 0, 255},
	{1, 4, 3, 1, 1, 255, 1, 0, 0, 255},
}

// The fuzz seeds that should import do, as the trees they stand for.
func TestImportGraphSeeds(t *testing.T) {
	want := []string{"int32", "struct<c: int32, c: int32>", "dictionary<values=utf8, indices=int32>", "list<c: int32>"}
	for i, seed := range graphSeeds {
		s, a := produceGraph(graphFrom(seed), 64)
		f, arr, err := ImportArray(a, s)
		require.NoError(t, err, "seed %d", i)
		require.Equal(t, want[i], f.Type.String(), "seed %d", i)
		require.Equal(t, int(seed[2]), arr.Len(), "seed %d", i)
		Free(s)
		Free(a)
	}
}

// graphFrom reads nodes from b: a count, then per node a format, a
// length, a child count (0-3) with that many child indexes and a
// dictionary index (255: none; metadata when odd), all taken modulo the
// count.
func graphFrom(b []byte) []ctest.Node {
	if len(b) == 0 {
		return nil
	}
	n := 1 + int(b[0])%16
	b = b[1:]
	next := func() (int, bool) {
		if len(b) == 0 {
			return 0, false
		}
		v := int(b[0])
		b = b[1:]
		return v, true
	}
	nodes := make([]ctest.Node, n)
	for i := range nodes {
		format, ok1 := next()
		length, ok2 := next()
		kids, ok3 := next()
		if !ok1 || !ok2 || !ok3 {
			return nil
		}
		nd := ctest.Node{Format: format % ctest.GraphFormats, Length: length, Dictionary: -1}
		for range kids % 4 {
			c, ok := next()
			if !ok {
				return nil
			}
			nd.Children = append(nd.Children, c%n)
		}
		d, ok := next()
		if !ok {
			return nil
		}
		if d != 255 {
			nd.Dictionary = d % n
			nd.Metadata = d%2 == 1
		}
		nodes[i] = nd
	}
	return nodes
}
