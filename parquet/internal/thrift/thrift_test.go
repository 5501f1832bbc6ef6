package thrift

import (
	"errors"
	"reflect"
	"runtime"
	"strconv"
	"testing"
)

type inner struct {
	A int32  `thrift:"1,required"`
	B *bool  `thrift:"2"`
	C string `thrift:"3"`
}

type outer struct {
	I8    int8      `thrift:"1"`
	I16   int16     `thrift:"2"`
	I32   int32     `thrift:"3,required"`
	I64   int64     `thrift:"4"`
	F     float64   `thrift:"5"`
	S     string    `thrift:"6"`
	Bin   []byte    `thrift:"7"`
	T     bool      `thrift:"8"`
	Opt   *int64    `thrift:"9"`
	In    *inner    `thrift:"10"`
	List  []inner   `thrift:"11"`
	Ints  []int32   `thrift:"12"`
	Bools []bool    `thrift:"13"`
	Far   int32     `thrift:"300"`
	Strs  []string  `thrift:"301"`
	Empty *struct{} `thrift:"302"`
}

func ptr[T any](v T) *T { return &v }

func TestRoundTrip(t *testing.T) {
	long := make([]int32, 40)
	for i := range long {
		long[i] = int32(i*1000 - 7)
	}
	cases := []outer{
		{I32: 1},
		{I8: -3, I16: -300, I32: 1 << 30, I64: -1 << 60, F: 2.5, S: "héllo", Bin: []byte{0, 1, 2}, T: true,
			Opt: ptr(int64(0)), In: &inner{A: 7, B: ptr(false), C: "x"},
			List: []inner{{A: 1}, {A: 2, B: ptr(true)}}, Ints: long, Bools: []bool{true, false, true},
			Far: 9, Strs: []string{"a", ""}, Empty: &struct{}{}},
	}
	for i, c := range cases {
		b := Marshal(nil, &c)
		var got outer
		n, err := Unmarshal(b, &got)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if n != len(b) {
			t.Errorf("case %d: used %d of %d bytes", i, n, len(b))
		}
		if c.Bin == nil {
			c.Bin = got.Bin
		}
		if !reflect.DeepEqual(got, c) {
			t.Errorf("case %d: got %+v, want %+v", i, got, c)
		}
	}
}

func TestUnknownFieldsSkipped(t *testing.T) {
	full := Marshal(nil, &outer{I32: 5, In: &inner{A: 1, C: "zz"}, List: []inner{{A: 3}}, Far: 4})
	type small struct {
		I32 int32 `thrift:"3,required"`
		Far int32 `thrift:"300"`
	}
	var s small
	if _, err := Unmarshal(full, &s); err != nil {
		t.Fatal(err)
	}
	if s.I32 != 5 || s.Far != 4 {
		t.Errorf("got %+v", s)
	}
}

func TestHostile(t *testing.T) {
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"no stop", []byte{0x35, 0x02}},
		{"huge list", []byte{0x35, 0x02, 0xc9, 0xf5, 0xff, 0xff, 0xff, 0x0f}},
		{"huge binary", []byte{0x35, 0x02, 0x38, 0xff, 0xff, 0xff, 0xff, 0x0f}},
		{"wrong type of a required field", []byte{0x36, 0x02, 0x00}},
		{"missing required", []byte{0x00}},
		{"bad varint", []byte{0x35, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"i32 overflow", []byte{0x35, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00}},
		{"bad type code", []byte{0x35, 0x02, 0x7d, 0x00}},
		{"deep skip", append([]byte{0x35, 0x02}, repeat(0x1c, 200)...)},
		{"huge map", []byte{0x35, 0x02, 0x7b, 0xff, 0xff, 0x7f, 0x55}},
	}
	for _, c := range cases {
		var o outer
		_, err := Unmarshal(c.data, &o)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", c.name, err)
		}
	}
}

