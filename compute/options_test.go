package compute

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/stretchr/testify/require"
)

// optionCalls calls every function that takes options, with opts.
func optionCalls(t *testing.T) map[string]func(opts ...Option) error {
	t.Helper()
	a := arrayjson.MustParse(datatype.Int64, `[3, 1, null, 2, 1]`)
	rec := must(alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64, Nullable: true}}, datatype.Metadata{}),
		[]array.Array{a}, a.Len()))
	tbl := must(alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec}))
	c := tbl.Column(0)
	keys := []SortKey{{Column: "x"}}
	aggs := []Aggregate{{Func: AggSum, Column: "x"}}
	errOf := func(_ any, err error) error { return err }
	return map[string]func(...Option) error{
		"Cast":               func(o ...Option) error { return errOf(Cast(a, datatype.Int32, o...)) },
		"SortIndices":        func(o ...Option) error { return errOf(SortIndices(a, Order{}, o...)) },
		"SortIndicesChunked": func(o ...Option) error { return errOf(SortIndicesChunked(c, Order{}, o...)) },
		"SortIndicesRecord":  func(o ...Option) error { return errOf(SortIndicesRecord(rec, keys, o...)) },
		"SortIndicesTable":   func(o ...Option) error { return errOf(SortIndicesTable(tbl, keys, o...)) },
		"Sort":               func(o ...Option) error { return errOf(Sort(a, Order{}, o...)) },
		"SortChunked":        func(o ...Option) error { return errOf(SortChunked(c, Order{}, o...)) },
		"SortRecord":         func(o ...Option) error { return errOf(SortRecord(rec, keys, o...)) },
		"SortTable":          func(o ...Option) error { return errOf(SortTable(tbl, keys, o...)) },
		"TopKIndices":        func(o ...Option) error { return errOf(TopKIndices(a, 2, Order{}, o...)) },
		"TopKIndicesChunked": func(o ...Option) error { return errOf(TopKIndicesChunked(c, 2, Order{}, o...)) },
		"TopKIndicesRecord":  func(o ...Option) error { return errOf(TopKIndicesRecord(rec, 2, keys, o...)) },
		"TopKIndicesTable":   func(o ...Option) error { return errOf(TopKIndicesTable(tbl, 2, keys, o...)) },
		"Unique":             func(o ...Option) error { return errOf(Unique(a, o...)) },
		"UniqueChunked":      func(o ...Option) error { return errOf(UniqueChunked(c, o...)) },
		"ValueCounts": func(o ...Option) error {
			_, _, err := ValueCounts(a, o...)
			return err
		},
		"ValueCountsChunked": func(o ...Option) error {
			_, _, err := ValueCountsChunked(c, o...)
			return err
		},
		"CountDistinct":        func(o ...Option) error { return errOf(CountDistinct(a, o...)) },
		"CountDistinctChunked": func(o ...Option) error { return errOf(CountDistinctChunked(c, o...)) },
		"DictionaryEncode":     func(o ...Option) error { return errOf(DictionaryEncode(a, o...)) },
		"IsIn":                 func(o ...Option) error { return errOf(IsIn(a, a, o...)) },
		"IndexIn":              func(o ...Option) error { return errOf(IndexIn(a, a, o...)) },
		"GroupBy":              func(o ...Option) error { return errOf(GroupBy(rec, []string{"x"}, aggs, o...)) },
		"GroupByTable":         func(o ...Option) error { return errOf(GroupByTable(tbl, []string{"x"}, aggs, o...)) },
	}
}

// TestOptions checks that every function taking options accepts
// WithConcurrency, refuses an invalid value naming it, and refuses the
// Cast options unless it is Cast.
func TestOptions(t *testing.T) {
	for name, call := range optionCalls(t) {
		for _, n := range []int{0, 1, 2, 7} {
			require.NoError(t, call(WithConcurrency(n)), "%s WithConcurrency(%d)", name, n)
		}
		err := call(WithConcurrency(-1))
		require.ErrorIs(t, err, ErrInvalid, name)
		require.EqualError(t, err, "compute: invalid: "+name+": WithConcurrency(-1): concurrency must not be negative")
		for oname, o := range map[string]Option{"AllowOverflow": AllowOverflow(), "AllowTruncation": AllowTruncation(), "TrimSpace": TrimSpace()} {
			err := call(o)
			if name == "Cast" {
				require.NoError(t, err)
				continue
			}
			require.ErrorIs(t, err, ErrInvalid, name)
			require.EqualError(t, err, "compute: invalid: "+name+": "+oname+"() applies to Cast only")
		}
	}
}

