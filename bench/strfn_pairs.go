package bench

import (
	"context"

	acompute "github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/alkaid-go/alkaid/expr"
)

// mathPairs are math functions both libraries have (arrow-go has no
// string functions such as lower, contains or a regex match): over the
// float64 column b of the Filter4 rows (SumN values in [0, 1)).
func (in *Inputs) mathPairs() []Pair {
	ctx := context.Background()
	setup := func() { in.exprInputs() }
	pair := func(fn string) Pair {
		return Pair{
			Name: "Math/" + fn + "/float64", Values: in.S.SumN, Setup: setup,
			Alkaid: func() (any, error) {
				d := in.exprInputs()
				if d.err != nil {
					return nil, d.err
				}
				e, err := expr.Parse(fn + "(b + 1)")
				if err != nil {
					return nil, err
				}
				b, err := expr.Bind(e, d.rec.Schema())
				if err != nil {
					return nil, err
				}
				out, err := b.Eval(d.rec)
				if err != nil {
					return nil, err
				}
				return sampleOurs(out), nil
			},
			ArrowGo: func() (any, error) {
				d := in.exprInputs()
				if d.err != nil {
					return nil, d.err
				}
				one, err := acompute.CallFunction(ctx, "add", nil, acompute.NewDatum(d.theirs[1]),
					acompute.NewDatum(1.0))
				if err != nil {
					return nil, err
				}
				defer one.Release()
				out, err := acompute.CallFunction(ctx, fn, nil, one)
				if err != nil {
					return nil, err
				}
				defer out.Release()
				a := out.(*acompute.ArrayDatum).MakeArray()
				defer a.Release()
				return sampleTheirs(a), nil
			},
		}
	}
	return []Pair{pair("sqrt"), pair("ln")}
}