func repeat(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

func FuzzUnmarshal(f *testing.F) {
	f.Add(Marshal(nil, &outer{I32: 1, List: []inner{{A: 1}}, Strs: []string{"a"}}))
	f.Add([]byte{0x35, 0x02, 0x00})
	f.Add([]byte{0x19, 0x1c, 0x15, 0x02, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		var o outer
		n, err := Unmarshal(data, &o)
		if err != nil {
			return
		}
		if n > len(data) {
			t.Fatalf("used %d of %d bytes", n, len(data))
		}
		// What decoded must encode and decode to the same value.
		again := Marshal(nil, &o)
		var o2 outer
		if _, err := Unmarshal(again, &o2); err != nil {
			t.Fatalf("re-decoding: %v", err)
		}
		if o.F != o.F { // NaN never equals itself
			o.F, o2.F = 0, 0
		}
		if !reflect.DeepEqual(o, o2) {
			t.Fatalf("re-decoded %+v, want %+v", o2, o)
		}
	})
}

type item struct {
	Name  string   `thrift:"1,required"`
	Bin   []byte   `thrift:"2"`
	Opt   *string  `thrift:"3"`
	I32   *int32   `thrift:"4"`
	I16   *int16   `thrift:"5"`
	F     *float64 `thrift:"6"`
	B     *bool    `thrift:"7"`
	U8    uint8    `thrift:"8"`
	Bins  [][]byte `thrift:"9"`
	Flags []*bool  `thrift:"10"`
}

type items struct {
	List []item `thrift:"1,required"`
}

// TestManyValues decodes more optional values, strings and byte slices
// than fit the first blocks they are carved from, short and long ones:
// each decodes to its own value, which a collection keeps and a change to
// one (appending to a byte slice, writing through a pointer) leaves the
// others as they are.
func TestManyValues(t *testing.T) {
	for _, n := range []int{1, 17, 3000} {
		in := items{List: make([]item, n)}
		for i := range in.List {
			long := string(repeat(byte('a'+i%26), i%300))
			in.List[i] = item{Name: long, Bin: []byte(long + "!"), Opt: ptr(long), I32: ptr(int32(-i)),
				I16: ptr(int16(i)), F: ptr(float64(i) / 4), B: ptr(i%2 == 0), U8: uint8(i),
				Bins: [][]byte{{byte(i)}, []byte(long)}, Flags: []*bool{ptr(true), ptr(i%3 == 0)}}
		}
		data := Marshal(nil, &in)
		var got, again items
		if _, err := Unmarshal(data, &got); err != nil {
			t.Fatalf("%d items: %v", n, err)
		}
		runtime.GC()
		if !reflect.DeepEqual(got, in) {
			t.Fatalf("%d items: decoded values differ", n)
		}
		for i := range got.List {
			it := &got.List[i]
			it.Bin = append(it.Bin, "??"...)
			it.Bins[0] = append(it.Bins[0], 'x')
			*it.I32, *it.I16, *it.F = int32(i)+5, int16(i)+5, float64(i)+5
			*it.B, *it.Flags[1] = i%2 != 0, i%3 != 0
			*it.Opt = strconv.Itoa(i)
		}
		if _, err := Unmarshal(data, &again); err != nil {
			t.Fatal(err)
		}
		for i := range got.List {
			g, w := &got.List[i], &in.List[i]
			if g.Name != w.Name || string(g.Bin) != string(w.Bin)+"??" || string(g.Bins[1]) != string(w.Bins[1]) ||
				string(g.Bins[0]) != string(w.Bins[0])+"x" || *g.I32 != int32(i)+5 || *g.I16 != int16(i)+5 ||
				*g.F != float64(i)+5 || *g.B != (i%2 != 0) || !*g.Flags[0] || *g.Flags[1] != (i%3 != 0) ||
				*g.Opt != strconv.Itoa(i) {
				t.Fatalf("%d items: item %d changed by a change to another", n, i)
			}
		}
		if !reflect.DeepEqual(again, in) {
			t.Fatalf("%d items: decoding again differs", n)
		}
	}
}
