package array

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/alkaid-go/alkaid/datatype"
)

// The builder benchmarks build an array of benchN values per iteration
// (without Reserve, so growth is included, except in the "reserved"
// variants) and report ns/value.
//
//	go test -run '^$' -bench BenchmarkBuilder -benchtime 200x ./array
const benchN = 1 << 14

func perValue(b *testing.B, build func()) {
	b.ReportAllocs()
	for range b.N {
		build()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchN, "ns/value")
}

type benchInput struct {
	ints    []int64
	floats  []float64
	strs    []string // 8 to 32 bytes
	valid   []bool   // every 10th slot null
	dictStr []string // 100 distinct strings of 8 to 32 bytes, repeated
}

func newBenchInput() *benchInput {
	r := rand.New(rand.NewPCG(1, 2))
	in := &benchInput{}
	randStr := func() string {
		s := make([]byte, 8+r.IntN(25))
		for i := range s {
			s[i] = byte('a' + r.IntN(26))
		}
		return string(s)
	}
	distinct := make([]string, 100)
	for i := range distinct {
		distinct[i] = randStr()
	}
	for i := range benchN {
		in.ints = append(in.ints, r.Int64())
		in.floats = append(in.floats, r.Float64())
		in.strs = append(in.strs, randStr())
		in.valid = append(in.valid, i%10 != 0)
		in.dictStr = append(in.dictStr, distinct[r.IntN(len(distinct))])
	}
	return in
}

func BenchmarkBuilder(b *testing.B) {
	in := newBenchInput()
	type variant struct {
		name  string
		build func()
	}
	cases := map[string][]variant{}

	i64 := NewPrimitiveBuilder[int64](datatype.Int64)
	cases["int64"] = []variant{
		{"Append", func() {
			for _, v := range in.ints {
				i64.Append(v)
			}
			i64.Finish()
		}},
		{"Append/reserved", func() {
			i64.Reserve(benchN)
			for _, v := range in.ints {
				i64.Append(v)
			}
			i64.Finish()
		}},
		{"AppendValues", func() { i64.AppendValues(in.ints, nil); i64.Finish() }},
		{"Append/nulls10", func() {
			for i, v := range in.ints {
				if in.valid[i] {
					i64.Append(v)
				} else {
					i64.AppendNull()
				}
			}
			i64.Finish()
		}},
		{"AppendValues/nulls10", func() { i64.AppendValues(in.ints, in.valid); i64.Finish() }},
	}

	f64 := NewPrimitiveBuilder[float64](datatype.Float64)
	cases["float64"] = []variant{
		{"Append", func() {
			for _, v := range in.floats {
				f64.Append(v)
			}
			f64.Finish()
		}},
		{"AppendValues", func() { f64.AppendValues(in.floats, nil); f64.Finish() }},
		{"Append/nulls10", func() {
			for i, v := range in.floats {
				if in.valid[i] {
					f64.Append(v)
				} else {
					f64.AppendNull()
				}
			}
			f64.Finish()
		}},
		{"AppendValues/nulls10", func() { f64.AppendValues(in.floats, in.valid); f64.Finish() }},
	}

	str := NewBinaryBuilder[int32](datatype.String)
	cases["utf8"] = []variant{
		{"Append", func() {
			for _, v := range in.strs {
				str.AppendString(v)
			}
			str.Finish()
		}},
		{"Append/reserved", func() {
			str.Reserve(benchN)
			str.ReserveData(20 * benchN)
			for _, v := range in.strs {
				str.AppendString(v)
			}
			str.Finish()
		}},
		{"AppendValues", func() { str.AppendStrings(in.strs, nil); str.Finish() }},
		{"Append/nulls10", func() {
			for i, v := range in.strs {
				if in.valid[i] {
					str.AppendString(v)
				} else {
					str.AppendNull()
				}
			}
			str.Finish()
		}},
		{"AppendValues/nulls10", func() { str.AppendStrings(in.strs, in.valid); str.Finish() }},
	}

	// list<int32>: one list of 4 values per slot.
	lst := NewListBuilder[int32](datatype.ListOf(datatype.Int32))
	lv := lst.ValueBuilder().(*Int32Builder)
	four := []int32{1, 2, 3, 4}
	cases["list<int32>"] = []variant{
		{"Append", func() {
			for range benchN {
				lst.Append(true)
				lv.Append(1)
				lv.Append(2)
				lv.Append(3)
				lv.Append(4)
			}
			lst.Finish()
		}},
		{"AppendValues", func() {
			for range benchN {
				lst.Append(true)
				lv.AppendValues(four, nil)
			}
			lst.Finish()
		}},
		{"Append/nulls10", func() {
			for i := range benchN {
				if !in.valid[i] {
					lst.AppendNull()
					continue
				}
				lst.Append(true)
				lv.Append(1)
				lv.Append(2)
				lv.Append(3)
				lv.Append(4)
			}
			lst.Finish()
		}},
	}

	st := NewStructBuilder(datatype.StructOf(
		datatype.Field{Name: "id", Type: datatype.Int64, Nullable: true},
		datatype.Field{Name: "name", Type: datatype.String, Nullable: true}))
	sid, sname := st.FieldBuilder(0).(*Int64Builder), st.FieldBuilder(1).(*BinaryBuilder[int32])
	cases["struct{int64,utf8}"] = []variant{
		{"Append", func() {
			for i, v := range in.ints {
				st.Append(true)
				sid.Append(v)
				sname.AppendString(in.strs[i])
			}
			st.Finish()
		}},
		{"AppendValues", func() {
			sid.AppendValues(in.ints, nil)
			sname.AppendStrings(in.strs, nil)
			st.appendValid(benchN)
			st.Finish()
		}},
		{"Append/nulls10", func() {
			for i, v := range in.ints {
				if !in.valid[i] {
					st.AppendNull()
					continue
				}
				st.Append(true)
				sid.Append(v)
				sname.AppendString(in.strs[i])
			}
			st.Finish()
		}},
	}

	dict := NewBuilder(mustOK(datatype.NewDictionary(datatype.Int32, datatype.String, false))).(*DictionaryBuilder[string])
	dictValues := NewBinaryBuilder[int32](datatype.String)
	dictValues.AppendStrings(in.dictStr, nil)
	dictArr := dictValues.Finish()
	cases["dictionary<utf8>"] = []variant{
		{"Append", func() {
			for _, v := range in.dictStr {
				_ = dict.Append(v)
			}
			dict.Finish()
		}},
		{"AppendArray", func() { _ = dict.AppendArray(dictArr); dict.Finish() }},
		{"Append/nulls10", func() {
			for i, v := range in.dictStr {
				if in.valid[i] {
					_ = dict.Append(v)
				} else {
					dict.AppendNull()
				}
			}
			dict.Finish()
		}},
	}

	for _, name := range []string{"int64", "float64", "utf8", "list<int32>", "struct{int64,utf8}", "dictionary<utf8>"} {
		for _, v := range cases[name] {
			b.Run(fmt.Sprintf("%s/%s", name, v.name), func(b *testing.B) { perValue(b, v.build) })
		}
	}
}
