package chunkpipe_test

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/internal/chunkpipe"
)

// numbers is a Source of n chunks, "0", "1", …, whose line is the index;
// failAt makes chunk failAt an error of cutting instead.
func numbers(n, failAt int) chunkpipe.Source {
	i := 0
	return func() ([]byte, int, error) {
		if i == n {
			return nil, 0, io.EOF
		}
		i++
		if i-1 == failAt {
			return nil, i - 1, errors.New("cut failed")
		}
		return []byte(strconv.Itoa(i - 1)), i - 1, nil
	}
}

// parseSlowly parses a chunk as a number, taking longer for the early
// chunks so that later ones finish first; badAt fails one chunk.
func parseSlowly(badAt int) chunkpipe.Parser[int] {
	return func(chunk []byte, line int) (int, error) {
		v, err := strconv.Atoi(string(chunk))
		if err != nil {
			return 0, err
		}
		if v != line {
			return 0, fmt.Errorf("chunk %d has line %d", v, line)
		}
		time.Sleep(time.Duration((v*7)%5) * 100 * time.Microsecond)
		if v == badAt {
			return 0, fmt.Errorf("line %d: bad", line)
		}
		return v, nil
	}
}

func TestRunParallelOrderAndErrors(t *testing.T) {
	for _, c := range []struct {
		name             string
		n, failAt, badAt int
		workers          int
		wantN            int
		wantErr          string
	}{
		{"one worker", 50, -1, -1, 1, 50, ""},
		{"four workers", 200, -1, -1, 4, 200, ""},
		{"zero workers means one", 10, -1, -1, 0, 10, ""},
		{"empty input", 0, -1, -1, 3, 0, ""},
		{"cut error", 100, 37, -1, 4, 37, "cut failed"},
		{"parse error", 100, -1, 61, 4, 61, "line 61: bad"},
		{"first error wins", 100, 80, 20, 3, 20, "line 20: bad"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cut := 0
			p := chunkpipe.Pipeline[int]{Workers: c.workers, Next: numbers(c.n, c.failAt), Parse: parseSlowly(c.badAt),
				Cut: func(n int) { cut += n }}
			var got []int
			var errs []error
			for v, err := range p.Run() {
				if err != nil {
					errs = append(errs, err)
					require.Zero(t, v)
					continue
				}
				require.Empty(t, errs, "a batch after the error")
				got = append(got, v)
			}
			require.Len(t, got, c.wantN)
			for i, v := range got {
				require.Equal(t, i, v, "batches out of order")
			}
			if c.wantErr == "" {
				require.Empty(t, errs)
				want := 0
				for i := range c.n {
					want += len(strconv.Itoa(i))
				}
				require.Equal(t, want, cut, "Cut sees every chunk")
			} else {
				require.Len(t, errs, 1)
				require.EqualError(t, errs[0], c.wantErr)
			}
		})
	}
}

// TestRunLowestError: of two chunks that fail, the earlier one's error is
// yielded even when the later one fails first in time, as a serial run
// would report.
func TestRunLowestError(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		p := chunkpipe.Pipeline[int]{Workers: workers, Next: numbers(20, -1),
			Parse: func(chunk []byte, line int) (int, error) {
				switch line {
				case 3:
					time.Sleep(20 * time.Millisecond)
					return 0, errors.New("chunk 3 failed")
				case 5:
					return 0, errors.New("chunk 5 failed")
				}
				return line, nil
			}}
		var got []int
		var errs []error
		for v, err := range p.Run() {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			got = append(got, v)
		}
		if len(errs) != 1 || errs[0].Error() != "chunk 3 failed" || len(got) != 3 {
			t.Fatalf("%d workers: batches %v, errors %v; want 0-2 then chunk 3's error", workers, got, errs)
		}
	}
}

func TestRunSkip(t *testing.T) {
	p := chunkpipe.Pipeline[int]{Workers: 2, Next: numbers(20, -1), Parse: parseSlowly(-1), Skip: func(v int) bool { return v%3 == 0 }}
	var got []int
	for v, err := range p.Run() {
		require.NoError(t, err)
		got = append(got, v)
	}
	require.Equal(t, []int{1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19}, got)
}

// Stopping the loop early stops cutting and parsing: no goroutine stays.
func TestRunParallelStopsEarly(t *testing.T) {
	before := runtime.NumGoroutine()
	var cuts atomic.Int64
	endless := func() ([]byte, int, error) {
		n := int(cuts.Add(1)) - 1
		return []byte(strconv.Itoa(n)), n, nil
	}
	p := chunkpipe.Pipeline[int]{Workers: 4, Next: endless, Parse: parseSlowly(-1)}
	n := 0
	for range p.Run() {
		if n++; n == 5 {
			break
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left running")
	require.Less(t, cuts.Load(), int64(5+3*4+2), "cut far ahead of the consumer")
}

func ExamplePipeline() {
	lines := strings.Split("a b c\nd e\nf", "\n")
	i := 0
	p := chunkpipe.Pipeline[int]{
		Workers: 2,
		Next: func() ([]byte, int, error) {
			if i == len(lines) {
				return nil, 0, io.EOF
			}
			i++
			return []byte(lines[i-1]), i, nil
		},
		Parse: func(chunk []byte, line int) (int, error) { return len(strings.Fields(string(chunk))), nil },
	}
	for words, err := range p.Run() {
		fmt.Println(words, err)
	}
	// Output:
	// 3 <nil>
	// 2 <nil>
	// 1 <nil>
}

// TestBufferFill: the first read is small, later ones at least a block,
// growth is bounded by Max, and a chunk taken cannot reach the bytes
// after it.
func TestBufferFill(t *testing.T) {
	b := chunkpipe.Buffer{R: strings.NewReader(strings.Repeat("x", 10<<20)), Block: 1 << 20, Max: 2 << 20}
	if err := b.Fill(); err != nil || len(b.Pend) != 64<<10 {
		t.Fatalf("first fill: %d bytes, %v", len(b.Pend), err)
	}
	// Growing by twice what is held (at least a block), then by Max at
	// most.
	want := []int{1<<20 + 64<<10, 3<<20 + 64<<10, 5<<20 + 64<<10, 7<<20 + 64<<10}
	for _, w := range want {
		if err := b.Fill(); err != nil || len(b.Pend) != w {
			t.Fatalf("fill: %d bytes, want %d, %v", len(b.Pend), w, err)
		}
	}
	chunk := b.Take(10)
	if cap(chunk) != 10 || len(b.Pend) != want[len(want)-1]-10 {
		t.Fatalf("take: cap %d, %d left", cap(chunk), len(b.Pend))
	}
	for !b.EOF {
		if err := b.Fill(); err != nil {
			t.Fatal(err)
		}
	}
	if len(b.Pend) != 10<<20-10 {
		t.Fatalf("%d bytes at EOF", len(b.Pend))
	}
	fail := chunkpipe.Buffer{R: iotest.ErrReader(errors.New("broken")), Block: 16, Max: 16}
	if err := fail.Fill(); err == nil || err.Error() != "broken" {
		t.Fatalf("got %v", err)
	}
}
