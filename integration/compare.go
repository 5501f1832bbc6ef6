package integration

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// Difference is the first place where two files differ, as [Compare]
// finds it. It is an error.
type Difference struct {
	// Batch is the record batch, or -1 when the schemas or the numbers of
	// batches differ.
	Batch int
	// Path is the column path ("s.f2" for child f2 of column s; "[1]" for
	// an unnamed child), or the field path of a schema difference; "" when
	// neither applies.
	Path string
	// Row is the row of the batch, or -1 when the difference is not one
	// row's.
	Row int
	// What says what differs ("type", "name", "values", …).
	What string
	// A and B are the two sides: values for a row, or the differing
	// property.
	A, B string
}

// Error implements error.
func (d *Difference) Error() string {
	var loc string
	switch {
	case d.Batch < 0 && d.Path != "":
		loc = "schema: field " + d.Path
	case d.Batch < 0 && d.What == whatBatches:
		loc = "file"
	case d.Batch < 0:
		loc = "schema"
	default:
		loc = "batch " + strconv.Itoa(d.Batch)
		if d.Path != "" {
			loc += ", column " + d.Path
		}
		if d.Row >= 0 {
			loc += ", row " + strconv.Itoa(d.Row)
		}
	}
	return fmt.Sprintf("%s: %s differ: %s vs %s", loc, d.What, d.A, d.B)
}

const whatBatches = "numbers of batches"

// CompareOption changes what [Compare] ignores.
type CompareOption func(*compareConfig)

type compareConfig struct {
	ignoreMapNames bool
}

// IgnoreMapFieldNames makes [Compare] ignore the names of a map's entries,
// key and value fields, which the format does not give any meaning (Arrow
// C++ writes "entries", "key" and "value" in its golden
// generated_map_non_canonical.stream although the schema it was given,
// kept in the JSON and the .arrow_file, names them otherwise).
func IgnoreMapFieldNames() CompareOption { return func(c *compareConfig) { c.ignoreMapNames = true } }

// Compare reports the first difference between a and b as a
// *[Difference], or nil when both hold the same schema and record batches.
//
// Schemas compare field names, nullability, types and metadata at every
// depth, and schema metadata. Metadata compares as a set of pairs (their
// order does not count), with keys of the Alkaid namespace equal to their
// Arrow counterparts ("ALKAID:x" = "ARROW:x");
// dictionary ids are not compared (they are not part of a type). Batches
// compare their row counts and their columns' logical values as
// [array.Equal] does (the physical layout does not matter), except that a
// NaN equals a NaN. Dictionaries are compared through the columns that
// use them.
func Compare(a, b *File, opts ...CompareOption) error {
	var c compareConfig
	for _, o := range opts {
		o(&c)
	}
	if d := c.schemas(a, b); d != nil {
		return d
	}
	if len(a.Records) != len(b.Records) {
		return &Difference{Batch: -1, Row: -1, What: whatBatches, A: strconv.Itoa(len(a.Records)), B: strconv.Itoa(len(b.Records))}
	}
	for i := range a.Records {
		ra, rb := a.Records[i], b.Records[i]
		if ra.NumRows() != rb.NumRows() {
			return &Difference{Batch: i, Row: -1, What: "row counts", A: strconv.Itoa(ra.NumRows()), B: strconv.Itoa(rb.NumRows())}
		}
		for j := range ra.NumCols() {
			f := a.Schema.Field(j)
			ca, cb := ra.Column(j), rb.Column(j)
			if c.ignoreMapNames {
				// The schemas agree but for map field names: read b's data
				// under a's types so that the arrays compare.
				cb = array.MustMake(retype(cb.Data(), ca.DataType()))
			}
			if d := columnDiff(ca, cb, fieldPath("", j, f.Name)); d != nil {
				d.Batch = i
				return d
			}
		}
	}
	return nil
}

