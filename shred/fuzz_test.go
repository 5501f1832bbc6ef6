package shred_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/shred"
)

// fuzzFields are the fields FuzzAssemble builds columns for: every kind of
// repeated field, optional and required levels, and encoded leaves.
var fuzzFields = func() []datatype.Field {
	fsl, err := datatype.FixedSizeListOfField(nullable("item", datatype.Int32), 2)
	if err != nil {
		panic(err)
	}
	dict, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	if err != nil {
		panic(err)
	}
	ree, err := datatype.NewRunEndEncoded(datatype.Int16, datatype.Int64)
	if err != nil {
		panic(err)
	}
	return []datatype.Field{
		nullable("l", datatype.ListOfField(nullable("item", datatype.StructOf(
			nullable("a", datatype.Int32),
			required("b", datatype.ListOf(datatype.String)))))),
		nullable("m", datatype.MapOf(datatype.String, datatype.LargeListOf(datatype.Int64), false)),
		required("s", datatype.StructOf(nullable("x", fsl), required("y", datatype.LargeListViewOf(datatype.Bool)))),
		nullable("d", datatype.ListViewOf(dict)),
		nullable("r", ree),
		required("n", datatype.ListOfField(required("item", datatype.ListOfField(required("item", datatype.Int16))))),
	}
}()

// encodeColumns is the input format of FuzzAssemble for columns of field
// k: the field's index, then per column the entry count, each entry's
// repetition and definition levels (one signed byte each), and 0 (values
// for exactly the entries at the maximum definition level).
func encodeColumns(k int, cols []shred.Column) []byte {
	out := []byte{byte(k)}
	for _, c := range cols {
		out = append(out, byte(c.Len()))
		for i := range c.Len() {
			out = append(out, byte(c.Rep[i]), byte(c.Def[i]))
		}
		out = append(out, 0)
	}
	return out
}

// decodeColumns builds columns for a field from fuzz input; values are
// random, and a count byte other than 0 makes one too few or too many.
func decodeColumns(data []byte) (datatype.Field, []shred.Column, bool) {
	if len(data) == 0 {
		return datatype.Field{}, nil, false
	}
	f := fuzzFields[int(data[0])%len(fuzzFields)]
	data = data[1:]
	leaves, err := shred.Leaves(f)
	if err != nil {
		panic(err)
	}
	g := randdata.New(uint64(len(data)))
	cols := make([]shred.Column, len(leaves))
	for i, l := range leaves {
		if len(data) == 0 {
			return f, nil, false
		}
		n := int(data[0])
		data = data[1:]
		if len(data) < 2*n+1 {
			return f, nil, false
		}
		c := shred.Column{Path: l.Path, MaxRep: l.MaxRep, MaxDef: l.MaxDef, Rep: make([]int16, n), Def: make([]int16, n)}
		present := 0
		for e := range n {
			c.Rep[e], c.Def[e] = int16(int8(data[2*e])), int16(int8(data[2*e+1]))
			if int(c.Def[e]) == l.MaxDef {
				present++
			}
		}
		switch data[2*n] % 3 {
		case 1:
			present = max(present-1, 0)
		case 2:
			present++
		}
		data = data[2*n+1:]
		c.Values = g.Array(l.Type, present, false)
		cols[i] = c
	}
	return f, cols, true
}

// FuzzAssemble feeds Assemble columns with arbitrary levels and value
// counts: it must return an error or an array that is valid and shreds
// back into the same columns.
func FuzzAssemble(f *testing.F) {
	g := randdata.New(7)
	for k, fld := range fuzzFields {
		for _, n := range []int{0, 1, 5} {
			cols, err := shred.ShredField(fld, g.Array(fld.Type, n, fld.Nullable))
			if err != nil {
				f.Fatal(err)
			}
			if in := encodeColumns(k, cols); len(in) < 1<<10 {
				f.Add(in)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fld, cols, ok := decodeColumns(data)
		if !ok {
			return
		}
		a, err := shred.Assemble(fld, cols)
		if err != nil {
			return
		}
		if err := array.Validate(a.Data(), array.ValidateFull); err != nil {
			t.Fatalf("assembled %s is invalid: %v", fld.Type, err)
		}
		back, err := shred.ShredField(fld, a)
		if err != nil {
			t.Fatalf("assembled %s does not shred: %v", fld.Type, err)
		}
		for i, c := range cols {
			b := back[i]
			if !slices.Equal(c.Rep, b.Rep) || !slices.Equal(c.Def, b.Def) {
				t.Fatalf("column %s: levels r=%v d=%v came back as r=%v d=%v", c.PathString(), c.Rep, c.Def, b.Rep, b.Def)
			}
			if k, desc, eq := array.FirstDifference(c.Values, b.Values); !eq {
				t.Fatalf("column %s: values differ at %d: %s", c.PathString(), k, desc)
			}
		}
	})
}

// TestFuzzSeedsAssemble checks that the seeds FuzzAssemble starts from are
// accepted, so that the fuzzer starts from valid columns.
func TestFuzzSeedsAssemble(t *testing.T) {
	g := randdata.New(7)
	for k, fld := range fuzzFields {
		cols, err := shred.ShredField(fld, g.Array(fld.Type, 5, fld.Nullable))
		if err != nil {
			t.Fatal(err)
		}
		f, got, ok := decodeColumns(encodeColumns(k, cols))
		if !ok {
			t.Fatalf("%s: seed does not decode", fld.Name)
		}
		if _, err := shred.Assemble(f, got); err != nil {
			t.Errorf("%s: seed columns refused: %v", fld.Name, err)
		}
	}
}

// FuzzShredStream shreds the records of arbitrary stream bytes (the
// reader validates them first): every record of a supported schema must
// shred and assemble back into an equal record.
func FuzzShredStream(f *testing.F) {
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 5))
		g := &schemaGen{r: r}
		fs := []datatype.Field{g.field(0, 2), g.field(0, 0)}
		schema := alkaid.NewSchema(fs, datatype.Metadata{})
		gen := randdata.New(seed)
		gen.MaxListLen = 3
		rec := gen.Record(schema, 6)
		var buf bytes.Buffer
		w, err := ipc.NewStreamWriter(&buf, schema)
		if err != nil {
			f.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			f.Fatal(err)
		}
		if err := w.Write(rec.Slice(1, 4)); err != nil {
			f.Fatal(err)
		}
		if err := w.Close(); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
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
			cols, err := shred.ShredRecord(rec)
			if errors.Is(err, shred.ErrNotSupported) || errors.Is(err, shred.ErrInvalid) {
				continue // unions, empty structs; nulls in non-nullable fields
			}
			if err != nil {
				t.Fatalf("shred: %v", err)
			}
			back, err := shred.AssembleRecord(rec.Schema(), cols)
			if err != nil {
				t.Fatalf("assemble: %v", err)
			}
			for i := range rec.NumCols() {
				if k, desc, eq := array.FirstDifference(rec.Column(i), back.Column(i)); !eq {
					t.Fatalf("column %s differs at %d: %s", rec.ColumnName(i), k, desc)
				}
			}
		}
	})
}
