package gorecord_test

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/gorecord"
	"github.com/alkaid-go/alkaid/ipc"
)

// FuzzToSlice reads records of the Everything schema from arbitrary
// stream bytes (as from a file someone sent) into Go values: ToSlice must
// return an error or rows that write back and read again unchanged.
func FuzzToSlice(f *testing.F) {
	rows := everythingRows()
	for _, rs := range [][]Everything{rows, rows[:1], rows[1:]} {
		rec, err := gorecord.FromSlice(rs)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(writeStream(f, rec))
	}
	limits := ipc.Limits{MaxMetadataSize: 1 << 20, MaxDepth: 32, MaxBodySize: 1 << 20, MaxDecompressed: 1 << 20, MaxRows: 1 << 10}
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := ipc.NewStreamReaderBytes(in, ipc.WithLimits(limits))
		if err != nil {
			return
		}
		for rec, err := range r.Records() {
			if err != nil {
				return
			}
			got, err := gorecord.ToSlice[Everything](rec)
			if err != nil {
				continue
			}
			back, err := gorecord.FromSlice(got)
			if err != nil {
				t.Fatalf("rows read from a record do not write back: %v", err)
			}
			again, err := gorecord.ToSlice[Everything](back)
			if err != nil {
				t.Fatalf("rows written back do not read again: %v", err)
			}
			for i := range got {
				if !sameValue(reflect.ValueOf(got[i]), reflect.ValueOf(again[i])) {
					t.Fatalf("row %d changed on the way back:\n %+v\n %+v", i, got[i], again[i])
				}
			}
		}
	})
}

var timeType = reflect.TypeFor[time.Time]()

// sameValue is reflect.DeepEqual with NaN equal to NaN and times compared
// as instants in the same zone.
func sameValue(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	if a.Type() == timeType {
		x, y := a.Interface().(time.Time), b.Interface().(time.Time)
		return x.Equal(y) && x.Location().String() == y.Location().String()
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y)
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return false
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if v := b.MapIndex(k); !v.IsValid() || !sameValue(a.MapIndex(k), v) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() && !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
