package array

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// The tests of this file pin the behaviour the fast paths of the builders
// rely on: the bitmap is set from the length on (so a valid append does not
// touch it) and cleared past the length when finished, slots past the
// length hold zero, and every allocation comes from the configured
// allocator.

// recordingAllocator records the address range of everything it hands out.
type recordingAllocator struct {
	mu     sync.Mutex
	ranges [][2]uintptr
}

func (a *recordingAllocator) Allocate(n int) []byte {
	b := memory.DefaultAllocator.Allocate(n)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	a.mu.Lock()
	a.ranges = append(a.ranges, [2]uintptr{p, p + uintptr(cap(b))})
	a.mu.Unlock()
	return b
}

// owns reports whether b lies inside one allocation of a.
func (a *recordingAllocator) owns(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range a.ranges {
		if p >= r[0] && p+uintptr(len(b)) <= r[1] {
			return true
		}
	}
	return false
}

// checkBuffers checks that every buffer of d (and of its children) comes
// from a, and that validity bits past the length are clear up to the end of
// the buffer's capacity.
func checkBuffers(t *testing.T, a *recordingAllocator, d *Data, path string) {
	t.Helper()
	for i, buf := range d.Buffers {
		if buf == nil {
			continue
		}
		require.True(t, a.owns(buf.Bytes()), "%s buffer %d was not allocated by the builder's allocator", path, i)
	}
	if v := d.Buffers; len(v) > 0 && v[0] != nil && hasValidity(d.Type) {
		bm := v[0].Bytes()
		full := bm[:cap(bm)]
		for j := d.Offset + d.Length; j < 8*len(full); j++ {
			require.False(t, bitutil.GetBit(full, j), "%s: validity bit %d past the length %d is set", path, j, d.Length)
		}
	}
	for i, c := range d.Children {
		checkBuffers(t, a, c, fmt.Sprintf("%s.child[%d]", path, i))
	}
}

// hasValidity reports whether buffer 0 of arrays of t is a validity bitmap.
func hasValidity(t datatype.DataType) bool {
	switch datatype.StorageOf(t).Kind() {
	case datatype.KindNull, datatype.KindSparseUnion, datatype.KindDenseUnion, datatype.KindRunEndEncoded:
		return false
	}
	return true
}

// primOp is one step of a primitive builder script.
type primOp struct {
	kind  string // "append", "null", "nulls", "empty", "values", "reserve"
	n     int
	valid []bool // for "values": nil or one flag per value
}

