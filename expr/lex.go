package expr

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alkaid-go/alkaid/datatype"
)

// SyntaxError is an error of Parse: what is wrong and the byte offset in
// the text where it is. It unwraps to datatype.ErrInvalid (or ErrLimit
// for an expression nested too deeply).
type SyntaxError struct {
	Pos int    // byte offset of the offending token
	Msg string // what is wrong
	err error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("expr: syntax error at byte %d: %s", e.Pos, e.Msg)
}

// Unwrap is datatype.ErrInvalid or datatype.ErrLimit.
func (e *SyntaxError) Unwrap() error { return e.err }

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tQuoted // "identifier"
	tInt
	tFloat
	tString
	tOp
)

type token struct {
	kind tokKind
	text string // identifier (unquoted text), operator, number text, string value
	pos  int
}

var keywords = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "IS": true, "NULL": true, "IN": true, "BETWEEN": true,
	"CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "CAST": true, "AS": true,
	"TRUE": true, "FALSE": true, "LIKE": true, "ILIKE": true, "ESCAPE": true,
}

func isKeyword(upper string) bool { return keywords[upper] }

func lex(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			// A comment, to the end of the line.
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i
			for j < len(s) {
				r, w := utf8.DecodeRuneInString(s[j:])
				if r == utf8.RuneError && w <= 1 {
					return nil, &SyntaxError{Pos: j, Msg: "invalid UTF-8", err: datatype.ErrInvalid}
				}
				if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80) {
					break
				}
				j += w
			}
			out = append(out, token{tIdent, s[i:j], i})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			kind := tInt
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j < len(s) && s[j] == '.' {
				kind = tFloat
				j++
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && s[k] >= '0' && s[k] <= '9' {
					kind = tFloat
					for j = k; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
					}
				}
			}
			out = append(out, token{kind, s[i:j], i})
			i = j
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					what := "string"
					if c == '"' {
						what = "quoted identifier"
					}
					return nil, &SyntaxError{Pos: i, Msg: "unterminated " + what, err: datatype.ErrInvalid}
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						b.WriteByte(c)
						j += 2
						continue
					}
					j++
					break
				}
				b.WriteByte(s[j])
				j++
			}
			if !utf8.ValidString(b.String()) {
				return nil, &SyntaxError{Pos: i, Msg: "invalid UTF-8 in a quoted text", err: datatype.ErrInvalid}
			}
			kind := tString
			if c == '"' {
				kind = tQuoted
			}
			out = append(out, token{kind, b.String(), i})
			i = j
		default:
			op := ""
			for _, o := range []string{"<=", ">=", "<>", "!=", "==", "//", "||", "::", "(", ")", ",", "+", "-", "*", "/", "%", "=", "<", ">", "."} {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				r, _ := utf8.DecodeRuneInString(s[i:])
				return nil, &SyntaxError{Pos: i, Msg: fmt.Sprintf("unexpected character %q", r), err: datatype.ErrInvalid}
			}
			out = append(out, token{tOp, op, i})
			i += len(op)
		}
	}
	return append(out, token{tEOF, "", len(s)}), nil
}
