package gorecord_test

import (
	"bytes"
	"fmt"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/extension"
	"github.com/alkaid-go/alkaid/gorecord"
	"github.com/alkaid-go/alkaid/ipc"
)

// Celsius is a test-only custom extension type: a float64 temperature
// stored as "test.celsius" over float64, mapped through the Extension
// interface (extension.UUID is mapped out of the box).
type Celsius float64

func (Celsius) AlkaidExtension() datatype.ExtensionType { return celsiusType{} }

type celsiusType struct{}

func (celsiusType) Kind() datatype.Kind                        { return datatype.KindExtension }
func (t celsiusType) String() string                           { return datatype.ExtensionString(t) }
func (celsiusType) ExtensionName() string                      { return "test.celsius" }
func (celsiusType) StorageType() datatype.DataType             { return datatype.Float64 }
func (celsiusType) Serialize() string                          { return "" }
func (celsiusType) ExtensionEqual(datatype.ExtensionType) bool { return true }
func (celsiusType) Deserialize(s datatype.DataType, _ string) (datatype.ExtensionType, error) {
	if s.Kind() != datatype.KindFloat64 {
		return nil, fmt.Errorf("test.celsius over %s", s)
	}
	return celsiusType{}, nil
}

func init() {
	if err := datatype.RegisterExtension(celsiusType{}); err != nil {
		panic(err)
	}
}

type Base struct {
	ID    int64 `alkaid:"id"`
	Label string
}

type Point struct{ X, Y int32 }

type Inner struct {
	Name  string
	Score *float64
	Tags  []string
}

// Everything exercises every mapping of the package documentation.
type Everything struct {
	Base               // flattened: columns id, Label
	I8         int8    `alkaid:"i8"`
	I16        int16   `alkaid:"i16"`
	I32        int32   `alkaid:"i32"`
	I64        int64   `alkaid:"i64"`
	I          int     `alkaid:"i"`
	U8         uint8   `alkaid:"u8"`
	U16        uint16  `alkaid:"u16"`
	U32        uint32  `alkaid:"u32"`
	U64        uint64  `alkaid:"u64"`
	U          uint    `alkaid:"u"`
	F32        float32 `alkaid:"f32"`
	F64        float64 `alkaid:"f64"`
	B          bool    `alkaid:"b"`
	S          string  `alkaid:"s"`
	SLarge     string  `alkaid:"s_large,large"`
	SView      string  `alkaid:"s_view,view"`
	SDict      string  `alkaid:"s_dict,dict"`
	IDict      int16   `alkaid:"i_dict,dict=int8"`
	Bytes      []byte  `alkaid:"bytes"`
	BytesLarge []byte  `alkaid:"bytes_large,large"`
	BytesView  []byte  `alkaid:"bytes_view,view"`
	Fixed      [4]byte `alkaid:"fixed"`
	UUID       extension.UUID
	Temp       Celsius
	PTemp      *Celsius
	T          time.Time
	TNs        time.Time           `alkaid:"t_ns,unit=ns"`
	TMs        time.Time           `alkaid:"t_ms,unit=ms,tz=+02:00"`
	D          time.Duration       `alkaid:"d"`
	DMs        time.Duration       `alkaid:"d_ms,unit=ms"`
	Dec        datatype.Decimal128 `alkaid:"dec,precision=20,scale=4"`
	Date       datatype.Date32
	TS         datatype.Timestamp `alkaid:"ts,unit=us,tz="`
	PI         *int64
	PS         *string
	PB         *bool
	PStruct    *Inner
	PTime      *time.Time
	Ints       []int32
	Strs       []string `alkaid:",large"`
	Views      []int64  `alkaid:",view"`
	Grid       [3]float64
	Pts        [2]Point
	M          map[string]int32
	MS         map[int64][]string
	Nested     Inner
	Items      []Inner
	Deep       [][]Inner
	Opt        []*Inner
	JS         any `alkaid:",json"`
	Skipped    int `alkaid:"-"`
	unexported int
}

func f64(v float64) *float64 { return &v }

