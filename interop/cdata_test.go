//go:build cgo

package interop

// Round trips through the C Data Interface with arrow-go's cdata package:
// arrow-go imports what Alkaid exports and Alkaid imports what arrow-go
// exports, records and streams, every randdata type, whole and sliced.

import (
	"errors"

	"testing"
	"unsafe"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	acdata "github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/cdata"
	"github.com/alkaid-go/alkaid/internal/randdata"
)

func arrowGoArray(p *cdata.ArrowArray) *acdata.CArrowArray {
	return (*acdata.CArrowArray)(unsafe.Pointer(p))
}

func arrowGoSchemaStruct(p *cdata.ArrowSchema) *acdata.CArrowSchema {
	return (*acdata.CArrowSchema)(unsafe.Pointer(p))
}

func arrowGoStream(p *cdata.ArrowArrayStream) *acdata.CArrowArrayStream {
	return (*acdata.CArrowArrayStream)(unsafe.Pointer(p))
}

// cdataRecords are Alkaid records of every randdata type: whole, sliced,
// empty.
func cdataRecords() []*alkaid.Record {
	rec := randdata.New(interopSeed).Record(randdata.AllTypes(), interopRows)
	return []*alkaid.Record{rec, rec.Slice(7, interopRows-11), rec.Slice(0, 0)}
}

func TestCDataAlkaidExportArrowGoImport(t *testing.T) {
	for k, rec := range cdataRecords() {
		ca, cs := cdata.NewArrowArray(), cdata.NewArrowSchema()
		require.NoError(t, cdata.ExportRecord(rec, ca, cs))
		theirs, err := acdata.ImportCRecordBatch(arrowGoArray(ca), arrowGoSchemaStruct(cs))
		require.NoError(t, err, "record %d", k)
		requireArrowGoSchema(t, rec.Schema(), theirs.Schema())
		require.Equal(t, rec.NumRows(), requireSameValues(t, rec, theirs)/max(rec.NumCols(), 1))

		// Export what arrow-go imported; Alkaid imports it back.
		acdata.ExportArrowRecordBatch(theirs, arrowGoArray(ca), arrowGoSchemaStruct(cs))
		theirs.Release()
		back, err := cdata.ImportRecord(ca, cs, cdata.WithValidation(array.ValidateFull))
		require.NoError(t, err, "record %d", k)
		require.True(t, rec.Schema().Equal(back.Schema()), "schema came back as\n%v", back.Schema())
		for i := range rec.NumCols() {
			require.True(t, array.Equal(rec.Column(i), back.Column(i)), "record %d column %s", k, rec.ColumnName(i))
		}
		cdata.Free(ca)
		cdata.Free(cs)
	}
}

func TestCDataArrowGoExportAlkaidImport(t *testing.T) {
	schema := randdata.AllTypes()
	as := arrowGoSchema(schema)
	g := newArrowGoGen(interopSeed + 100)
	whole := g.record(as, interopRows)
	defer whole.Release()
	sliced := whole.NewSlice(7, interopRows-11) // arrow-go's own zero-copy slice
	defer sliced.Release()
	for k, theirs := range []aarrow.RecordBatch{whole, sliced} {
		ca, cs := cdata.NewArrowArray(), cdata.NewArrowSchema()
		acdata.ExportArrowRecordBatch(theirs, arrowGoArray(ca), arrowGoSchemaStruct(cs))
		ours, err := cdata.ImportRecord(ca, cs, cdata.WithValidation(array.ValidateFull))
		require.NoError(t, err, "record %d", k)
		require.True(t, schema.Equal(ours.Schema()), "want %s\nAlkaid imported %s", schema, ours.Schema())
		requireSameValues(t, ours, theirs)

		// Export what Alkaid imported; arrow-go imports it back.
		require.NoError(t, cdata.ExportRecord(ours, ca, cs))
		again, err := acdata.ImportCRecordBatch(arrowGoArray(ca), arrowGoSchemaStruct(cs))
		require.NoError(t, err)
		for i := range int(theirs.NumCols()) {
			require.True(t, aarray.Equal(theirs.Column(i), again.Column(i)), "record %d column %s", k, theirs.ColumnName(i))
		}
		again.Release()
		cdata.Free(ca)
		cdata.Free(cs)
	}
}

// recordSource is an alkaid.RecordReader over records in memory, failing
// with err after them.
func recordSource(schema *alkaid.Schema, recs []*alkaid.Record, err error) alkaid.RecordReader {
	return alkaid.NewRecordReader(schema, func(yield func(*alkaid.Record, error) bool) {
		for _, r := range recs {
			if !yield(r, nil) {
				return
			}
		}
		yield(nil, err)
	}, nil)
}

func TestCDataStreamsBothWays(t *testing.T) {
	recs := cdataRecords()
	schema := recs[0].Schema()

	// Alkaid's stream, read by arrow-go; the source's error reaches it.
	s := cdata.NewArrowArrayStream()
	defer cdata.Free(s)
	require.NoError(t, cdata.ExportStream(recordSource(schema, recs, errors.New("the source ran dry")), s))
	r, err := acdata.ImportCRecordReader(arrowGoStream(s), nil)
	require.NoError(t, err)
	var theirs []aarrow.RecordBatch
	for {
		rec, err := r.Read()
		if err != nil {
			require.ErrorContains(t, err, "the source ran dry")
			break
		}
		rec.Retain()
		theirs = append(theirs, rec)
	}
	require.Len(t, theirs, len(recs))
	for i := range recs {
		requireSameValues(t, recs[i], theirs[i])
	}

	// arrow-go's stream of those records, read by Alkaid.
	rr, err := aarray.NewRecordReader(theirs[0].Schema(), theirs)
	require.NoError(t, err)
	for _, rec := range theirs {
		rec.Release()
	}
	acdata.ExportRecordReader(rr, arrowGoStream(s))
	rr.Release()
	ours, err := cdata.ImportStream(s, cdata.WithValidation(array.ValidateFull))
	require.NoError(t, err)
	defer ours.Close()
	require.True(t, schema.Equal(ours.Schema()))
	n := 0
	for rec, err := range ours.Records() {
		require.NoError(t, err)
		for c := range rec.NumCols() {
			require.True(t, array.Equal(recs[n].Column(c), rec.Column(c)), "batch %d column %s", n, rec.ColumnName(c))
		}
		n++
	}
	require.Equal(t, len(recs), n)
}
