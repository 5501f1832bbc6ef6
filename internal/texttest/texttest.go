package texttest

import (
	"errors"
	"iter"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

// SplitTypes returns the fields of randdata.AllTypes whose type a format
// can express (supported returns nil) and the others; it fails the test
// when fewer than atLeast are expressible.
func SplitTypes(t testing.TB, supported func(datatype.DataType) error, atLeast int) (ok, not []datatype.Field) {
	t.Helper()
	all := randdata.AllTypes()
	for i := range all.NumFields() {
		f := all.Field(i)
		if supported(f.Type) == nil {
			ok = append(ok, f)
		} else {
			not = append(not, f)
		}
	}
	if len(ok) < atLeast {
		t.Fatalf("only %d randdata types have a text form, want at least %d", len(ok), atLeast)
	}
	return ok, not
}

// Collect reads every batch of records up to the first error, which it
// returns with the batches before it.
func Collect(records iter.Seq2[*alkaid.Record, error]) ([]*alkaid.Record, error) {
	var recs []*alkaid.Record
	for rec, err := range records {
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// SameRows fails the test unless the batches got hold the rows of want,
// in order (floats compared approximately, NaN equal to NaN).
func SameRows(t testing.TB, want *alkaid.Record, got []*alkaid.Record) {
	t.Helper()
	tab, err := alkaid.TableFromRecords(want.Schema(), got)
	if err != nil {
		t.Fatalf("batches: %v", err)
	}
	if tab.NumRows() != want.NumRows() {
		t.Fatalf("%d rows read, %d written", tab.NumRows(), want.NumRows())
	}
	for c := range want.NumCols() {
		off := 0
		for _, ch := range tab.Column(c).Chunks() {
			w := array.Slice(want.Column(c), off, off+ch.Len())
			if !array.ApproxEqual(w, ch, array.NaNEqual()) && !sameText(w, ch) {
				t.Fatalf("column %q rows %d..%d:\nwant %v\n got %v", want.ColumnName(c), off, off+ch.Len(), w, ch)
			}
			off += ch.Len()
		}
	}
}

// sameText reports whether two arrays with a union inside print the same,
// row by row: the text forms write a union slot as its value, so a null
// reads back as a null of the first child whichever child held it.
func sameText(want, got array.Array) bool {
	if !hasUnion(want.DataType()) || want.Len() != got.Len() {
		return false
	}
	for i := range want.Len() {
		if array.FormatValue(want, i) != array.FormatValue(got, i) {
			return false
		}
	}
	return true
}

func hasUnion(t datatype.DataType) bool {
	switch tt := t.(type) {
	case *datatype.UnionType:
		return true
	case *datatype.StructType:
		for _, f := range tt.Fields() {
			if hasUnion(f.Type) {
				return true
			}
		}
	case *datatype.ListType:
		return hasUnion(tt.Elem().Type)
	}
	return false
}

// ErrorKind fails t unless err starts with prefix (the package's, as
// "csv: ") and wraps one of datatype.ErrInvalid, ErrNotSupported and
// ErrLimit: what a reader's error must be, whatever the input.
func ErrorKind(t testing.TB, prefix string, err error) {
	t.Helper()
	if !errors.Is(err, datatype.ErrInvalid) && !errors.Is(err, datatype.ErrNotSupported) && !errors.Is(err, datatype.ErrLimit) {
		t.Fatalf("error wraps no sentinel: %v", err)
	}
	if !strings.HasPrefix(err.Error(), prefix) {
		t.Fatalf("error lacks the prefix %q: %v", prefix, err)
	}
}