// TestPrimitiveBuilderScripts runs scripts of appends against a model and
// checks the finished arrays, twice per builder (reuse after Finish), with
// the default allocator and with a recording one.
func TestPrimitiveBuilderScripts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	flags := func(n int, nullEvery int) []bool {
		v := make([]bool, n)
		for i := range v {
			v[i] = nullEvery == 0 || i%nullEvery != 0
		}
		return v
	}
	randFlags := func(n int) []bool {
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(4) != 0
		}
		return v
	}
	scripts := []struct {
		name string
		ops  []primOp
	}{
		{"empty", nil},
		{"appends across growth", []primOp{{kind: "append", n: 100}}},
		{"append after reserve", []primOp{{kind: "reserve", n: 50}, {kind: "append", n: 50}, {kind: "append", n: 3}}},
		{"reserve after appends", []primOp{{kind: "append", n: 7}, {kind: "reserve", n: 1000}, {kind: "append", n: 1000}}},
		{"null first", []primOp{{kind: "null"}, {kind: "append", n: 40}}},
		{"null at capacity", []primOp{{kind: "append", n: 32}, {kind: "null"}, {kind: "append", n: 1}}},
		{"nulls then appends across growth", []primOp{{kind: "append", n: 3}, {kind: "nulls", n: 5}, {kind: "append", n: 200}, {kind: "null"}}},
		{"mixed singles", []primOp{{kind: "append", n: 1}, {kind: "null"}, {kind: "empty", n: 2}, {kind: "append", n: 1}, {kind: "null"}, {kind: "null"}}},
		{"values without flags", []primOp{{kind: "values", n: 77}}},
		{"values all valid flags", []primOp{{kind: "values", n: 70, valid: flags(70, 0)}}},
		{"values every 10th null", []primOp{{kind: "append", n: 3}, {kind: "values", n: 300, valid: flags(300, 10)}}},
		{"values all null", []primOp{{kind: "values", n: 19, valid: make([]bool, 19)}}},
		{"values after nulls", []primOp{{kind: "null"}, {kind: "values", n: 64, valid: flags(64, 0)}, {kind: "append", n: 5}}},
		{"values random unaligned", []primOp{{kind: "append", n: 5}, {kind: "values", n: 123, valid: randFlags(123)}, {kind: "append", n: 9}, {kind: "values", n: 61, valid: randFlags(61)}, {kind: "null"}}},
		{"appends then null then values", []primOp{{kind: "append", n: 8}, {kind: "null"}, {kind: "values", n: 16}, {kind: "nulls", n: 17}, {kind: "append", n: 2}}},
	}
	for _, alloc := range []string{"default", "recording"} {
		for _, sc := range scripts {
			t.Run(alloc+"/"+sc.name, func(t *testing.T) {
				rec := &recordingAllocator{}
				var opts []BuilderOption
				if alloc == "recording" {
					opts = append(opts, WithAllocator(rec))
				}
				b := NewPrimitiveBuilder[int64](datatype.Int64, opts...)
				for round := range 2 { // the second round reuses the builder
					var want []int64
					var wantValid []bool
					next := int64(round * 1000)
					for _, op := range sc.ops {
						switch op.kind {
						case "append":
							for range op.n {
								next++
								b.Append(next)
								want, wantValid = append(want, next), append(wantValid, true)
							}
						case "null":
							b.AppendNull()
							want, wantValid = append(want, 0), append(wantValid, false)
						case "nulls":
							b.AppendNulls(op.n)
							for range op.n {
								want, wantValid = append(want, 0), append(wantValid, false)
							}
						case "empty":
							b.AppendEmptyValues(op.n)
							for range op.n {
								want, wantValid = append(want, 0), append(wantValid, true)
							}
						case "values":
							vs := make([]int64, op.n)
							for i := range vs {
								next++
								vs[i] = next
								ok := op.valid == nil || op.valid[i]
								wantValid = append(wantValid, ok)
								if ok {
									want = append(want, next)
								} else {
									want = append(want, 0)
								}
							}
							b.AppendValues(vs, op.valid)
						case "reserve":
							b.Reserve(op.n)
							require.GreaterOrEqual(t, cap(b.vals)-len(b.vals), op.n)
						}
						require.Equal(t, len(want), b.Len())
					}
					nulls := 0
					for _, ok := range wantValid {
						if !ok {
							nulls++
						}
					}
					require.Equal(t, nulls, b.NullN())
					for i := range want {
						require.Equal(t, want[i], b.Value(i), "builder value %d", i)
					}
					a := b.Finish()
					require.Zero(t, b.Len())
					require.Zero(t, b.NullN())
					require.NoError(t, Validate(a.Data(), ValidateFull))
					require.Equal(t, len(want), a.Len())
					require.Equal(t, nulls, a.NullN())
					if nulls == 0 {
						require.Nil(t, a.Data().Buffers[0], "no bitmap without nulls")
					}
					for i := range want {
						require.Equal(t, wantValid[i], a.IsValid(i), "slot %d validity", i)
						require.Equal(t, want[i], a.Value(i), "slot %d value", i)
					}
					// Slots past the length hold zero up to the capacity.
					vals := a.Data().Buffers[1].Bytes()
					for _, c := range vals[len(vals):cap(vals)] {
						require.Zero(t, c, "value bytes past the length")
					}
					if alloc == "recording" {
						checkBuffers(t, rec, a.Data(), "array")
					}
				}
			})
		}
	}
}

// TestBuilderTruncateKeepsBitmapSet truncates (through run-end encoding,
// which merges equal neighbours) and appends again: the slots appended
// after the truncation are valid unless appended as null.
func TestBuilderTruncateKeepsBitmapSet(t *testing.T) {
	b := NewPrimitiveBuilder[int64](datatype.Int64)
	b.Append(1)
	b.AppendNull()
	b.AppendNull()
	b.Append(4)
	b.truncate(1)
	require.Equal(t, 1, b.Len())
	require.Zero(t, b.NullN())
	b.Append(5)
	b.AppendNull()
	b.Append(6)
	a := b.Finish()
	require.Equal(t, "[1 5 (null) 6]", a.String())
	require.Equal(t, 1, a.NullN())
}

