package expr

import (
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("regexp_extract", 2, 4, func(e *Expr, args []*node) (*node, error) { return bindRegexpExtract(e, args, false) })
	register("regexp_extract_all", 2, 4, func(e *Expr, args []*node) (*node, error) { return bindRegexpExtract(e, args, true) })
	split := func(name string) {
		register(name, 2, 3, bindRegexpSplit)
	}
	split("regexp_split_to_array")
	split("string_split_regex")
	split("str_split_regex")
}

// bindRegexpExtract binds regexp_extract(s, pattern [, group [,
// options]]): group (0, the whole match, when absent) of the first match,
// an empty string when nothing matches or the group took no part. With
// all, regexp_extract_all, it is the group of every match, as a
// list<utf8> (empty when nothing matches; null for a match the group
// took no part in).
func bindRegexpExtract(e *Expr, args []*node, all bool) (*node, error) {
	s, err := stringArg(e, args[0])
	if err != nil {
		return nil, err
	}
	pattern, err := constString(e, args[1], "the pattern")
	if err != nil {
		return nil, err
	}
	group := int64(0)
	if len(args) > 2 {
		g := args[2]
		if g.lit == nil || !isInt(g.typ) || !g.lit.Valid {
			return nil, errAt(e, datatype.ErrInvalid, "the group of regexp_extract must be a constant integer, not %s", g.src)
		}
		v, err := castScalar(*g.lit, datatype.Int64)
		if err != nil {
			return nil, errAt(e, datatype.ErrInvalid, "group: %v", err)
		}
		group = v.Value.(int64)
	}
	options := ""
	if len(args) > 3 {
		if options, err = constString(e, args[3], "the options"); err != nil {
			return nil, err
		}
	}
	re, _, err := compileRegexp(e, pattern, options, false)
	if err != nil {
		return nil, err
	}
	if group < 0 || group > int64(re.NumSubexp()) {
		return nil, errAt(e, datatype.ErrInvalid, "group %d of a pattern with %d groups (%q)", group, re.NumSubexp(), pattern)
	}
	g := int(group)
	if all {
		return &node{typ: datatype.ListOf(datatype.String), src: e, eval: func(c *batch) (array.Array, error) {
			return mapStringListsNulls(e, c, []*node{s}, func(parts [][]byte, nulls []bool, v [][]byte) ([][]byte, []bool) {
				for _, m := range re.FindAllSubmatchIndex(v[0], -1) {
					if m[2*g] < 0 { // the group took no part: a null, as DuckDB's
						parts, nulls = append(parts, nil), append(nulls, true)
						continue
					}
					parts, nulls = append(parts, v[0][m[2*g]:m[2*g+1]]), append(nulls, false)
				}
				return parts, nulls
			})
		}}, nil
	}
	return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
		return mapStrings(e, c, []*node{s}, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
			m := re.FindSubmatchIndex(v[0])
			if m == nil || m[2*g] < 0 {
				return dst, nil
			}
			return append(dst, v[0][m[2*g]:m[2*g+1]]...), nil
		})
	}}, nil
}

// bindRegexpSplit binds regexp_split_to_array(s, pattern [, options]):
// the pieces of s between the matches of pattern, as a list<utf8>.
func bindRegexpSplit(e *Expr, args []*node) (*node, error) {
	s, err := stringArg(e, args[0])
	if err != nil {
		return nil, err
	}
	pattern, err := constString(e, args[1], "the pattern")
	if err != nil {
		return nil, err
	}
	options := ""
	if len(args) > 2 {
		if options, err = constString(e, args[2], "the options"); err != nil {
			return nil, err
		}
	}
	re, _, err := compileRegexp(e, pattern, options, false)
	if err != nil {
		return nil, err
	}
	return &node{typ: datatype.ListOf(datatype.String), src: e, eval: func(c *batch) (array.Array, error) {
		return mapStringLists(e, c, []*node{s}, func(parts [][]byte, v [][]byte) [][]byte {
			str := v[0]
			start := 0
			for _, m := range re.FindAllIndex(str, -1) {
				if m[1] == m[0] && (m[0] == 0 || m[0] == len(str)) {
					continue // an empty match at an end cuts nothing off
				}
				parts = append(parts, str[start:m[0]])
				start = m[1]
			}
			return append(parts, str[start:])
		})
	}}, nil
}
