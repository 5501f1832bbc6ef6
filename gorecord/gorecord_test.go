package gorecord_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/gorecord"
	"github.com/alkaid-go/alkaid/memory"
)

func TestSchemaOfSmall(t *testing.T) {
	type Row struct {
		ID      int64     `alkaid:"id"`
		Name    string    `alkaid:"name,dict"`
		When    time.Time `alkaid:"when,unit=ms,tz="`
		Score   *float64  `alkaid:"score"`
		Tags    []string  `alkaid:"tags,notnull"`
		Note    string    `alkaid:"note,nullable"`
		Ignored string    `alkaid:"-"`
	}
	s, err := gorecord.SchemaOf[Row]()
	if err != nil {
		t.Fatal(err)
	}
	want := `schema:
  id: int64 not null
  name: dictionary<values=utf8, indices=int32> not null
  when: timestamp[ms] not null
  score: float64
  tags: list<item: utf8 not null> not null
  note: utf8`
	if s.String() != want {
		t.Errorf("schema:\n%s\nwant:\n%s", s, want)
	}
}

func TestUnsupportedTypes(t *testing.T) {
	type WithFunc struct {
		Items []struct{ Notify func() }
	}
	type WithChan struct{ C chan int }
	type WithIface struct{ V any }
	type WithComplex struct{ C complex128 }
	type PtrPtr struct{ P **int }
	type Node struct {
		Value    int
		Children []Node
	}
	type WithRecursive struct{ Root Node }
	type WithMapIface struct{ M map[string]any }
	type BadKey struct{ M map[*string]int }

	cases := []struct {
		err  error
		want string
	}{
		{errOf[WithFunc](), "gorecord: not supported: field WithFunc.Items[].Notify: Go type func()"},
		{errOf[WithChan](), "gorecord: not supported: field WithChan.C: Go type chan int"},
		{errOf[WithIface](), "gorecord: not supported: field WithIface.V: Go type interface {} (interface fields need the json tag option, or a concrete type)"},
		{errOf[WithComplex](), "gorecord: not supported: field WithComplex.C: Go type complex128"},
		{errOf[PtrPtr](), "gorecord: not supported: field PtrPtr.P: Go type **int (pointer to pointer)"},
		{errOf[WithRecursive](), "gorecord: not supported: field WithRecursive.Root.Children[]: Go type gorecord_test.Node (recursive type)"},
		{errOf[WithMapIface](), "gorecord: not supported: field WithMapIface.M{value}: Go type interface {} (interface fields need the json tag option, or a concrete type)"},
		{errOf[BadKey](), "gorecord: not supported: field BadKey.M: Go type map[*string]int (map keys cannot be null; use a non-pointer key type)"},
		{errOf[int](), "gorecord: not supported: row type int is not a struct"},
	}
	for _, c := range cases {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("error %v\n      want %s", c.err, c.want)
		}
		if !errors.Is(c.err, gorecord.ErrNotSupported) {
			t.Errorf("%v does not wrap ErrNotSupported", c.err)
		}
	}
	// The same error comes from every entry point, cached.
	if _, err := gorecord.FromSlice([]WithChan{{}}); err == nil || err.Error() != cases[1].want {
		t.Errorf("FromSlice: %v", err)
	}
	if _, err := gorecord.ToSlice[WithChan](mustFromSlice(t, []struct{ C int }{{}})); !errors.Is(err, gorecord.ErrNotSupported) {
		t.Errorf("ToSlice: %v", err)
	}
}

func errOf[T any]() error {
	_, err := gorecord.SchemaOf[T]()
	return err
}

