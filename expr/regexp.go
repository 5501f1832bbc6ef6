package expr

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

func init() {
	register("regexp_matches", 2, 3, func(e *Expr, args []*node) (*node, error) {
		return bindRegexp(e, args, false, false)
	})
	register("regexp_full_match", 2, 3, func(e *Expr, args []*node) (*node, error) {
		return bindRegexp(e, args, true, false)
	})
	register("regexp_replace", 3, 4, func(e *Expr, args []*node) (*node, error) {
		return bindRegexp(e, args, false, true)
	})
}

// constString is the value of a constant string argument.
func constString(e *Expr, a *node, what string) (string, error) {
	if a.lit == nil || !isStringy(a.typ) {
		return "", errAt(e, datatype.ErrInvalid, "%s must be a constant string, not %s", what, a.src)
	}
	if !a.lit.Valid {
		return "", errAt(e, datatype.ErrInvalid, "%s is null", what)
	}
	return a.lit.Value.(string), nil
}

// compileRegexp compiles pattern in Go's RE2 syntax with DuckDB's options
// (c: case-sensitive (the default), i: case-insensitive, s: . matches a
// newline, n/p: it does not (the default), g: every match, for
// regexp_replace).
func compileRegexp(e *Expr, pattern, options string, replace bool) (*regexp.Regexp, bool, error) {
	flags := map[byte]bool{}
	global := false
	for i := 0; i < len(options); i++ {
		switch c := options[i]; c {
		case 'c':
			flags['i'] = false
		case 'i':
			flags['i'] = true
		case 's':
			flags['s'] = true
		case 'n', 'p':
			flags['s'] = false
		case 'g':
			if !replace {
				return nil, false, errAt(e, datatype.ErrInvalid, "option 'g' is for regexp_replace")
			}
			global = true
		default:
			return nil, false, errAt(e, datatype.ErrInvalid, "unknown regular expression option %q", c)
		}
	}
	prefix := ""
	for _, f := range []byte("is") {
		if flags[f] {
			prefix += string(f)
		}
	}
	if prefix != "" {
		prefix = "(?" + prefix + ")"
	}
	re, err := regexp.Compile(prefix + pattern)
	if err != nil {
		return nil, false, errAt(e, datatype.ErrInvalid, "regular expression %q does not compile: %v", pattern, err)
	}
	return re, global, nil
}

// goReplacement turns a DuckDB (RE2) replacement, where \1 is group 1
// and \0 the match, into Go's form (${1}), escaping $.
func goReplacement(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		switch c := r[i]; {
		case c == '$':
			b.WriteString("$$")
		case c == '\\' && i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9':
			fmt.Fprintf(&b, "${%c}", r[i+1])
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func bindRegexp(e *Expr, args []*node, full, replace bool) (*node, error) {
	s, err := stringArg(e, args[0])
	if err != nil {
		return nil, err
	}
	pattern, err := constString(e, args[1], "the pattern")
	if err != nil {
		return nil, err
	}
	nopt := 2
	repl := ""
	if replace {
		if repl, err = constString(e, args[2], "the replacement"); err != nil {
			return nil, err
		}
		nopt = 3
	}
	options := ""
	if len(args) > nopt {
		if options, err = constString(e, args[nopt], "the options"); err != nil {
			return nil, err
		}
	}
	if full {
		pattern = `^(?:` + pattern + `)$`
	}
	re, global, err := compileRegexp(e, pattern, options, replace)
	if err != nil {
		return nil, err
	}
	if !replace {
		m := newRegexpMatcher(re)
		return &node{typ: datatype.Bool, src: e, eval: func(c *batch) (array.Array, error) {
			if s.lit == nil {
				x, err := s.array(c)
				if err != nil {
					return nil, err
				}
				if bin, ok := x.(*array.Binary[int32]); ok {
					if err := checkUTF8Once(c, bin); err != nil {
						return nil, evalErr(e, err)
					}
					return m.match(bin), nil
				}
			}
			return mapStringsTo(e, c, []*node{s}, func(v [][]byte) (bool, error) { return m.matchValue(v[0]), nil })
		}}, nil
	}
	tmpl := goReplacement(repl)
	return &node{typ: datatype.String, src: e, eval: func(c *batch) (array.Array, error) {
		return mapStrings(e, c, []*node{s}, func(dst []byte, _ int, v [][]byte) ([]byte, error) {
			if global {
				return append(dst, re.ReplaceAll(v[0], []byte(tmpl))...), nil
			}
			m := re.FindSubmatchIndex(v[0])
			if m == nil {
				return append(dst, v[0]...), nil
			}
			dst = append(dst, v[0][:m[0]]...)
			dst = re.Expand(dst, []byte(tmpl), v[0], m)
			return append(dst, v[0][m[1]:]...), nil
		})
	}}, nil
}
