package compute

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/stretchr/testify/require"
)

// indexArray builds an index array of type dt from positions (-1: null),
// sliced to a non-zero offset.
func indexArray(t *testing.T, dt datatype.DataType, idx []int) array.Array {
	t.Helper()
	b := array.NewBuilder(dt)
	b.AppendEmptyValues(3)
	for _, j := range idx {
		if j < 0 {
			b.AppendNull()
			continue
		}
		switch x := b.(type) {
		case *array.PrimitiveBuilder[int8]:
			x.Append(int8(j))
		case *array.PrimitiveBuilder[uint16]:
			x.Append(uint16(j))
		case *array.PrimitiveBuilder[int32]:
			x.Append(int32(j))
		case *array.PrimitiveBuilder[int64]:
			x.Append(int64(j))
		case *array.PrimitiveBuilder[uint64]:
			x.Append(uint64(j))
		default:
			t.Fatalf("index type %s", dt)
		}
	}
	return array.Slice(b.NewArray(), 3, 3+len(idx))
}

// everyType is every type of randdata.AllTypes plus extension types over
// fixed-width, binary and nested storage.
func everyType() []datatype.Field {
	fields := randdata.AllTypes().Fields()
	for name, dt := range map[string]datatype.DataType{
		"uuid":   extension.NewUUIDType(),
		"bool8":  extension.NewBool8Type(),
		"opaque": must(extension.NewOpaque(datatype.ListOf(datatype.Int32), "t", "v")),
		"tensor": must(extension.NewFixedShapeTensor(datatype.Float32, []int{2, 3})),
	} {
		fields = append(fields, datatype.Field{Name: name, Type: dt, Nullable: true})
	}
	return fields
}

func TestTakeEveryType(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	idxTypes := []datatype.DataType{datatype.Int32, datatype.Int64, datatype.Uint16, datatype.Uint64}
	for fi, f := range everyType() {
		for shape, a := range variants(t, uint64(fi), f.Type, testRows) {
			for k, it := range idxTypes {
				name := fmt.Sprintf("%s/%s/%s", f.Name, shape, it)
				n := a.Len()
				m := r.IntN(2 * n)
				idx := make([]int, m)
				for i := range idx {
					idx[i] = r.IntN(n)
					if k%2 == 1 && r.IntN(6) == 0 {
						idx[i] = -1 // null index
					}
				}
				got, err := Take(a, indexArray(t, it, idx))
				require.NoError(t, err, name)
				requireSame(t, refTake(t, a, idx), got, name)
			}
		}
	}
}

func TestFilterEveryType(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for fi, f := range everyType() {
		for shape, a := range variants(t, uint64(100+fi), f.Type, testRows) {
			for _, p := range []float64{0, 0.1, 0.5, 0.97, 1} {
				for _, nullable := range []bool{false, true} {
					name := fmt.Sprintf("%s/%s/p=%v/nullmask=%v", f.Name, shape, p, nullable)
					mask := randomMask(r, a.Len(), p, nullable)
					got, err := Filter(a, mask)
					require.NoError(t, err, name)
					requireSame(t, refTake(t, a, maskIndices(mask)), got, name)
				}
			}
		}
	}
}