func TestTagErrors(t *testing.T) {
	type BadUnit struct {
		T time.Time `alkaid:"t,unit=days"`
	}
	type BadOpt struct {
		S string `alkaid:"s,compress"`
	}
	type Both struct {
		S *string `alkaid:"s,nullable,notnull"`
	}
	type DictList struct {
		L struct{ A int } `alkaid:"l,dict"`
	}
	type Clash struct {
		A int `alkaid:"x"`
		B int `alkaid:"x"`
	}
	type UnitOnString struct {
		S []string `alkaid:"s,unit=ms"`
	}
	type NotNullInt struct {
		N int `alkaid:"n,notnull"`
	}
	type LargeInt struct {
		N *int `alkaid:"n,large"`
	}
	type ScaleOnFloat struct {
		F float64 `alkaid:"f,scale=2"`
	}
	type BadPrecision struct {
		D datatype.Decimal32 `alkaid:"d,precision=12"`
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{errOf[BadUnit](), `gorecord: invalid alkaid tag: field BadUnit.T: tag option "unit=days": want s, ms, us or ns`},
		{errOf[BadOpt](), `gorecord: invalid alkaid tag: field BadOpt.S: tag option "compress": unknown option`},
		{errOf[Both](), `gorecord: invalid alkaid tag: field Both.S: both nullable and notnull`},
		{errOf[DictList](), `gorecord: invalid alkaid tag: field DictList.L: dict needs a string, []byte, [N]byte, bool or fixed-width type, not struct { A int }`},
		{errOf[Clash](), `gorecord: invalid alkaid tag: Clash: column name "x" is used by two fields at the same depth (tag one of them)`},
		{errOf[UnitOnString](), `gorecord: invalid alkaid tag: field UnitOnString.S[]: unit applies to time.Time, time.Duration and the datatype time types, not string`},
		{errOf[NotNullInt](), `gorecord: invalid alkaid tag: field NotNullInt.N: notnull applies to pointers, slices, maps and []byte, not int`},
		{errOf[LargeInt](), `gorecord: invalid alkaid tag: field LargeInt.N: large and view apply to strings, []byte and slices, not int`},
		{errOf[ScaleOnFloat](), `gorecord: invalid alkaid tag: field ScaleOnFloat.F: precision and scale apply to the datatype decimal types, not float64`},
		{errOf[BadPrecision](), `gorecord: invalid alkaid tag: field BadPrecision.D: datatype: invalid: decimal32 precision 12 out of range [1, 9]`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("error %v\n      want %s", c.err, c.want)
		}
		if !errors.Is(c.err, gorecord.ErrInvalidTag) {
			t.Errorf("%v does not wrap ErrInvalidTag", c.err)
		}
	}
}

func TestEmbeddedFlattening(t *testing.T) {
	type Audit struct {
		Created time.Time `alkaid:"created"`
		ID      int64     // hidden by Row.ID, which is shallower
	}
	type inner struct{ Secret int } // unexported embedded type: its exported fields still count
	type Row struct {
		Audit
		inner
		ID   string
		Meta Audit `alkaid:"meta"` // named: a nested struct, not flattened
	}
	s, err := gorecord.SchemaOf[Row]()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name+":"+f.Type.String())
	}
	want := []string{"created:timestamp[us, tz=UTC]", "Secret:int64", "ID:utf8",
		"meta:struct<created: timestamp[us, tz=UTC] not null, ID: int64 not null>"}
	if !slices.Equal(names, want) {
		t.Errorf("columns %q\nwant %q", names, want)
	}
	rows := []Row{{Audit: Audit{Created: time.Unix(5, 0).UTC(), ID: 9}, inner: inner{Secret: 3}, ID: "x"}}
	got, err := gorecord.ToSlice[Row](mustFromSlice(t, rows))
	if err != nil {
		t.Fatal(err)
	}
	rows[0].Audit.ID = 0 // not a column
	checkRows(t, got, rows)
}