func (c *compareConfig) schemas(a, b *File) *Difference {
	if a.Schema == nil || b.Schema == nil {
		has := func(f *File) string {
			if f.Schema == nil {
				return "none"
			}
			return "present"
		}
		return &Difference{Batch: -1, Row: -1, What: "schemas", A: has(a), B: has(b)}
	}
	if a.Schema.NumFields() != b.Schema.NumFields() {
		return &Difference{Batch: -1, Row: -1, What: "numbers of fields", A: strconv.Itoa(a.Schema.NumFields()), B: strconv.Itoa(b.Schema.NumFields())}
	}
	for i := range a.Schema.NumFields() {
		fa, fb := a.Schema.Field(i), b.Schema.Field(i)
		if d := c.field(fa, fb, fieldPath("", i, fa.Name), false); d != nil {
			return d
		}
	}
	if ma, mb := a.Schema.Metadata(), b.Schema.Metadata(); !metadataEqual(ma, mb) {
		return &Difference{Batch: -1, Row: -1, What: "schema metadata", A: ma.String(), B: mb.String()}
	}
	return nil
}

func schemaDiff(path, what string, a, b any) *Difference {
	return &Difference{Batch: -1, Path: path, Row: -1, What: what, A: fmt.Sprint(a), B: fmt.Sprint(b)}
}

func (c *compareConfig) field(a, b datatype.Field, path string, ignoreName bool) *Difference {
	if !ignoreName && a.Name != b.Name {
		return schemaDiff(path, "names", strconv.Quote(a.Name), strconv.Quote(b.Name))
	}
	if a.Nullable != b.Nullable {
		return schemaDiff(path, "nullability", a.Nullable, b.Nullable)
	}
	if !metadataEqual(a.Metadata, b.Metadata) {
		return schemaDiff(path, "metadata", a.Metadata, b.Metadata)
	}
	return c.typ(a.Type, b.Type, path)
}

func (c *compareConfig) typ(a, b datatype.DataType, path string) *Difference {
	if a.Kind() != b.Kind() {
		return schemaDiff(path, "types", a, b)
	}
	switch ta := a.(type) {
	case datatype.ExtensionType:
		tb := b.(datatype.ExtensionType)
		if ta.ExtensionName() != tb.ExtensionName() || !ta.ExtensionEqual(tb) {
			return schemaDiff(path, "types", a, b)
		}
		return c.typ(ta.StorageType(), tb.StorageType(), path)
	case *datatype.DictionaryType:
		tb := b.(*datatype.DictionaryType)
		if !datatype.Equal(ta.Index, tb.Index) || ta.Ordered != tb.Ordered {
			return schemaDiff(path, "dictionary encodings", a, b)
		}
		return c.typ(ta.Value, tb.Value, path)
	case *datatype.MapType:
		tb := b.(*datatype.MapType)
		if ta.KeysSorted != tb.KeysSorted {
			return schemaDiff(path, "types", a, b)
		}
		ea, eb := ta.Entries(), tb.Entries()
		ep := fieldPath(path, 0, ea.Name)
		if !c.ignoreMapNames && ea.Name != eb.Name {
			return schemaDiff(ep, "names", strconv.Quote(ea.Name), strconv.Quote(eb.Name))
		}
		if ea.Nullable != eb.Nullable {
			return schemaDiff(ep, "nullability", ea.Nullable, eb.Nullable)
		}
		if !metadataEqual(ea.Metadata, eb.Metadata) {
			return schemaDiff(ep, "metadata", ea.Metadata, eb.Metadata)
		}
		for i, fa := range []datatype.Field{ta.Key(), ta.Item()} {
			fb := []datatype.Field{tb.Key(), tb.Item()}[i]
			if d := c.field(fa, fb, fieldPath(ep, i, fa.Name), c.ignoreMapNames); d != nil {
				return d
			}
		}
		return nil
	}
	ka, kb := datatype.Children(a), datatype.Children(b)
	if len(ka) == 0 && len(kb) == 0 {
		if !datatype.Equal(a, b) {
			return schemaDiff(path, "types", a, b)
		}
		return nil
	}
	if len(ka) != len(kb) {
		return schemaDiff(path, "types", a, b)
	}
	switch ta := a.(type) {
	case *datatype.ListType:
		if ta.Size() != b.(*datatype.ListType).Size() {
			return schemaDiff(path, "types", a, b)
		}
	case *datatype.UnionType:
		ca, cb := ta.TypeCodes(), b.(*datatype.UnionType).TypeCodes()
		for i := range ca {
			if ca[i] != cb[i] {
				return schemaDiff(path, "union type codes", ca, cb)
			}
		}
	}
	for i := range ka {
		if d := c.field(ka[i], kb[i], fieldPath(path, i, ka[i].Name), false); d != nil {
			return d
		}
	}
	return nil
}

