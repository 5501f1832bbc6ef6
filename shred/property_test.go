package shred_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/shred"
)

// schemaGen makes random nested types: structs, lists of every layout,
// maps and extension types over leaves of many kinds, with mixed
// nullability.
type schemaGen struct {
	r     *rand.Rand
	names int
}

const maxGenDepth = 7

func (g *schemaGen) name() string {
	g.names++
	return fmt.Sprintf("f%d", g.names)
}

// field returns a field whose type nests at least minDepth levels of
// structs, lists and maps above some leaf.
func (g *schemaGen) field(depth, minDepth int) datatype.Field {
	f := datatype.Field{Name: g.name(), Nullable: g.r.IntN(2) == 0}
	if minDepth > 0 || (depth < maxGenDepth && g.r.IntN(3) == 0) {
		f.Type = g.nested(depth, max(minDepth-1, 0))
		return f
	}
	f.Type = g.leaf()
	switch datatype.StorageOf(f.Type).Kind() {
	case datatype.KindNull, datatype.KindDictionary, datatype.KindRunEndEncoded:
		f.Nullable = true // their nulls come from the values
	}
	return f
}

func (g *schemaGen) nested(depth, minDepth int) datatype.DataType {
	elem := func() datatype.Field {
		f := g.field(depth+1, minDepth)
		f.Name = "item"
		return f
	}
	switch g.r.IntN(9) {
	case 0, 1:
		fs := []datatype.Field{g.field(depth+1, minDepth)}
		for range g.r.IntN(3) {
			fs = append(fs, g.field(depth+1, 0))
		}
		g.r.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
		return datatype.StructOf(fs...)
	case 2:
		return datatype.ListOfField(elem())
	case 3:
		return datatype.LargeListOfField(elem())
	case 4:
		return datatype.ListViewOfField(elem())
	case 5:
		return datatype.LargeListViewOfField(elem())
	case 6:
		t, _ := datatype.FixedSizeListOfField(elem(), int32(g.r.IntN(4)))
		return t
	case 7:
		key := datatype.Field{Name: "key", Type: []datatype.DataType{datatype.String, datatype.Int32}[g.r.IntN(2)]}
		value := g.field(depth+1, minDepth)
		value.Name = "value"
		t, _ := datatype.MapOfFields(key, value, false)
		return t
	default:
		return &testExt{datatype.StructOf(g.field(depth+1, minDepth))}
	}
}

func (g *schemaGen) leaf() datatype.DataType {
	fsb, _ := datatype.NewFixedSizeBinary(3)
	dec, _ := datatype.NewDecimal(128, 20, 3)
	ts, _ := datatype.NewTimestamp(datatype.Microsecond, "UTC")
	dictS, _ := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	dictI, _ := datatype.NewDictionary(datatype.Uint32, datatype.Int64, false)
	reeS, _ := datatype.NewRunEndEncoded(datatype.Int16, datatype.String)
	reeF, _ := datatype.NewRunEndEncoded(datatype.Int64, datatype.Float64)
	leaves := []datatype.DataType{
		datatype.Int8, datatype.Int32, datatype.Int64, datatype.Uint16, datatype.Float32, datatype.Float64,
		datatype.Bool, datatype.String, datatype.LargeString, datatype.Binary, datatype.StringView,
		datatype.BinaryView, fsb, dec, datatype.Date32Type, ts, datatype.MonthDayNanoIntervalType,
		datatype.Null, dictS, dictI, reeS, reeF, &testExt{datatype.Int32},
	}
	return leaves[g.r.IntN(len(leaves))]
}

// nestingDepth is the number of struct, list and map levels above the
// deepest leaf.
func nestingDepth(t datatype.DataType) int {
	best := 0
	for _, c := range datatype.Children(datatype.StorageOf(t)) {
		best = max(best, 1+nestingDepth(c.Type))
	}
	if datatype.StorageOf(t).Kind() == datatype.KindRunEndEncoded {
		return 0
	}
	return best
}

// Random nested schemas and data, sliced at random, shred and assemble
// back equal; the assembled arrays pass full validation and shred to the
// same columns again.
func TestRoundTripRandom(t *testing.T) {
	const cases = 200
	totalEntries := 0
	for seed := range uint64(cases) {
		r := rand.New(rand.NewPCG(seed, 17))
		g := &schemaGen{r: r}
		f := g.field(0, 4)
		if d := nestingDepth(f.Type); d < 4 {
			t.Fatalf("seed %d: depth %d < 4: %s", seed, d, f.Type)
		}
		gen := randdata.New(seed)
		gen.NullFraction = 0.2
		gen.MaxListLen = 3
		n := r.IntN(40)
		a := gen.Array(f.Type, n, f.Nullable)
		i := r.IntN(n + 1)
		j := i + r.IntN(n-i+1)
		a = array.Slice(a, i, j)

		cols, err := shred.ShredField(f, a)
		if err != nil {
			t.Fatalf("seed %d: shred %s: %v", seed, f, err)
		}
		for _, c := range cols {
			totalEntries += c.Len()
		}
		back, err := shred.Assemble(f, cols)
		if err != nil {
			t.Fatalf("seed %d: assemble %s: %v", seed, f, err)
		}
		if k, desc, eq := array.FirstDifference(a, back); !eq {
			t.Fatalf("seed %d: %s: differs at %d: %s\n in  %s\n out %s", seed, f, k, desc, a, back)
		}
		if err := array.Validate(back.Data(), array.ValidateFull); err != nil {
			t.Fatalf("seed %d: %s: assembled array invalid: %v", seed, f, err)
		}
		again, err := shred.ShredField(f, back)
		if err != nil {
			t.Fatalf("seed %d: shred again: %v", seed, err)
		}
		for k, c := range cols {
			a := again[k]
			if !slices.Equal(c.Rep, a.Rep) || !slices.Equal(c.Def, a.Def) || !array.Equal(c.Values, a.Values) {
				t.Fatalf("seed %d: column %s differs when shredded again", seed, c.PathString())
			}
		}
	}
	t.Logf("%d cases, %d entries", cases, totalEntries)
}

// A record of several random fields round-trips through ShredRecord and
// AssembleRecord.
func TestRoundTripRandomRecord(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 99))
		g := &schemaGen{r: r}
		var fs []datatype.Field
		for range 1 + r.IntN(4) {
			fs = append(fs, g.field(0, r.IntN(5)))
		}
		schema := alkaid.NewSchema(fs, datatype.Metadata{})
		gen := randdata.New(seed)
		rec := gen.Record(schema, r.IntN(16))
		roundTripRecord(t, schema, rec)
	}
}
