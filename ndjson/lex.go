package ndjson

import (
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// lexer reads JSON values from one line.
type lexer struct {
	b       []byte
	pos     int
	scratch []byte // unescaped strings
}

func (l *lexer) ws() {
	for l.pos < len(l.b) {
		switch l.b[l.pos] {
		case ' ', '\t', '\r', '\n':
			l.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte (0 at the end).
func (l *lexer) peek() byte {
	l.ws()
	if l.pos >= len(l.b) {
		return 0
	}
	return l.b[l.pos]
}

func (l *lexer) errf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", l.pos+1, fmt.Sprintf(format, args...))
}

func (l *lexer) expect(c byte) error {
	if l.peek() != c {
		return l.errf("want %q", c)
	}
	l.pos++
	return nil
}

func (l *lexer) literal(word string) error {
	if len(l.b)-l.pos < len(word) || string(l.b[l.pos:l.pos+len(word)]) != word {
		return l.errf("invalid literal")
	}
	l.pos += len(word)
	return nil
}

// number returns the text of the number at pos (JSON grammar).
func (l *lexer) number() ([]byte, error) {
	b, i := l.b, l.pos
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	d := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == d || (b[d] == '0' && i-d > 1) {
		return nil, l.errf("invalid number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		f := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == f {
			return nil, l.errf("invalid number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		e := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == e {
			return nil, l.errf("invalid number")
		}
	}
	l.pos = i
	return b[start:i], nil
}

var errUTF8 = errors.New("string is not valid UTF-8")

// str reads the string at pos (the opening quote) and returns its
// unescaped bytes, valid only until the next call.
func (l *lexer) str() ([]byte, error) {
	b := l.b
	i := l.pos + 1
	start := i
	for i < len(b) {
		c := b[i]
		if c == '"' {
			s := b[start:i]
			l.pos = i + 1
			if !utf8.Valid(s) {
				return nil, errUTF8
			}
			return s, nil
		}
		if c == '\\' {
			return l.escaped(start)
		}
		if c < 0x20 {
			return nil, l.errf("control character in a string")
		}
		i++
	}
	return nil, l.errf("unterminated string")
}

func (l *lexer) escaped(start int) ([]byte, error) {
	b := l.b
	out := l.scratch[:0]
	i := start
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			l.pos = i + 1
			l.scratch = out
			if !utf8.Valid(out) {
				return nil, errUTF8
			}
			return out, nil
		case c < 0x20:
			l.pos = i
			return nil, l.errf("control character in a string")
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(b) {
			break
		}
		e := b[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b, i)
			if !ok {
				l.pos = i
				return nil, l.errf("invalid \\u escape")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := rune(-1), false
				if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					r2, ok = hex4(b, i+2)
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r = d
					i += 6
				} else {
					l.pos = i
					return nil, l.errf("unpaired surrogate in \\u escape")
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			l.pos = i - 1
			return nil, l.errf("invalid escape")
		}
	}
	l.pos = len(b)
	return nil, l.errf("unterminated string")
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// skip reads and drops one value.
func (l *lexer) skip(depth int) error {
	if depth > maxDepth {
		return l.errf("nested deeper than %d", maxDepth)
	}
	switch c := l.peek(); c {
	case '{':
		l.pos++
		if l.peek() == '}' {
			l.pos++
			return nil
		}
		for {
			if l.peek() != '"' {
				return l.errf("want a key")
			}
			if _, err := l.str(); err != nil {
				return err
			}
			if err := l.expect(':'); err != nil {
				return err
			}
			if err := l.skip(depth + 1); err != nil {
				return err
			}
			switch l.peek() {
			case ',':
				l.pos++
			case '}':
				l.pos++
				return nil
			default:
				return l.errf("want ',' or '}'")
			}
		}
	case '[':
		l.pos++
		if l.peek() == ']' {
			l.pos++
			return nil
		}
		for {
			if err := l.skip(depth + 1); err != nil {
				return err
			}
			switch l.peek() {
			case ',':
				l.pos++
			case ']':
				l.pos++
				return nil
			default:
				return l.errf("want ',' or ']'")
			}
		}
	case '"':
		_, err := l.str()
		return err
	case 't':
		return l.literal("true")
	case 'f':
		return l.literal("false")
	case 'n':
		return l.literal("null")
	case 0:
		return l.errf("want a value")
	default:
		_, err := l.number()
		return err
	}
}
