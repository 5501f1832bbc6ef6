package expr

func init() {
	// fill_null(x, value) is Arrow's name for coalesce of two: x where it
	// is valid, else value (of x's type, by the usual promotion).
	register("fill_null", 2, 2, func(e *Expr, args []*node) (*node, error) {
		return functions["coalesce"].bind(e, args)
	})
}
