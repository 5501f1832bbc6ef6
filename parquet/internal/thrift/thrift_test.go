package thrift

import (
	"errors"
	"reflect"
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