// TestConcurrencySameResult runs the kernels that split long inputs in
// two with one goroutine and with two: the results, and the error of the
// first bad row, are the same.
func TestConcurrencySameResult(t *testing.T) {
	n := parallelMin + 1000
	b := array.NewPrimitiveBuilder[int64](datatype.Int64)
	sb := array.NewBinaryBuilder[int32](datatype.String)
	for i := range n {
		v := int64(i*7919) % 5003
		b.Append(v)
		sb.AppendString(strconv.FormatInt(v, 10))
	}
	a := b.NewArray()
	texts := sb.NewArray()
	rec := must(alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "k", Type: datatype.Int64}, {Name: "v", Type: datatype.Int64}}, datatype.Metadata{}),
		[]array.Array{a, a}, n))
	run := func(opts ...Option) []array.Array {
		idx := must(SortIndices(a, Order{Descending: true}, opts...))
		u := must(Unique(a, opts...))
		g := must(GroupBy(rec, []string{"k"}, []Aggregate{{Func: AggSum, Column: "v"}, {Func: AggMean, Column: "v"}}, opts...))
		c := must(Cast(a, datatype.Int32, opts...))
		parsed := must(Cast(texts, datatype.Int64, opts...))
		return []array.Array{idx, u, g.Column(0), g.Column(1), g.Column(2), c, parsed}
	}
	serial, parallel := run(WithConcurrency(1)), run(WithConcurrency(2))
	for i := range serial {
		require.True(t, array.Equal(serial[i], parallel[i]), "result %d", i)
	}

	// Two bad rows, one in each half: both runs name the first.
	bad := array.NewBinaryBuilder[int32](datatype.String)
	for i := range n {
		switch i {
		case 10, n - 10:
			bad.AppendString("x" + strconv.Itoa(i))
		default:
			bad.AppendString("1")
		}
	}
	ba := bad.NewArray()
	_, errSerial := Cast(ba, datatype.Int64, WithConcurrency(1))
	_, errParallel := Cast(ba, datatype.Int64, WithConcurrency(2))
	require.ErrorIs(t, errSerial, ErrInvalid)
	require.Equal(t, errSerial.Error(), errParallel.Error())
	require.Contains(t, errParallel.Error(), "x10")
}

// TestErrorsWrapSentinel checks failing calls of every kind: each error
// starts with "compute: " and wraps ErrInvalid or ErrNotSupported.
func TestErrorsWrapSentinel(t *testing.T) {
	i32 := arrayjson.MustParse(datatype.Int32, `[1, 2, null]`)
	i64 := arrayjson.MustParse(datatype.Int64, `[1, 2]`)
	lst := arrayjson.MustParse(datatype.ListOf(datatype.Int32), `[[1], [2]]`)
	str := arrayjson.MustParse(datatype.String, `["a", "1"]`)
	mask := arrayjson.MustParse(datatype.Bool, `[true]`).(*array.Boolean)
	rec := must(alkaid.NewRecord(alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int64}, {Name: "s", Type: datatype.String}}, datatype.Metadata{}),
		[]array.Array{i64, str}, 2))
	tbl := must(alkaid.TableFromRecords(rec.Schema(), []*alkaid.Record{rec}))
	boolCol := must(alkaid.NewChunked(datatype.Bool, []array.Array{arrayjson.MustParse(datatype.Bool, `[true, false, true]`)}))
	errOf := func(_ any, err error) error { return err }
	cases := map[string]error{
		"Add types":           errOf(Add(i32, i64)),
		"Add lengths":         errOf(Add(i32, arrayjson.MustParse(datatype.Int32, `[1]`))),
		"Div zero":            errOf(Div(i64, arrayjson.MustParse(datatype.Int64, `[1, 0]`))),
		"AddChecked overflow": errOf(AddChecked(arrayjson.MustParse(datatype.Int8, `[127]`), arrayjson.MustParse(datatype.Int8, `[1]`))),
		"Sum list":            errOf(Sum(lst)),
		"Min list":            errOf(Min(lst)),
		"Compare list":        errOf(Compare(Lt, lst, lst)),
		"Cast overflow":       errOf(Cast(arrayjson.MustParse(datatype.Int64, `[1000]`), datatype.Int8)),
		"Cast text":           errOf(Cast(str, datatype.Int64)),
		"Cast list":           errOf(Cast(lst, datatype.Int64)),
		"Filter mask":         errOf(Filter(i64, mask)),
		"FilterRecord mask":   errOf(FilterRecord(rec, mask)),
		"FilterTable mask":    errOf(FilterTable(tbl, boolCol)),
		"Take bounds":         errOf(Take(i64, arrayjson.MustParse(datatype.Int32, `[5]`))),
		"TakeTable bounds":    errOf(TakeTable(tbl, arrayjson.MustParse(datatype.Int32, `[5]`))),
		"Sort list":           errOf(Sort(lst, Order{})),
		"SortRecord no key":   errOf(SortRecord(rec, nil)),
		"SortTable column":    errOf(SortTable(tbl, []SortKey{{Column: "nope"}})),
		"TopK negative":       errOf(TopKIndicesTable(tbl, -1, []SortKey{{Column: "x"}})),
		"GroupBy column":      errOf(GroupBy(rec, []string{"nope"}, nil)),
		"GroupBy any":         errOf(GroupByTable(tbl, nil, []Aggregate{{Func: AggAny, Column: "x"}})),
		"GroupBy sum":         errOf(GroupBy(rec, nil, []Aggregate{{Func: AggSum, Column: "x"}, {Func: AggSum, Column: "s"}})),
		"Cast list elements":  errOf(Cast(lst, datatype.ListOf(datatype.ListOf(datatype.Int32)))),
		"IsIn types":          errOf(IsIn(i32, i64)),
	}
	for name, err := range cases {
		require.Error(t, err, name)
		require.True(t, strings.HasPrefix(err.Error(), "compute: "), "%s: %v", name, err)
		require.Equal(t, 1, strings.Count(err.Error(), "compute: "), "%s: %v", name, err)
		require.True(t, errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotSupported), "%s: %v", name, err)
	}
}