// metadataEqual compares metadata as sets of key–value pairs (the order
// of pairs does not count: Arrow writers keep metadata in maps, and Arrow
// C++ writes an extension's two keys in its own order), taking "ALKAID:"
// keys for their "ARROW:" counterparts.
func metadataEqual(a, b datatype.Metadata) bool {
	if a.Len() != b.Len() {
		return false
	}
	pairs := func(m datatype.Metadata) [][2]string {
		out := make([][2]string, m.Len())
		for i := range out {
			out[i] = [2]string{jsonKey(m.Key(i)), m.Value(i)}
		}
		slices.SortFunc(out, func(x, y [2]string) int {
			if c := strings.Compare(x[0], y[0]); c != 0 {
				return c
			}
			return strings.Compare(x[1], y[1])
		})
		return out
	}
	return slices.Equal(pairs(a), pairs(b))
}

// retype returns d with the types of t (which must have d's structure),
// recursively through children and dictionaries.
func retype(d *array.Data, t datatype.DataType) *array.Data {
	out := *d
	out.Type = t
	st := datatype.StorageOf(t)
	if dt, ok := st.(*datatype.DictionaryType); ok && d.Dictionary != nil {
		out.Dictionary = retype(d.Dictionary, dt.Value)
	}
	kids := datatype.Children(st)
	if len(kids) == len(d.Children) && len(kids) > 0 {
		out.Children = make([]*array.Data, len(kids))
		for i, c := range d.Children {
			out.Children[i] = retype(c, kids[i].Type)
		}
	}
	return &out
}

// columnDiff finds the first differing row of two columns of equal
// length, and descends into struct fields to name the deepest differing
// one.
func columnDiff(a, b array.Array, path string) *Difference {
	row, _, eq := firstDiff(a, b)
	if eq {
		return nil
	}
	if row < 0 {
		return &Difference{Path: path, Row: -1, What: "types", A: a.DataType().String(), B: b.DataType().String()}
	}
	if row >= a.Len() || row >= b.Len() {
		return &Difference{Path: path, Row: -1, What: "lengths", A: strconv.Itoa(a.Len()), B: strconv.Itoa(b.Len())}
	}
	for {
		sa, ok1 := a.(*array.Struct)
		sb, ok2 := b.(*array.Struct)
		if !ok1 || !ok2 || sa.IsNull(row) || sb.IsNull(row) {
			break
		}
		st := datatype.StorageOf(sa.DataType()).(*datatype.StructType)
		found := false
		for i := range sa.NumField() {
			fa, fb := sa.Field(i), sb.Field(i)
			if _, _, eq := firstDiff(array.Slice(fa, row, row+1), array.Slice(fb, row, row+1)); !eq {
				a, b, path, found = fa, fb, fieldPath(path, i, st.Field(i).Name), true
				break
			}
		}
		if !found {
			break
		}
	}
	return &Difference{Path: path, Row: row, What: "values", A: array.FormatValue(a, row), B: array.FormatValue(b, row)}
}

// firstDiff is [array.FirstDifference] with NaN equal to NaN.
func firstDiff(a, b array.Array) (int, string, bool) {
	if array.ApproxEqual(a, b, array.AbsTolerance(0), array.NaNEqual()) {
		return -1, "", true
	}
	base := 0
	for {
		row, desc, eq := array.FirstDifference(a, b)
		if eq || row < 0 || row >= a.Len() || row >= b.Len() {
			return base + row, desc, eq
		}
		if !array.ApproxEqual(array.Slice(a, row, row+1), array.Slice(b, row, row+1), array.AbsTolerance(0), array.NaNEqual()) {
			return base + row, desc, false
		}
		// Only NaNs differ at row: look further.
		a, b = array.Slice(a, row+1, a.Len()), array.Slice(b, row+1, b.Len())
		base += row + 1
	}
}