// TestEveryBuilderValidityTail builds every type with nulls at lengths
// around byte boundaries through the Builder interface and checks the
// finished bitmaps: right bits, nothing set past the length, and every
// buffer from the builder's allocator.
func TestEveryBuilderValidityTail(t *testing.T) {
	for _, tt := range builderTypeTable {
		t.Run(tt.t.String(), func(t *testing.T) {
			rec := &recordingAllocator{}
			b := NewBuilder(tt.t, WithAllocator(rec))
			for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 40, 65} {
				for i := range n {
					if i%3 == 1 {
						b.AppendNull()
					} else {
						b.AppendEmptyValue()
					}
				}
				a := b.NewArray()
				require.NoError(t, Validate(a.Data(), ValidateFull))
				require.Equal(t, n, a.Len())
				if !hasValidity(tt.t) {
					continue
				}
				for i := range n {
					require.Equal(t, i%3 == 1, a.IsNull(i), "length %d slot %d", n, i)
				}
				checkBuffers(t, rec, a.Data(), "array")
			}
		})
	}
}

// TestBinaryBuilderScripts runs scripts of single and bulk appends of
// strings and byte slices, with and without flags, against a model; each
// builder is finished twice (reuse), with the default allocator and a
// recording one, for 32- and 64-bit offsets.
func TestBinaryBuilderScripts(t *testing.T) {
	type op struct {
		kind  string // "str", "bytes", "null", "nulls", "empty", "strs", "values", "reserve", "reserveData"
		vs    []string
		valid []bool
		n     int
	}
	long := strings.Repeat("x", 300) // more than the first data allocation
	scripts := []struct {
		name string
		ops  []op
	}{
		{"empty", nil},
		{"singles across growth", []op{{kind: "str", vs: []string{"a", "", "bc", long, "d"}}}},
		{"bytes", []op{{kind: "bytes", vs: []string{"x", long, ""}}}},
		{"null first", []op{{kind: "null"}, {kind: "str", vs: []string{"a", "b"}}}},
		{"nulls and empties", []op{{kind: "str", vs: []string{"a"}}, {kind: "nulls", n: 9}, {kind: "empty", n: 3}, {kind: "str", vs: []string{"z"}}}},
		{"bulk strings", []op{{kind: "strs", vs: []string{"ab", "", "cde", long}}}},
		{"bulk with flags", []op{{kind: "str", vs: []string{"q"}}, {kind: "strs", vs: []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}, valid: []bool{true, false, true, true, true, true, true, true, false, true, false}}}},
		{"bulk all valid flags", []op{{kind: "values", vs: []string{"a", "b", long}, valid: []bool{true, true, true}}}},
		{"bulk all null", []op{{kind: "strs", vs: []string{"a", "b"}, valid: []bool{false, false}}}},
		{"bulk empty", []op{{kind: "strs", vs: []string{}}, {kind: "values", vs: nil}}},
		{"reserved", []op{{kind: "reserve", n: 10}, {kind: "reserveData", n: 50}, {kind: "str", vs: []string{"0123456789", "abc"}}, {kind: "strs", vs: []string{long}}}},
		{"mixed", []op{{kind: "strs", vs: []string{"a", "b"}}, {kind: "null"}, {kind: "bytes", vs: []string{"c"}}, {kind: "values", vs: []string{"d", long, "e"}, valid: []bool{false, true, true}}, {kind: "str", vs: []string{"f"}}}},
	}
	for _, alloc := range []string{"default", "recording"} {
		for _, sc := range scripts {
			for _, wide := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/large=%v", alloc, sc.name, wide), func(t *testing.T) {
					rec := &recordingAllocator{}
					var opts []BuilderOption
					if alloc == "recording" {
						opts = append(opts, WithAllocator(rec))
					}
					var b binaryScriptBuilder
					if wide {
						b = NewBinaryBuilder[int64](datatype.LargeString, opts...)
					} else {
						b = NewBinaryBuilder[int32](datatype.String, opts...)
					}
					for range 2 { // the second round reuses the builder
						var want []string
						var wantValid []bool
						add := func(s string, ok bool) {
							if !ok {
								s = ""
							}
							want, wantValid = append(want, s), append(wantValid, ok)
						}
						for _, o := range sc.ops {
							switch o.kind {
							case "str":
								for _, s := range o.vs {
									b.AppendString(s)
									add(s, true)
								}
							case "bytes":
								for _, s := range o.vs {
									b.Append([]byte(s))
									add(s, true)
								}
							case "null":
								b.AppendNull()
								add("", false)
							case "nulls":
								b.AppendNulls(o.n)
								for range o.n {
									add("", false)
								}
							case "empty":
								b.AppendEmptyValues(o.n)
								for range o.n {
									add("", true)
								}
							case "strs", "values":
								if o.kind == "strs" {
									b.AppendStrings(o.vs, o.valid)
								} else {
									vs := make([][]byte, len(o.vs))
									for i, s := range o.vs {
										vs[i] = []byte(s)
									}
									b.AppendValues(vs, o.valid)
								}
								for i, s := range o.vs {
									add(s, o.valid == nil || o.valid[i])
								}
							case "reserve":
								b.Reserve(o.n)
							case "reserveData":
								b.ReserveData(o.n)
							}
							require.Equal(t, len(want), b.Len())
						}
						total, nulls := 0, 0
						for i, s := range want {
							total += len(s)
							if !wantValid[i] {
								nulls++
							}
							require.Equal(t, s, string(b.Value(i)), "builder value %d", i)
						}
						require.Equal(t, total, b.DataLen())
						require.Equal(t, nulls, b.NullN())
						a := b.NewArray()
						require.Zero(t, b.Len())
						require.Zero(t, b.DataLen())
						require.NoError(t, Validate(a.Data(), ValidateFull))
						require.Equal(t, len(want), a.Len())
						require.Equal(t, nulls, a.NullN())
						for i, s := range want {
							require.Equal(t, wantValid[i], a.IsValid(i), "slot %d validity", i)
							var got string
							switch a := a.(type) {
							case *Binary[int32]:
								got = a.ValueString(i)
							case *Binary[int64]:
								got = a.ValueString(i)
							}
							require.Equal(t, s, got, "slot %d", i)
						}
						data := a.Data().Buffers[2].Bytes()
						for _, c := range data[len(data):cap(data)] {
							require.Zero(t, c, "data bytes past the end")
						}
						if alloc == "recording" {
							checkBuffers(t, rec, a.Data(), "array")
						}
					}
				})
			}
		}
	}
}

