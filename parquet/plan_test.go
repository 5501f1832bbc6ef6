package parquet

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
)

// funcName is the name of the function fn, closures included.
func funcName(fn any) string {
	return runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
}

// TestPlanChoosesReaders: opening a file chooses each leaf's builder and
// each field's assembler by its layout, with the shredded types and the
// conversions the batches then only run.
func TestPlanChoosesReaders(t *testing.T) {
	fields := []datatype.Field{
		{Name: "req", Type: datatype.Int64},
		{Name: "opt", Type: datatype.Int64, Nullable: true},
		{Name: "s", Type: datatype.String, Nullable: true},
		{Name: "l", Type: datatype.ListOf(datatype.Int32), Nullable: true},
		{Name: "st", Type: datatype.StructOf(datatype.Field{Name: "a", Type: datatype.Int32, Nullable: true}), Nullable: true},
		{Name: "m", Type: datatype.MapOf(datatype.String, datatype.Int32, false), Nullable: true},
		{Name: "d", Type: datatype.Date64Type, Nullable: true},
	}
	literals := []string{`[1, 2]`, `[1, null]`, `["a", null]`, `[[1, null], null]`, `[{"a": 1}, null]`,
		`[[["k", 1]], null]`, `[86400000, null]`}
	cols := make([]array.Array, len(fields))
	for i, f := range fields {
		cols[i] = arrayjson.MustParse(f.Type, literals[i])
	}
	rec, err := alkaid.NewRecord(alkaid.NewSchema(fields, datatype.Metadata{}), cols, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, []*alkaid.Record{rec})
	type want struct {
		builders []string
		asm      string
		convert  []int
		dict     bool
	}
	for _, tc := range []struct {
		name string
		opts []Option
		want map[string]want
	}{
		{"plain", nil, map[string]want{
			"req": {[]string{"buildLeveled"}, "assembleFlat", nil, false},
			"opt": {[]string{"buildSpread"}, "assembleOptionalFlat", nil, false},
			"s":   {[]string{"buildOptionalFlat"}, "assembleOptionalFlat", nil, false},
			"l":   {[]string{"buildLeveled"}, "assembleList", nil, false},
			"st":  {[]string{"buildLeveled"}, "assembleNested", nil, false},
			"m":   {[]string{"buildLeveled", "buildLeveled"}, "assembleNested", nil, false},
			"d":   {[]string{"buildOptionalFlat"}, "assembleOptionalFlat", []int{0}, false},
		}},
		{"dictionary arrays", []Option{WithDictionaryArrays()}, map[string]want{
			"s": {[]string{"buildOptionalFlat"}, "assembleOptionalFlat", nil, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := NewFileBytes(data, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.planned()
			if err != nil {
				t.Fatal(err)
			}
			for _, fp := range p.fields {
				w, ok := tc.want[fp.field.Name]
				if !ok {
					continue
				}
				if fp.err != nil {
					t.Fatalf("%s: %v", fp.field.Name, fp.err)
				}
				if got := funcName(fp.asm); !strings.HasSuffix(got, "."+w.asm) {
					t.Errorf("%s: assembler %s, want %s", fp.field.Name, got, w.asm)
				}
				if !slices.Equal(fp.convert, w.convert) {
					t.Errorf("%s: converts leaves %v, want %v", fp.field.Name, fp.convert, w.convert)
				}
				if len(fp.leaves) != len(w.builders) {
					t.Fatalf("%s: %d leaves, want %d", fp.field.Name, len(fp.leaves), len(w.builders))
				}
				for j, lp := range fp.leaves {
					if got := funcName(lp.build); !strings.Contains(got, "."+w.builders[j]) {
						t.Errorf("%s leaf %d: builder %s, want %s", fp.field.Name, j, got, w.builders[j])
					}
					if (lp.dict != nil) != w.dict {
						t.Errorf("%s leaf %d: dictionary %v, want %v", fp.field.Name, j, lp.dict != nil, w.dict)
					}
				}
			}
			recs, err := readAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].NumRows() != 2 {
				t.Fatalf("%d records", len(recs))
			}
			for i, c := range cols {
				if tc.opts != nil && fields[i].Name == "s" {
					continue // read as a dictionary
				}
				if got := recs[0].Column(i); !array.Equal(got, c) {
					t.Errorf("%s: read %v, wrote %v", fields[i].Name, got, c)
				}
			}
		})
	}
}