func everythingRows() []Everything {
	paris := time.FixedZone("+02:00", 2*3600)
	t0 := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	tNs := time.Date(2024, 2, 29, 13, 14, 15, 123456789, time.UTC)
	i, s, b, c := int64(-7), "pointed", true, Celsius(-40)
	dec := datatype.Decimal128FromBig(big.NewInt(-12345678))
	return []Everything{
		{ // every value set, non-empty collections
			Base: Base{ID: 1, Label: "first"}, I8: -8, I16: -16, I32: -32, I64: -64, I: -1,
			U8: 8, U16: 16, U32: 32, U64: 1 << 63, U: 1, F32: 1.5, F64: -2.25, B: true,
			S: "héllo", SLarge: "large", SView: "a string longer than twelve bytes", SDict: "red", IDict: 300,
			Bytes: []byte{1, 2, 3}, BytesLarge: []byte("big"), BytesView: []byte("view bytes that are long enough"),
			Fixed: [4]byte{9, 8, 7, 6}, UUID: extension.MustParseUUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
			Temp: 21.5, PTemp: &c,
			T: t0, TNs: tNs, TMs: time.Date(2024, 2, 29, 15, 14, 15, 123000000, paris), D: 1500 * time.Millisecond, DMs: 2 * time.Second,
			Dec: dec, Date: 19782, TS: 1_700_000_000_000_000,
			PI: &i, PS: &s, PB: &b, PStruct: &Inner{Name: "p", Score: f64(0.5), Tags: []string{"x"}}, PTime: &t0,
			Ints: []int32{1, 2, 3}, Strs: []string{"a", "", "c"}, Views: []int64{10, 20},
			Grid: [3]float64{1, 2, 3}, Pts: [2]Point{{1, 2}, {3, 4}},
			M:      map[string]int32{"one": 1, "two": 2},
			MS:     map[int64][]string{1: {"a"}, 2: nil, 3: {}},
			Nested: Inner{Name: "nested", Score: f64(1), Tags: []string{}},
			Items:  []Inner{{Name: "i1", Score: f64(2)}, {Name: "i2", Tags: []string{"t"}}},
			Deep:   [][]Inner{{{Name: "d11"}}, {}, nil, {{Name: "d31", Tags: []string{"u", "v"}}, {Name: "d32"}}},
			Opt:    []*Inner{nil, {Name: "o2"}},
			JS:     map[string]any{"k": []any{1.0, "two", nil}},
		},
		{ // zero values: nil pointers, nil slices and maps, the zero time
			SDict: "red", TNs: time.Unix(0, 0).UTC(), TMs: time.Unix(0, 0).In(paris),
		},
		{ // empty but non-nil collections
			Base: Base{ID: 3}, SDict: "blue",
			Bytes: []byte{}, BytesLarge: []byte{}, BytesView: []byte{},
			Ints: []int32{}, Strs: []string{}, Views: []int64{}, M: map[string]int32{}, MS: map[int64][]string{},
			Items: []Inner{}, Deep: [][]Inner{}, Opt: []*Inner{}, JS: "text",
			PStruct: &Inner{}, T: time.Unix(0, 0).UTC(), TNs: time.Unix(0, 0).UTC(), TMs: time.Unix(0, 0).In(paris),
		},
	}
}