// binaryScriptBuilder is what TestBinaryBuilderScripts needs of both
// offset widths.
type binaryScriptBuilder interface {
	Builder
	AppendString(string)
	Append([]byte)
	AppendStrings([]string, []bool)
	AppendValues([][]byte, []bool)
	ReserveData(int)
	DataLen() int
	Value(int) []byte
}

// TestBytesWith checks the growing allocation at sizes on both sides of
// the append path of the default allocator: contents, zeros up to the
// capacity, alignment and padding; other allocators see every allocation.
func TestBytesWith(t *testing.T) {
	pattern := func(n int, seed byte) []byte {
		p := make([]byte, n)
		for i := range p {
			p[i] = seed + byte(i*7)
		}
		return p
	}
	cases := []struct{ n, head, tail int }{
		{0, 0, 0},
		{100, 10, 20},
		{64 << 10, 0, 0},
		{64 << 10, 32 << 10, 0},               // doubling: head copied, the rest zero
		{64 << 10, 0, 64 << 10},               // bulk append into a fresh builder: exactly the tail
		{64<<10 + 3, 1000, 64<<10 + 3 - 1000}, // exact, not a multiple of 64
		{1 << 20, 100 << 10, 50 << 10},        // head and tail, room left over
		{40 << 10, 0, 1},
	}
	for _, alloc := range []string{"default", "accounting"} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%d/%d/%d", alloc, c.n, c.head, c.tail), func(t *testing.T) {
				acc := memory.NewAccountingAllocator()
				cfg := newConfig(nil)
				if alloc == "accounting" {
					cfg = newConfig([]BuilderOption{WithAllocator(acc)})
				}
				head, tail := pattern(c.head, 1), pattern(c.tail, 100)
				b := cfg.bytesWith(c.n, head, tail)
				require.GreaterOrEqual(t, len(b), c.n)
				require.Zero(t, len(b)%memory.Alignment, "padded")
				require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(b)))%memory.Alignment, "aligned")
				require.Equal(t, len(b), cap(b), "returned at full capacity")
				require.Equal(t, head, b[:c.head])
				require.Equal(t, tail, b[c.head:c.head+c.tail])
				for i, v := range b[c.head+c.tail:] {
					if v != 0 {
						t.Fatalf("byte %d past the contents is %d", c.head+c.tail+i, v)
					}
				}
				if alloc == "accounting" {
					require.Equal(t, int64(1), acc.Stats().Allocations)
				}
			})
		}
	}
}

