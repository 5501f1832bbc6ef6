package expr

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/bitutil"
	"github.com/alkaid-go/alkaid/memory"
)

// regexpMatcher answers "does re match somewhere in the value" for a
// whole utf8 array, running re only where cheaper tests cannot decide:
//
//   - a pattern that is a run of ASCII character classes and literals
//     ending at the end of the text (such as `[0-9]{3}$`) is decided by
//     testing the last bytes of each value against the classes, without
//     re;
//   - otherwise, when every match contains a literal (the longest literal
//     of the pattern's top-level sequence), the values without it (found
//     by one search of the array's bytes) are rejected, and re runs on
//     the others only.
//
// Both tests are exact: the results equal re.Match value by value.
type regexpMatcher struct {
	re *regexp.Regexp
	// tail, when not nil, decides alone: the byte sets of the last
	// len(tail) bytes, and whether the value must be exactly that long.
	tail     []*[256]bool
	anchored bool
	// lit is a literal every match contains (nil: none known);
	// complete says re is that literal and nothing else.
	lit      []byte
	complete bool
}

// newRegexpMatcher plans the tests for re.
func newRegexpMatcher(re *regexp.Regexp) *regexpMatcher {
	m := &regexpMatcher{re: re}
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return m // unreachable: re compiled from the same text
	}
	tree = tree.Simplify()
	// Not re.LiteralPrefix: it calls `^ab$` a complete literal too.
	switch {
	case tree.Op == syntax.OpEmptyMatch:
		m.lit, m.complete = []byte{}, true
	case tree.Op == syntax.OpLiteral && tree.Flags&syntax.FoldCase == 0:
		m.lit, m.complete = requiredLiteral(tree), true
	default:
		m.tail, m.anchored = asciiTail(tree)
		if m.tail == nil {
			m.lit = requiredLiteral(tree)
		}
	}
	return m
}

// asciiTail is the byte sets of a pattern that is a sequence of ASCII
// literals and ASCII character classes ending with the end of the text
// (and perhaps starting with the beginning of the text: anchored); nil
// when the pattern is of another shape.
func asciiTail(re *syntax.Regexp) (sets []*[256]bool, anchored bool) {
	subs := flatten(nil, re)
	if len(subs) == 0 || subs[len(subs)-1].Op != syntax.OpEndText {
		return nil, false
	}
	subs = subs[:len(subs)-1]
	if len(subs) > 0 && subs[0].Op == syntax.OpBeginText {
		anchored = true
		subs = subs[1:]
	}
	for _, s := range subs {
		switch s.Op {
		case syntax.OpLiteral:
			if s.Flags&syntax.FoldCase != 0 {
				return nil, false
			}
			for _, r := range s.Rune {
				if r >= utf8.RuneSelf {
					return nil, false
				}
				var set [256]bool
				set[r] = true
				sets = append(sets, &set)
			}
		case syntax.OpCharClass:
			var set [256]bool
			for i := 0; i < len(s.Rune); i += 2 {
				lo, hi := s.Rune[i], s.Rune[i+1]
				if hi >= utf8.RuneSelf {
					return nil, false
				}
				for r := lo; r <= hi; r++ {
					set[r] = true
				}
			}
			sets = append(sets, &set)
		default:
			return nil, false
		}
	}
	if sets == nil {
		sets = []*[256]bool{} // `$` alone: every value matches
	}
	return sets, anchored
}

// flatten appends to subs the parts of re's sequences, looking through
// nested sequences and groups (which change what a match captures, not
// whether there is one).
func flatten(subs []*syntax.Regexp, re *syntax.Regexp) []*syntax.Regexp {
	switch re.Op {
	case syntax.OpConcat:
		for _, s := range re.Sub {
			subs = flatten(subs, s)
		}
		return subs
	case syntax.OpCapture:
		return flatten(subs, re.Sub[0])
	}
	return append(subs, re)
}

// requiredLiteral is a literal every match of re contains: the longest
// case-sensitive literal among the parts of re's top-level sequence
// (looking through groups and one-or-more repetitions); nil when there
// is none.
func requiredLiteral(re *syntax.Regexp) []byte {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		var b []byte
		for _, r := range re.Rune {
			b = utf8.AppendRune(b, r)
		}
		return b
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []byte
		for _, s := range re.Sub {
			if b := requiredLiteral(s); len(b) > len(best) {
				best = b
			}
		}
		return best
	}
	return nil
}

// match is whether re matches each value of the utf8 array s (checked
// valid UTF-8), as a boolean array with s's nulls.
func (m *regexpMatcher) match(s *array.Binary[int32]) *array.Boolean {
	n := s.Len()
	vals := memory.Allocate(nil, bitutil.BytesForBits(n))
	bits := vals.Bytes()
	offs, data := s.Offsets(), s.ValueBytes()
	switch {
	case m.tail != nil:
		for i := range n {
			if m.tailMatch(data[offs[i]:offs[i+1]]) {
				bitutil.SetBit(bits, i)
			}
		}
	case m.lit != nil:
		markContains(bits, offs, data, m.lit)
		if !m.complete {
			for i := range bitutil.SetIndices(bits, 0, n) {
				if !m.re.Match(data[offs[i]:offs[i+1]]) {
					bitutil.ClearBit(bits, i)
				}
			}
		}
	default:
		for i := range n {
			if m.re.Match(data[offs[i]:offs[i+1]]) {
				bitutil.SetBit(bits, i)
			}
		}
	}
	return boolLike(n, vals, s)
}

// matchValue is re.Match(v), with the same tests as match.
func (m *regexpMatcher) matchValue(v []byte) bool {
	switch {
	case m.tail != nil:
		return m.tailMatch(v)
	case m.lit != nil && !bytes.Contains(v, m.lit):
		return false
	case m.complete:
		return true
	}
	return m.re.Match(v)
}

// tailMatch tests v's last bytes against the sets of m.tail.
func (m *regexpMatcher) tailMatch(v []byte) bool {
	k := len(m.tail)
	if len(v) < k || m.anchored && len(v) != k {
		return false
	}
	v = v[len(v)-k:]
	for j, set := range m.tail {
		if !set[v[j]] {
			return false
		}
	}
	return true
}