func TestToSliceMismatch(t *testing.T) {
	type Src struct {
		ID   int32
		Name string
		Tags []string
		Pt   struct{ X, Y int }
	}
	rec := mustFromSlice(t, []Src{{ID: 1, Name: "a"}})

	type WrongType struct{ ID int64 }
	type Missing struct{ Other string }
	type WrongNested struct{ Tags []int64 }
	type WrongChild struct{ Pt struct{ Z int } }
	for _, c := range []struct {
		err  error
		want string
	}{
		{toSliceErr[WrongType](rec), `gorecord: column "ID": column does not fit Go type: type int32 does not fit field WrongType.ID of Go type int64`},
		{toSliceErr[Missing](rec), `gorecord: column does not fit Go type: no column "Other" for field Missing.Other`},
		{toSliceErr[WrongNested](rec), `gorecord: column "Tags": column does not fit Go type: type utf8 does not fit field WrongNested.Tags[] of Go type int64`},
		{toSliceErr[WrongChild](rec), `gorecord: column "Pt": column does not fit Go type: struct struct<X: int64 not null, Y: int64 not null> has no child "Z" for field WrongChild.Pt.Z`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("error %v\n      want %s", c.err, c.want)
		}
		if !errors.Is(c.err, gorecord.ErrMismatch) {
			t.Errorf("%v does not wrap ErrMismatch", c.err)
		}
	}
}

func toSliceErr[T any](rec *alkaid.Record) error {
	_, err := gorecord.ToSlice[T](rec)
	return err
}

func TestNullsIntoValues(t *testing.T) {
	type Src struct {
		N *int64
		S *string
		P *struct{ A int32 }
	}
	one := int64(1)
	rec := mustFromSlice(t, []Src{{N: &one, P: &struct{ A int32 }{7}}, {}})

	type Dst struct {
		N int64
		S string
		P struct{ A int32 }
	}
	_, err := gorecord.ToSlice[Dst](rec)
	want := `gorecord: column "N": null into non-nullable Go value: slot 1 of field Dst.N is null but Go type int64 has no nil (use a pointer, or WithZeroForNull)`
	if err == nil || err.Error() != want || !errors.Is(err, gorecord.ErrNull) {
		t.Errorf("error %v\n      want %s", err, want)
	}
	got, err := gorecord.ToSlice[Dst](rec, gorecord.WithZeroForNull())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []Dst{{N: 1, P: struct{ A int32 }{7}}, {}}) {
		t.Errorf("got %+v", got)
	}
	// And back into pointers: the nulls are nil.
	back, err := gorecord.ToSlice[Src](rec)
	if err != nil {
		t.Fatal(err)
	}
	if *back[0].N != 1 || back[0].S != nil || back[1].N != nil || back[1].P != nil || back[0].P.A != 7 {
		t.Errorf("got %+v %+v", back[0], back[1])
	}
}

func TestNotNull(t *testing.T) {
	type Row struct {
		P *int32          `alkaid:"p,notnull"`
		L []int32         `alkaid:"l,notnull"`
		M map[string]bool `alkaid:"m,notnull"`
		B []byte          `alkaid:"b,notnull"`
	}
	rec := mustFromSlice(t, []Row{{}})
	for i := range rec.NumCols() {
		if rec.Schema().Field(i).Nullable || rec.Column(i).NullN() != 0 {
			t.Errorf("column %s is nullable or has nulls", rec.ColumnName(i))
		}
	}
	got, err := gorecord.ToSlice[Row](rec)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].P == nil || *got[0].P != 0 || got[0].L == nil || got[0].M == nil || got[0].B == nil {
		t.Errorf("nil not written as empty: %+v", got[0])
	}
}