// TestFilterLong crosses many words with full, empty, sparse (a tenth
// selected) and mixed ones, so that the word-at-a-time paths of the
// fixed-width filter all run.
func TestFilterLong(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []datatype.DataType{datatype.Bool, datatype.Int8, datatype.Int64, datatype.Float32,
		datatype.MonthDayNanoIntervalType, must(datatype.NewDecimal(256, 40, 2)), datatype.String} {
		vs := variants(t, 7, dt, 1000)
		for shape, a := range vs {
			b := array.NewBooleanBuilder(datatype.Bool)
			for i := range a.Len() {
				switch (i / 64) % 5 {
				case 0:
					b.Append(true)
				case 1:
					b.Append(false)
				case 2:
					b.Append(r.IntN(10) == 0)
				default:
					b.Append(r.IntN(2) == 0)
				}
			}
			mask := b.NewArray().(*array.Boolean)
			got, err := Filter(a, mask)
			require.NoError(t, err)
			requireSame(t, refTake(t, a, maskIndices(mask)), got, dt.String()+"/"+shape)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestTakeErrors(t *testing.T) {
	a := arrayjson.MustParse(datatype.Int32, `[1, 2, 3]`)
	for _, idx := range []string{`[3]`, `[-1]`, `[0, 1, 2, 100]`} {
		for _, it := range []datatype.DataType{datatype.Int8, datatype.Int64} {
			_, err := Take(a, arrayjson.MustParse(it, idx))
			require.ErrorIs(t, err, ErrIndexOutOfBounds, idx)
		}
	}
	_, err := Take(a, arrayjson.MustParse(datatype.Uint64, `[18446744073709551615]`))
	require.ErrorIs(t, err, ErrIndexOutOfBounds)
	_, err = Take(a, arrayjson.MustParse(datatype.String, `["0"]`))
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Take(array.Slice(a, 1, 3), arrayjson.MustParse(datatype.Int32, `[2]`))
	require.ErrorIs(t, err, ErrIndexOutOfBounds, "bounds are those of the slice")
	// A null index may hold any value.
	got, err := Take(a, arrayjson.MustParse(datatype.Int32, `[null, 2]`))
	require.NoError(t, err)
	requireSame(t, arrayjson.MustParse(datatype.Int32, `[null, 3]`), got, "null index")

	_, err = Filter(a, arrayjson.MustParse(datatype.Bool, `[true]`).(*array.Boolean))
	require.ErrorIs(t, err, ErrInvalid)
}

func TestTakeRunEndsReencodes(t *testing.T) {
	ree := must(datatype.NewRunEndEncoded(datatype.Int16, datatype.String))
	g := randdata.New(9)
	a := g.Array(ree, 100, true)
	idx := make([]int, 100)
	for i := range idx {
		idx[i] = i
	}
	got, err := Take(a, indexArray(t, datatype.Int32, idx))
	require.NoError(t, err)
	requireSame(t, a, got, "identity take")
	// Consecutive slots of one run stay one run.
	require.LessOrEqual(t, got.(*array.RunEndEncoded).RunEnds().Len(), a.(*array.RunEndEncoded).RunEnds().Len())
	// Too many slots for int16 run ends.
	_, err = Take(a, indexArray(t, datatype.Int64, make([]int, 40000)))
	require.ErrorIs(t, err, ErrOverflow)
}

func TestRecordAndTable(t *testing.T) {
	schema := randdata.AllTypes()
	g := randdata.New(11)
	rec := g.Record(schema, 90).Slice(5, 85)
	r := rand.New(rand.NewPCG(7, 8))

	mask := randomMask(r, rec.NumRows(), 0.5, true)
	fr, err := FilterRecord(rec, mask)
	require.NoError(t, err)
	sel := maskIndices(mask)
	require.Equal(t, len(sel), fr.NumRows())
	for i := range rec.NumCols() {
		requireSame(t, refTake(t, rec.Column(i), sel), fr.Column(i), "filter "+rec.ColumnName(i))
	}

	idx := make([]int, 120)
	for i := range idx {
		idx[i] = r.IntN(rec.NumRows())
	}
	tr, err := TakeRecord(rec, indexArray(t, datatype.Int64, idx))
	require.NoError(t, err)
	for i := range rec.NumCols() {
		requireSame(t, refTake(t, rec.Column(i), idx), tr.Column(i), "take "+rec.ColumnName(i))
	}

	// A table of three records, filtered by a mask chunked differently.
	recs := []*alkaid.Record{g.Record(schema, 30), g.Record(schema, 0), g.Record(schema, 45).Slice(3, 40)}
	tab, err := alkaid.TableFromRecords(schema, recs)
	require.NoError(t, err)
	m1, m2 := randomMask(r, 50, 0.5, true), randomMask(r, tab.NumRows()-50, 0.5, false)
	mc, err := alkaid.NewChunked(datatype.Bool, []array.Array{m1, m2})
	require.NoError(t, err)
	ft, err := FilterTable(tab, mc)
	require.NoError(t, err)
	whole, err := array.Concatenate(m1, m2)
	require.NoError(t, err)
	sel = maskIndices(whole.(*array.Boolean))
	require.Equal(t, len(sel), ft.NumRows())
	tt, err := TakeTable(tab, indexArray(t, datatype.Int32, sel))
	require.NoError(t, err)
	for i := range tab.NumCols() {
		col, err := array.Concatenate(tab.Column(i).Chunks()...)
		require.NoError(t, err)
		want := refTake(t, col, sel)
		for name, c := range map[string]*alkaid.Chunked{"filter": ft.Column(i), "take": tt.Column(i)} {
			got := array.Slice(want, 0, 0)
			if chunks := c.Chunks(); len(chunks) > 0 {
				got, err = array.Concatenate(chunks...)
				require.NoError(t, err)
			}
			requireSame(t, want, got, name+" table "+schema.Field(i).Name)
		}
	}

	// Null indices into a non-nullable column are an error, not a panic.
	strict := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int32}}, datatype.Metadata{})
	sr, err := alkaid.NewRecord(strict, []array.Array{arrayjson.MustParse(datatype.Int32, `[1, 2]`)}, 2)
	require.NoError(t, err)
	_, err = TakeRecord(sr, arrayjson.MustParse(datatype.Int32, `[0, null]`))
	require.True(t, errors.Is(err, ErrInvalid), "%v", err)
}