func writeStream(t testing.TB, recs ...*alkaid.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewStreamWriter(&buf, recs[0].Schema())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readStream(t *testing.T, b []byte) []*alkaid.Record {
	t.Helper()
	r, err := ipc.NewStreamReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out []*alkaid.Record
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

func TestRoundTripEverythingThroughIPC(t *testing.T) {
	rows := everythingRows()
	rec, err := gorecord.FromSlice(rows)
	if err != nil {
		t.Fatal(err)
	}
	if rec.NumRows() != len(rows) || rec.NumCols() != 52 {
		t.Fatalf("record of %d rows, %d columns", rec.NumRows(), rec.NumCols())
	}
	for i := range rec.NumCols() {
		if err := array.Validate(rec.Column(i).Data(), array.ValidateFull); err != nil {
			t.Fatalf("column %s: %v", rec.ColumnName(i), err)
		}
	}

	// Stream format.
	back := readStream(t, writeStream(t, rec))
	if len(back) != 1 {
		t.Fatalf("%d records read", len(back))
	}
	checkSameRecord(t, rec, back[0])
	got, err := gorecord.ToSlice[Everything](back[0])
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, rows)

	// File format.
	var buf bytes.Buffer
	fw, err := ipc.NewFileWriter(&buf, rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	fr, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	frec, err := fr.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	got, err = gorecord.ToSlice[Everything](frec)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, rows)
}

func checkSameRecord(t *testing.T, want, got *alkaid.Record) {
	t.Helper()
	if !want.Schema().Equal(got.Schema()) {
		t.Fatalf("schema changed over IPC:\n%s\n%s", want.Schema(), got.Schema())
	}
	for i := range want.NumCols() {
		if !array.Equal(want.Column(i), got.Column(i)) {
			t.Errorf("column %s changed over IPC:\n%s\n%s", want.ColumnName(i), want.Column(i), got.Column(i))
		}
	}
}

// checkRows compares field by field so that a difference names its field.
func checkRows[T any](t *testing.T, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := reflect.ValueOf(got[i]), reflect.ValueOf(want[i])
		for f := range w.NumField() {
			if !w.Type().Field(f).IsExported() || w.Type().Field(f).Name == "Skipped" {
				continue
			}
			if !reflect.DeepEqual(g.Field(f).Interface(), w.Field(f).Interface()) {
				t.Errorf("row %d field %s:\n got %#v\nwant %#v", i, w.Type().Field(f).Name, g.Field(f).Interface(), w.Field(f).Interface())
			}
		}
	}
}

func TestNilVersusEmpty(t *testing.T) {
	got, err := gorecord.ToSlice[Everything](mustFromSlice(t, everythingRows()))
	if err != nil {
		t.Fatal(err)
	}
	zero, empty := got[1], got[2]
	for name, isNil := range map[string]bool{
		"Bytes": zero.Bytes == nil, "Ints": zero.Ints == nil, "M": zero.M == nil, "Items": zero.Items == nil,
		"Deep": zero.Deep == nil, "PI": zero.PI == nil, "PStruct": zero.PStruct == nil, "JS": zero.JS == nil,
	} {
		if !isNil {
			t.Errorf("zero row: %s is not nil", name)
		}
	}
	for name, nonNil := range map[string]bool{
		"Bytes": empty.Bytes != nil, "Ints": empty.Ints != nil, "M": empty.M != nil, "Items": empty.Items != nil,
		"Deep": empty.Deep != nil, "Opt": empty.Opt != nil, "Nested.Tags": got[0].Nested.Tags != nil,
		"Deep[1]": got[0].Deep[1] != nil, "Deep[2] nil": got[0].Deep[2] == nil, "MS[3]": got[0].MS[3] != nil,
		"MS[2] nil": got[0].MS[2] == nil,
	} {
		if !nonNil {
			t.Errorf("%s: nil and empty not kept apart", name)
		}
	}
}

func mustFromSlice[T any](t *testing.T, rows []T, opts ...gorecord.Option) *alkaid.Record {
	t.Helper()
	rec, err := gorecord.FromSlice(rows, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestManyRowsAndSlices crosses the encoders' chunk boundaries and reads
// sliced records (arrays with offsets) back.
func TestManyRowsAndSlices(t *testing.T) {
	base := everythingRows()
	rows := make([]Everything, 700)
	for i := range rows {
		rows[i] = base[i%len(base)]
		rows[i].I64 = int64(i)
	}
	rec := mustFromSlice(t, rows)
	got, err := gorecord.ToSlice[Everything](rec)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, rows)
	for _, r := range [][2]int{{0, 0}, {1, 2}, {255, 258}, {100, 613}, {699, 700}} {
		part, err := gorecord.ToSlice[Everything](rec.Slice(r[0], r[1]))
		if err != nil {
			t.Fatal(err)
		}
		checkRows(t, part, rows[r[0]:r[1]])
	}
}