// TestReadVariants reads columns of every layout variant into plain Go
// fields: the reading side follows the column, not the tags.
func TestReadVariants(t *testing.T) {
	type Src struct {
		S  string        `alkaid:"s,large"`
		V  string        `alkaid:"v,view"`
		D  string        `alkaid:"d,dict"`
		L  []int64       `alkaid:"l,view"`
		LL []int64       `alkaid:"ll,large"`
		T  time.Time     `alkaid:"t,unit=s,tz=Asia/Tokyo"`
		DU time.Duration `alkaid:"du,unit=us"`
		A  [2]int16      `alkaid:"a"`
		BD []byte        `alkaid:"bd,dict"`
	}
	type Dst struct {
		S  string        `alkaid:"s"`
		V  string        `alkaid:"v"`
		D  string        `alkaid:"d"`
		L  []int64       `alkaid:"l"`
		LL []int64       `alkaid:"ll"`
		T  time.Time     `alkaid:"t"`
		DU time.Duration `alkaid:"du"`
		A  []int16       `alkaid:"a"`
		BD []byte        `alkaid:"bd"`
	}
	src := []Src{
		{S: "x", V: "yyyyyyyyyyyyyyyyyyyy", D: "z", L: []int64{1}, LL: []int64{2, 3}, T: time.Unix(100, 0), DU: 3 * time.Microsecond, A: [2]int16{4, 5}, BD: []byte("q")},
		{D: "z", BD: []byte{}},
		{D: "w"},
	}
	got, err := gorecord.ToSlice[Dst](mustFromSlice(t, src))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range src {
		g := got[i]
		if g.S != s.S || g.V != s.V || g.D != s.D || !slices.Equal(g.L, s.L) || !slices.Equal(g.LL, s.LL) ||
			!g.T.Equal(s.T) || g.DU != s.DU || !slices.Equal(g.A, s.A[:]) || string(g.BD) != string(s.BD) || (g.BD == nil) != (s.BD == nil) {
			t.Errorf("row %d: got %+v\nwant %+v", i, g, s)
		}
	}
	if loc := got[0].T.Location().String(); loc != "Asia/Tokyo" && loc != "UTC" {
		t.Errorf("location %s", loc)
	}
}

func TestStringsShareOneAllocationButNotMemory(t *testing.T) {
	type Row struct {
		S string
		B []byte
	}
	got, err := gorecord.ToSlice[Row](mustFromSlice(t, []Row{{"ab", []byte("cd")}, {"ef", []byte("gh")}}))
	if err != nil {
		t.Fatal(err)
	}
	got[0].B = append(got[0].B, 'X') // capacity is capped: must not overwrite row 1
	if string(got[1].B) != "gh" || got[0].S != "ab" || got[1].S != "ef" {
		t.Errorf("got %q", got)
	}
}

func TestWriterBatches(t *testing.T) {
	type Row struct {
		I int
		S string
		L []int32
	}
	rows := make([]Row, 1000)
	for i := range rows {
		rows[i] = Row{I: i, S: strings.Repeat("x", i%7), L: make([]int32, i%3)}
	}
	var out collect
	w, err := gorecord.NewWriter[Row](&out, gorecord.WithBatchSize(300))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[:10] {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.AppendSlice(rows[10:]); err != nil {
		t.Fatal(err)
	}
	if w.Buffered() != 100 {
		t.Errorf("buffered %d", w.Buffered())
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	var got []Row
	for _, r := range out.recs {
		sizes = append(sizes, r.NumRows())
		part, err := gorecord.ToSlice[Row](r)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, part...)
	}
	if !slices.Equal(sizes, []int{300, 300, 300, 100}) {
		t.Errorf("batch sizes %v", sizes)
	}
	checkRows(t, got, rows)

	// The same through a RecordReader, stopping early.
	rr, err := gorecord.NewReader(slices.Values(rows), gorecord.WithBatchSize(400))
	if err != nil {
		t.Fatal(err)
	}
	if !rr.Schema().Equal(w.Schema()) {
		t.Errorf("reader schema %v", rr.Schema())
	}
	n := 0
	for rec, err := range rr.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if n++; rec.NumRows() != 400 || n > 2 {
			t.Fatalf("batch %d of %d rows", n, rec.NumRows())
		}
		if n == 2 {
			break
		}
	}
}

