package expr

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("like", 2, 3, func(e *Expr, args []*node) (*node, error) { return bindLike(e, args, false) })
	register("ilike", 2, 3, func(e *Expr, args []*node) (*node, error) { return bindLike(e, args, true) })
}

// bindLike binds s LIKE pattern [ESCAPE c]: % is any run of characters,
// _ one character (newlines included), every other character itself,
// the escape character (none by default, as in DuckDB) making the next
// one literal; ilike ignores case. The pattern is a constant.
func bindLike(e *Expr, args []*node, fold bool) (*node, error) {
	s, err := stringArg(e, args[0])
	if err != nil {
		return nil, err
	}
	pattern, err := constString(e, args[1], "the pattern")
	if err != nil {
		return nil, err
	}
	var esc rune = -1
	if len(args) > 2 {
		x, err := constString(e, args[2], "the escape")
		if err != nil {
			return nil, err
		}
		if utf8.RuneCountInString(x) != 1 {
			return nil, errAt(e, datatype.ErrInvalid, "the escape must be one character, not %q", x)
		}
		esc, _ = utf8.DecodeRuneInString(x)
	}
	var re strings.Builder
	re.WriteString("(?s)")
	if fold {
		re.WriteString("(?i)")
	}
	re.WriteByte('^')
	literal := []byte{} // the pattern without wildcards, when it has none inside
	kind := ""          // "", "prefix", "suffix", "contains", "exact" for the fast paths
	wild := []int{}     // positions of % in the literal-only pattern
	escaped := false
	simple := !fold
	for _, r := range pattern {
		switch {
		case escaped:
			re.WriteString(regexp.QuoteMeta(string(r)))
			literal = utf8.AppendRune(literal, r)
			escaped = false
		case r == esc:
			escaped = true
		case r == '%':
			re.WriteString(".*")
			wild = append(wild, len(literal))
		case r == '_':
			re.WriteByte('.')
			simple = false
		default:
			re.WriteString(regexp.QuoteMeta(string(r)))
			literal = utf8.AppendRune(literal, r)
		}
	}
	if escaped {
		return nil, errAt(e, datatype.ErrInvalid, "pattern %q ends in its escape character", pattern)
	}
	re.WriteByte('$')
	if simple {
		switch {
		case len(wild) == 0:
			kind = "exact"
		case len(wild) == 1 && wild[0] == len(literal):
			kind = "prefix"
		case len(wild) == 1 && wild[0] == 0:
			kind = "suffix"
		case len(wild) == 2 && wild[0] == 0 && wild[1] == len(literal):
			kind = "contains"
		}
	}
	var match func(v []byte) bool
	switch kind {
	case "exact":
		match = func(v []byte) bool { return bytes.Equal(v, literal) }
	case "prefix":
		match = func(v []byte) bool { return bytes.HasPrefix(v, literal) }
	case "suffix":
		match = func(v []byte) bool { return bytes.HasSuffix(v, literal) }
	case "contains":
		match = func(v []byte) bool { return bytes.Contains(v, literal) }
	default:
		rx, err := regexp.Compile(re.String())
		if err != nil {
			return nil, errAt(e, datatype.ErrInvalid, "pattern %q: %v", pattern, err)
		}
		match = rx.Match
	}
	return &node{typ: datatype.Bool, src: e, eval: func(c *batch) (array.Array, error) {
		return mapStringsTo(e, c, []*node{s}, func(v [][]byte) (bool, error) { return match(v[0]), nil })
	}}, nil
}
