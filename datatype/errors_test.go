package datatype_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/compute"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/gorecord"
	"github.com/alkaid-go/alkaid/integration"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
	"github.com/alkaid-go/alkaid/shred"
)

// TestSentinelsAreShared pins that every package's sentinel of a kind is
// the very value datatype declares (cdata and the arrow-go bridge check
// theirs in their own tests: one needs cgo, the other is another module).
func TestSentinelsAreShared(t *testing.T) {
	cases := []struct {
		name      string
		got, want error
	}{
		{"array.ErrInvalid", array.ErrInvalid, datatype.ErrInvalid},
		{"array.ErrNotSupported", array.ErrNotSupported, datatype.ErrNotSupported},
		{"compute.ErrInvalid", compute.ErrInvalid, datatype.ErrInvalid},
		{"compute.ErrNotSupported", compute.ErrNotSupported, datatype.ErrNotSupported},
		{"csv.ErrInvalid", csv.ErrInvalid, datatype.ErrInvalid},
		{"csv.ErrNotSupported", csv.ErrNotSupported, datatype.ErrNotSupported},
		{"csv.ErrLimit", csv.ErrLimit, datatype.ErrLimit},
		{"gorecord.ErrNotSupported", gorecord.ErrNotSupported, datatype.ErrNotSupported},
		{"integration.ErrInvalid", integration.ErrInvalid, datatype.ErrInvalid},
		{"ipc.ErrInvalid", ipc.ErrInvalid, datatype.ErrInvalid},
		{"ipc.ErrNotSupported", ipc.ErrNotSupported, datatype.ErrNotSupported},
		{"ipc.ErrLimit", ipc.ErrLimit, datatype.ErrLimit},
		{"ndjson.ErrInvalid", ndjson.ErrInvalid, datatype.ErrInvalid},
		{"ndjson.ErrNotSupported", ndjson.ErrNotSupported, datatype.ErrNotSupported},
		{"ndjson.ErrLimit", ndjson.ErrLimit, datatype.ErrLimit},
		{"parquet.ErrInvalid", parquet.ErrInvalid, datatype.ErrInvalid},
		{"parquet.ErrNotSupported", parquet.ErrNotSupported, datatype.ErrNotSupported},
		{"parquet.ErrLimit", parquet.ErrLimit, datatype.ErrLimit},
		{"shred.ErrInvalid", shred.ErrInvalid, datatype.ErrInvalid},
		{"shred.ErrNotSupported", shred.ErrNotSupported, datatype.ErrNotSupported},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s is %p (%q), want the datatype sentinel %p (%q)", c.name, c.got, c.got, c.want, c.want)
		}
	}
}

// TestRefinedKinds pins which base kind each finer sentinel belongs to, and
// that it is not one of the others.
func TestRefinedKinds(t *testing.T) {
	bases := []error{datatype.ErrInvalid, datatype.ErrNotSupported, datatype.ErrLimit}
	cases := []struct {
		name string
		err  error
		base error
		text string
	}{
		{"array.ErrDictionaryFull", array.ErrDictionaryFull, datatype.ErrLimit, "array: dictionary index type is full"},
		{"compute.ErrOverflow", compute.ErrOverflow, datatype.ErrInvalid, "overflow"},
		{"compute.ErrDivideByZero", compute.ErrDivideByZero, datatype.ErrInvalid, "division by zero"},
		{"compute.ErrIndexOutOfBounds", compute.ErrIndexOutOfBounds, datatype.ErrInvalid, "index out of bounds"},
		{"compute.ErrTruncation", compute.ErrTruncation, datatype.ErrInvalid, "truncation"},
		{"gorecord.ErrInvalidTag", gorecord.ErrInvalidTag, datatype.ErrInvalid, "invalid alkaid tag"},
		{"gorecord.ErrMismatch", gorecord.ErrMismatch, datatype.ErrInvalid, "column does not fit Go type"},
		{"gorecord.ErrNull", gorecord.ErrNull, datatype.ErrInvalid, "null into non-nullable Go value"},
		{"gorecord.ErrRange", gorecord.ErrRange, datatype.ErrInvalid, "value out of range"},
	}
	for _, c := range cases {
		if c.err.Error() != c.text {
			t.Errorf("%s says %q, want %q", c.name, c.err, c.text)
		}
		for _, b := range bases {
			if got, want := errors.Is(c.err, b), b == c.base; got != want {
				t.Errorf("errors.Is(%s, %q) = %v, want %v", c.name, b, got, want)
			}
		}
		wrapped := fmt.Errorf("pkg: %w: slot 3", c.err)
		if !errors.Is(wrapped, c.err) || !errors.Is(wrapped, c.base) {
			t.Errorf("a wrapped %s is not both itself and %q", c.name, c.base)
		}
	}
	// The finer kinds stay distinct from one another.
	if errors.Is(compute.ErrOverflow, compute.ErrDivideByZero) {
		t.Error("compute.ErrOverflow matches compute.ErrDivideByZero")
	}
}

// TestErrorsCarryPackagePrefix checks, for one real error of several
// packages, that the text starts with the package and that errors.Is
// finds the shared kind.
func TestErrorsCarryPackagePrefix(t *testing.T) {
	_, ipcErr := ipc.NewStreamReaderBytes([]byte("not ipc at all, but text"))
	_, arrErr := array.Concatenate()
	_, cmpErr := compute.Add(int32s(1), int32s(1, 2))
	_, dtErr := datatype.NewDecimal(128, 0, 0)
	cases := []struct {
		err    error
		prefix string
		kind   error
	}{
		{ipcErr, "ipc: invalid: ", datatype.ErrInvalid},
		{arrErr, "array: invalid: ", datatype.ErrInvalid},
		{cmpErr, "compute: invalid: ", datatype.ErrInvalid},
		{dtErr, "datatype: invalid: ", datatype.ErrInvalid},
	}
	for i, c := range cases {
		if c.err == nil {
			t.Errorf("case %d: no error", i)
			continue
		}
		if s := c.err.Error(); len(s) < len(c.prefix) || s[:len(c.prefix)] != c.prefix {
			t.Errorf("case %d: %q does not start with %q", i, s, c.prefix)
		}
		if !errors.Is(c.err, c.kind) {
			t.Errorf("case %d: %q is not %q", i, c.err, c.kind)
		}
	}
}

func int32s(v ...int32) array.Array {
	b := array.NewPrimitiveBuilder[int32](datatype.Int32)
	for _, x := range v {
		b.Append(x)
	}
	return b.Finish()
}