func TestWriterEmitError(t *testing.T) {
	type Row struct{ I int }
	boom := errors.New("boom")
	w, err := gorecord.NewWriter[Row](failing{boom}, gorecord.WithBatchSize(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AppendSlice([]Row{{1}, {2}, {3}}); !errors.Is(err, boom) {
		t.Errorf("err %v", err)
	}
}

func TestDictionaryFull(t *testing.T) {
	type Row struct {
		S string `alkaid:"s,dict=int8"`
	}
	rows := make([]Row, 200)
	for i := range rows {
		rows[i].S = strings.Repeat("a", i)
	}
	_, err := gorecord.FromSlice(rows)
	if !errors.Is(err, array.ErrDictionaryFull) {
		t.Errorf("err %v", err)
	}
}

func TestEmptyAndAllocator(t *testing.T) {
	type Row struct {
		A int
		B []string
	}
	rec := mustFromSlice(t, []Row(nil), gorecord.WithSchemaMetadata(datatype.MetadataFrom("k", "v")))
	if rec.NumRows() != 0 || rec.NumCols() != 2 {
		t.Fatalf("%d rows %d cols", rec.NumRows(), rec.NumCols())
	}
	if v, _ := rec.Schema().Metadata().Get("k"); v != "v" {
		t.Errorf("metadata %s", rec.Schema().Metadata())
	}
	got, err := gorecord.ToSlice[Row](rec)
	if err != nil || len(got) != 0 || got == nil {
		t.Errorf("got %v, %v", got, err)
	}
}

type Opaque [16]byte

func TestRegisterType(t *testing.T) {
	// A type we do not own, stored as a registered extension type.
	gorecord.RegisterType[Opaque](celsiusLikeUUID{})
	type Row struct{ O Opaque }
	s, err := gorecord.SchemaOf[Row]()
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Field(0).Type.String(); got != "extension<test.opaque16, fixed_size_binary[16]>" {
		t.Errorf("type %s", got)
	}
	rows := []Row{{Opaque{1, 2, 3}}}
	got, err := gorecord.ToSlice[Row](mustFromSlice(t, rows))
	if err != nil || got[0] != rows[0] {
		t.Errorf("got %v, %v", got, err)
	}
	// A registered type must fit its storage.
	gorecord.RegisterType[int32](celsiusLikeUUID{})
	defer gorecord.RegisterType[int32](nil)
	type Bad struct{ X int32 }
	want := "gorecord: not supported: field Bad.X: Go type int32 maps to int32 but extension test.opaque16 stores fixed_size_binary[16]"
	if err := errOf[Bad](); err == nil || err.Error() != want {
		t.Errorf("error %v\n      want %s", err, want)
	}
}

type celsiusLikeUUID struct{}

var fsb16, _ = datatype.NewFixedSizeBinary(16)

func (celsiusLikeUUID) Kind() datatype.Kind                        { return datatype.KindExtension }
func (t celsiusLikeUUID) String() string                           { return datatype.ExtensionString(t) }
func (celsiusLikeUUID) ExtensionName() string                      { return "test.opaque16" }
func (celsiusLikeUUID) StorageType() datatype.DataType             { return fsb16 }
func (celsiusLikeUUID) Serialize() string                          { return "" }
func (celsiusLikeUUID) ExtensionEqual(datatype.ExtensionType) bool { return true }
func (c celsiusLikeUUID) Deserialize(datatype.DataType, string) (datatype.ExtensionType, error) {
	return c, nil
}

// Durations and timestamps that time.Duration or time.Time cannot hold are
// errors, not values wrapped around; null slots may hold anything.
func TestTimeOutOfRange(t *testing.T) {
	column := func(typ datatype.DataType, values []int64, valid byte) *alkaid.Record {
		d := array.NewData(typ, len(values), []*memory.Buffer{memory.FromSlice([]byte{valid}), memory.FromSlice(values)}, nil, -1, 0)
		s := alkaid.NewSchema([]datatype.Field{{Name: "V", Type: typ, Nullable: true}}, datatype.Metadata{})
		rec, err := alkaid.NewRecord(s, []array.Array{array.MustMake(d)}, len(values))
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	secs, _ := datatype.NewDuration(datatype.Second)
	type D struct{ V *time.Duration }
	_, err := gorecord.ToSlice[D](column(secs, []int64{1, 1e12}, 0b11))
	want := `gorecord: column "V": value out of range: slot 1 of field D.V: 1000000000000 s overflows time.Duration (about 292 years)`
	if err == nil || err.Error() != want || !errors.Is(err, gorecord.ErrRange) {
		t.Errorf("error %v\n      want %s", err, want)
	}
	got, err := gorecord.ToSlice[D](column(secs, []int64{-3, 1e12}, 0b01))
	if err != nil || *got[0].V != -3*time.Second || got[1].V != nil {
		t.Errorf("null slot with a large value: %v, %v", got, err)
	}

	ts, _ := datatype.NewTimestamp(datatype.Second, "")
	type T struct{ V *time.Time }
	_, err = gorecord.ToSlice[T](column(ts, []int64{0, math.MaxInt64}, 0b11))
	want = `gorecord: column "V": value out of range: slot 1 of field T.V: 9223372036854775807 s since 1970 is past the last time.Time`
	if err == nil || err.Error() != want || !errors.Is(err, gorecord.ErrRange) {
		t.Errorf("error %v\n      want %s", err, want)
	}
	last := int64(math.MaxInt64 - 62135596800)
	gotT, err := gorecord.ToSlice[T](column(ts, []int64{last, math.MaxInt64}, 0b01))
	if err != nil || gotT[0].V.Unix() != last || gotT[1].V != nil {
		t.Errorf("last second: %v, %v", gotT, err)
	}
}

// collect is an alkaid.RecordWriter keeping what is written.
type collect struct{ recs []*alkaid.Record }

func (c *collect) Write(rec *alkaid.Record) error {
	c.recs = append(c.recs, rec)
	return nil
}

func (c *collect) Close() error { return nil }

// failing is an alkaid.RecordWriter failing every write.
type failing struct{ err error }

func (f failing) Write(*alkaid.Record) error { return f.err }
func (f failing) Close() error               { return nil }

// discard is an alkaid.RecordWriter dropping what is written.
type discard struct{}

func (discard) Write(*alkaid.Record) error { return nil }
func (discard) Close() error               { return nil }

func TestBatchSizeOption(t *testing.T) {
	type Row struct{ I int }
	for _, n := range []int{0, -1} {
		_, err := gorecord.NewWriter[Row](discard{}, gorecord.WithBatchSize(n))
		if !errors.Is(err, datatype.ErrInvalid) || !strings.Contains(err.Error(), fmt.Sprintf("gorecord: invalid: WithBatchSize(%d)", n)) {
			t.Errorf("NewWriter: %v", err)
		}
		_, err = gorecord.NewReader(slices.Values([]Row{{1}}), gorecord.WithBatchSize(n))
		if !errors.Is(err, datatype.ErrInvalid) {
			t.Errorf("NewReader: %v", err)
		}
		_, err = gorecord.FromSlice([]Row{{1}}, gorecord.WithBatchSize(n))
		if !errors.Is(err, datatype.ErrInvalid) {
			t.Errorf("FromSlice: %v", err)
		}
	}
	// Options of the other direction.
	if _, err := gorecord.FromSlice([]Row{{1}}, gorecord.WithZeroForNull()); !errors.Is(err, datatype.ErrInvalid) ||
		!strings.Contains(err.Error(), "WithZeroForNull is an option of ToSlice") {
		t.Errorf("FromSlice: %v", err)
	}
	rec, err := gorecord.FromSlice([]Row{{1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gorecord.ToSlice[Row](rec, gorecord.WithBatchSize(3)); !errors.Is(err, datatype.ErrInvalid) ||
		!strings.Contains(err.Error(), "WithBatchSize is an option of builders") {
		t.Errorf("ToSlice: %v", err)
	}
	if _, err := gorecord.NewWriter[Row](nil); !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("nil writer: %v", err)
	}
	// The default batch size, and a reader read twice.
	rows := make([]Row, gorecord.DefaultBatchSize+1)
	rr, err := gorecord.NewReader(slices.Values(rows))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		tbl, err := alkaid.ReadAll(rr)
		if err != nil || tbl.NumRows() != len(rows) {
			t.Fatalf("%v rows, %v", tbl, err)
		}
	}
	var _ alkaid.RecordReader = rr
}