// TestLargeBuilders grows builders well past the sizes at which the
// default allocator's append path is taken, through single and bulk
// appends, and checks every value.
func TestLargeBuilders(t *testing.T) {
	const n = 100_000
	vs := make([]int64, n)
	valid := make([]bool, n)
	for i := range vs {
		vs[i] = int64(i)*3 + 1
		valid[i] = i%7 != 0
	}
	check := func(t *testing.T, a *Primitive[int64], flags []bool, offset int) {
		t.Helper()
		require.NoError(t, Validate(a.Data(), ValidateFull))
		for i := range n {
			ok := flags == nil || flags[i]
			want := vs[i]
			if !ok {
				want = 0
			}
			if a.IsValid(offset+i) != ok || a.Value(offset+i) != want {
				t.Fatalf("slot %d: %v %d, want %v %d", offset+i, a.IsValid(offset+i), a.Value(offset+i), ok, want)
			}
		}
	}
	t.Run("append", func(t *testing.T) {
		b := NewPrimitiveBuilder[int64](datatype.Int64)
		for _, v := range vs {
			b.Append(v)
		}
		check(t, b.Finish(), nil, 0)
	})
	t.Run("values fresh", func(t *testing.T) {
		b := NewPrimitiveBuilder[int64](datatype.Int64)
		b.AppendValues(vs, nil)
		check(t, b.Finish(), nil, 0)
	})
	t.Run("values after some", func(t *testing.T) {
		b := NewPrimitiveBuilder[int64](datatype.Int64)
		for _, v := range vs[:5000] {
			b.Append(v)
		}
		b.AppendValues(vs, valid)
		b.AppendValues(vs, nil)
		a := b.Finish()
		require.Equal(t, 5000+2*n, a.Len())
		check(t, a, valid, 5000)
		check(t, a, nil, 5000+n)
	})
	t.Run("strings", func(t *testing.T) {
		strs := make([]string, n)
		for i := range strs {
			strs[i] = fmt.Sprint("value-", i)
		}
		for _, bulk := range []bool{false, true} {
			b := NewBinaryBuilder[int32](datatype.String)
			if bulk {
				b.AppendStrings(strs[:10], nil)
				b.AppendStrings(strs[10:], valid[10:])
			} else {
				for i, s := range strs {
					if valid[i] || i < 10 {
						b.AppendString(s)
					} else {
						b.AppendNull()
					}
				}
			}
			a := b.Finish()
			require.NoError(t, Validate(a.Data(), ValidateFull))
			for i, s := range strs {
				ok := valid[i] || i < 10
				if !ok {
					s = ""
				}
				require.Equal(t, ok, a.IsValid(i))
				require.Equal(t, s, a.ValueString(i))
			}
		}
	})
}

// TestBytesWithSize checks that growing by the append path gives the
// capacity asked for (padded), not append's own growth factor: builders
// doubling from a power of two stay at powers of two.
func TestBytesWithSize(t *testing.T) {
	cfg := newConfig(nil)
	for _, c := range []struct{ n, head, tail int }{
		{64 << 10, 32 << 10, 0},
		{8 << 20, 4 << 20, 0},
		{8 << 20, 4 << 20, 4 << 20},
		{8 << 20, 0, 8 << 20},
		{3 << 20, 1 << 20, 1 << 20},
		{100_001, 50_000, 0},
	} {
		b := cfg.bytesWith(c.n, make([]byte, c.head), make([]byte, c.tail))
		require.Equal(t, memory.RoundUp(c.n), len(b), "n %d head %d tail %d", c.n, c.head, c.tail)
	}
}

// TestPrimitiveAppendInlines asks the compiler whether the primitive
// builder's Append is still inlinable: its speed in callers' loops depends
// on it, and a few more nodes in its body would silently lose it.
func TestPrimitiveAppendInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", "-o", os.DevNull, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(string(out), "\n")
	for _, shape := range []string{"int8", "int32", "int64", "float64", "[4]uint64"} {
		want := fmt.Sprintf("can inline (*PrimitiveBuilder[go.shape.%s]).Append", shape)
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasSuffix(l, want) }) {
			t.Errorf("(*PrimitiveBuilder[%s]).Append is no longer inlinable (go build -gcflags=-m=2 ./array says why)", shape)
		}
	}
}
