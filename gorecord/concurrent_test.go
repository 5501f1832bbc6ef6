package gorecord_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/alkaid-go/alkaid/gorecord"
)

// concRow is used by this test only, so that its plan is first built by
// goroutines racing for it.
type concRow struct {
	A  int64
	B  string
	C  []Inner
	P  *Point
	M  map[string]int32
	Ev []Everything
}

// TestConcurrentRoundTrips converts rows both ways from several goroutines
// at once (run it with -race): the plans are cached in shared maps, and
// the converters must keep no state in them.
func TestConcurrentRoundTrips(t *testing.T) {
	every := everythingRows()
	rows := make([]concRow, 50)
	for i := range rows {
		rows[i] = concRow{A: int64(i), B: fmt.Sprint("row ", i), C: []Inner{{}}, P: &Point{X: int32(i)}, M: map[string]int32{"k": int32(i)}}
		if i%7 == 0 {
			rows[i].Ev = every
		}
	}
	// Everything's rows do not all come back deep-equal to what was
	// written (nil against empty, time zones), but every decoding of the
	// same rows must agree: with the goroutine's first, and that with a
	// serial round trip made afterwards.
	firsts := make([][]concRow, 8)
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range firsts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := range 20 {
				rec, err := gorecord.FromSlice(rows)
				if err != nil {
					errs <- fmt.Errorf("goroutine %d: FromSlice: %w", g, err)
					return
				}
				got, err := gorecord.ToSlice[concRow](rec)
				if err != nil {
					errs <- fmt.Errorf("goroutine %d: ToSlice: %w", g, err)
					return
				}
				if i == 0 {
					firsts[g] = got
				} else if !reflect.DeepEqual(got, firsts[g]) {
					errs <- fmt.Errorf("goroutine %d: round trip %d differs from its first", g, i)
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	rec, err := gorecord.FromSlice(rows)
	if err != nil {
		t.Fatal(err)
	}
	want, err := gorecord.ToSlice[concRow](rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(rows) || want[49].A != 49 || want[49].B != "row 49" || len(want[7].Ev) != len(every) {
		t.Fatalf("serial round trip lost rows: %d", len(want))
	}
	for g, got := range firsts {
		if got != nil && !reflect.DeepEqual(got, want) {
			t.Errorf("goroutine %d: rows differ from the serial round trip", g)
		}
	}
}
