package bench

import (
	"context"
	"sync"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	acompute "github.com/apache/arrow-go/v18/arrow/compute"
	ascalar "github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
)

// Filter4Text is the filter of four predicates both sides evaluate (the
// one of bench/duckdb/filter.mjs, on the same rows).
const Filter4Text = "a > 100 AND b < 0.5 AND s IN ('x', 'y') AND c IS NOT NULL"

// exprInputs are the columns a, b, s and c of bench/duckdb/filter (SumN
// rows) for both libraries, and the bound filter.
type exprInputs struct {
	once   sync.Once
	rec    *alkaid.Record
	bound  *expr.Bound
	theirs [4]aarrow.Array
	set    aarrow.Array
	err    error
}

var exprIn struct {
	sync.Mutex
	m map[*Inputs]*exprInputs
}

func (in *Inputs) exprInputs() *exprInputs {
	exprIn.Lock()
	if exprIn.m == nil {
		exprIn.m = map[*Inputs]*exprInputs{}
	}
	d := exprIn.m[in]
	if d == nil {
		d = &exprInputs{}
		exprIn.m[in] = d
	}
	exprIn.Unlock()
	d.once.Do(func() { d.err = d.make(in.S.SumN) })
	return d
}

func (d *exprInputs) make(n int) error {
	a := array.NewPrimitiveBuilder[int64](datatype.Int64)
	b := array.NewPrimitiveBuilder[float64](datatype.Float64)
	s := array.NewBinaryBuilder[int32](datatype.String)
	c := array.NewPrimitiveBuilder[int64](datatype.Int64)
	ta := aarray.NewInt64Builder(mem)
	tb := aarray.NewFloat64Builder(mem)
	ts := aarray.NewStringBuilder(mem)
	tc := aarray.NewInt64Builder(mem)
	names := []string{"x", "y", "z", "w"}
	for i := range int64(n) {
		av, bv, sv := (i*2654435761)%4294967291%1000, float64((i*7919)%1000)/1000, names[(i*31)%7%4]
		a.Append(av)
		ta.Append(av)
		b.Append(bv)
		tb.Append(bv)
		s.AppendString(sv)
		ts.Append(sv)
		if i%10 == 0 {
			c.AppendNull()
			tc.AppendNull()
		} else {
			c.Append(i)
			tc.Append(i)
		}
	}
	f := func(name string, t datatype.DataType) datatype.Field {
		return datatype.Field{Name: name, Type: t, Nullable: true}
	}
	schema := alkaid.NewSchema([]datatype.Field{f("a", datatype.Int64), f("b", datatype.Float64),
		f("s", datatype.String), f("c", datatype.Int64)}, datatype.Metadata{})
	var err error
	if d.rec, err = alkaid.NewRecord(schema, []array.Array{a.NewArray(), b.NewArray(), s.NewArray(), c.NewArray()}, n); err != nil {
		return err
	}
	e, err := expr.Parse(Filter4Text)
	if err != nil {
		return err
	}
	if d.bound, err = expr.Bind(e, schema); err != nil {
		return err
	}
	d.theirs = [4]aarrow.Array{ta.NewArray(), tb.NewArray(), ts.NewArray(), tc.NewArray()}
	set := aarray.NewStringBuilder(mem)
	set.AppendValues([]string{"x", "y"}, nil)
	d.set = set.NewArray()
	return nil
}

// filter4ArrowGo is the same filter as arrow-go's kernels: greater, less,
// is_in, is_not_null and and_kleene, one call each.
func (d *exprInputs) filter4ArrowGo(ctx context.Context) (aarrow.Array, error) {
	call := func(fn string, opts acompute.FunctionOptions, args ...acompute.Datum) (acompute.Datum, error) {
		return acompute.CallFunction(ctx, fn, opts, args...)
	}
	gt, err := call("greater", nil, acompute.NewDatum(d.theirs[0]), acompute.NewDatum(ascalar.NewInt64Scalar(100)))
	if err != nil {
		return nil, err
	}
	lt, err := call("less", nil, acompute.NewDatum(d.theirs[1]), acompute.NewDatum(ascalar.NewFloat64Scalar(0.5)))
	if err != nil {
		return nil, err
	}
	in, err := acompute.IsIn(ctx, acompute.SetOptions{ValueSet: acompute.NewDatum(d.set)}, acompute.NewDatum(d.theirs[2]))
	if err != nil {
		return nil, err
	}
	valid, err := call("is_not_null", nil, acompute.NewDatum(d.theirs[3]))
	if err != nil {
		return nil, err
	}
	acc := gt
	for _, x := range []acompute.Datum{lt, in, valid} {
		next, err := call("and_kleene", nil, acc, x)
		if err != nil {
			return nil, err
		}
		acc.Release()
		x.Release()
		acc = next
	}
	return acc.(*acompute.ArrayDatum).MakeArray(), nil
}

func (in *Inputs) exprPairs() []Pair {
	ctx := context.Background()
	setup := func() { in.exprInputs() }
	return []Pair{{
		Name: "Filter4/int64-float64-utf8-int64", Values: in.S.SumN, Setup: setup,
		Alkaid: func() (any, error) {
			d := in.exprInputs()
			if d.err != nil {
				return nil, d.err
			}
			m, err := d.bound.Eval(d.rec)
			if err != nil {
				return nil, err
			}
			return sampleOurs(m), nil
		},
		ArrowGo: func() (any, error) {
			d := in.exprInputs()
			if d.err != nil {
				return nil, d.err
			}
			m, err := d.filter4ArrowGo(ctx)
			if err != nil {
				return nil, err
			}
			defer m.Release()
			return sampleTheirs(m), nil
		},
	}}
}
