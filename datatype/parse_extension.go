package datatype

import (
	"strings"

	"github.com/alkaid-go/alkaid/internal/quote"
)

// ExtensionParser is implemented by extension types whose String form
// carries parameters in brackets, "extension<name[k=v, …]>": [ParseType]
// finds the registered type of the name and hands it the text between the
// brackets ([SplitParams] splits it). Types written as "extension<name>"
// or with [ExtensionString] need not implement it.
type ExtensionParser interface {
	// ParseExtension builds the type from the text between the brackets.
	ParseExtension(params string) (ExtensionType, error)
}

// extension reads the three forms of an extension type's string:
// "extension<name>" (the registered type's storage, no parameters),
// "extension<name, storage>" (as ExtensionString writes it) and
// "extension<name[params]>" (through ExtensionParser).
func (p *typeParser) extension(depth int) (DataType, error) {
	if err := p.expect("<"); err != nil {
		return nil, err
	}
	end := strings.IndexAny(p.s[p.pos:], ",[>")
	if end <= 0 {
		return nil, p.errf("want an extension name")
	}
	name := strings.TrimSpace(p.s[p.pos : p.pos+end])
	p.pos += end
	proto, ok := LookupExtension(name)
	if !ok {
		return nil, p.errf("extension type %s is not registered", quote.String(name))
	}
	var t ExtensionType
	var err error
	switch p.s[p.pos] {
	case '>':
		p.pos++
		if ep, ok := proto.(ExtensionParser); ok {
			t, err = ep.ParseExtension("")
		} else {
			t, err = proto.Deserialize(proto.StorageType(), "")
		}
	case ',':
		p.pos++
		storage, serr := p.typ(depth + 1)
		if serr != nil {
			return nil, serr
		}
		if err := p.expect(">"); err != nil {
			return nil, err
		}
		t, err = proto.Deserialize(storage, "")
	default: // '['
		ep, ok := proto.(ExtensionParser)
		if !ok {
			return nil, p.errf("extension type %s cannot read parameters from text", quote.String(name))
		}
		n := closingBracket(p.s[p.pos:])
		if n < 0 {
			return nil, p.errf("want \"]\" closing the parameters of %s", quote.String(name))
		}
		params := p.s[p.pos+1 : p.pos+n]
		p.pos += n + 1
		if err := p.expect(">"); err != nil {
			return nil, err
		}
		t, err = ep.ParseExtension(params)
	}
	if err != nil {
		return nil, p.errf("%v", err)
	}
	return t, nil
}

// openerOf maps each closing bracket to its opening one.
var openerOf = map[byte]byte{']': '[', '>': '<', ')': '(', '}': '{'}

// closingBracket returns the index of the bracket that closes s[0],
// skipping nested brackets of any kind and quoted strings, or -1 when
// brackets do not match.
func closingBracket(s string) int {
	var open []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '[', '<', '(', '{':
			open = append(open, c)
		case ']', '>', ')', '}':
			if len(open) == 0 || open[len(open)-1] != openerOf[c] {
				return -1
			}
			open = open[:len(open)-1]
			if len(open) == 0 {
				return i
			}
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		}
	}
	return -1
}

// Param is one "key=value" of an extension type's bracketed parameters.
type Param struct{ Key, Value string }

// SplitParams splits "k=v, k=v" at the commas outside brackets and quoted
// strings, for [ExtensionParser] implementations. Keys and values are
// trimmed of spaces.
func SplitParams(params string) ([]Param, error) {
	var out []Param
	rest := strings.TrimSpace(params)
	for rest != "" {
		end := len(rest)
		depth := 0
	scan:
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case '[', '<', '(', '{':
				depth++
			case ']', '>', ')', '}':
				depth--
			case '"':
				for i++; i < len(rest) && rest[i] != '"'; i++ {
					if rest[i] == '\\' {
						i++
					}
				}
			case ',':
				if depth == 0 {
					end = i
					break scan
				}
			}
		}
		k, v, ok := strings.Cut(rest[:end], "=")
		if !ok {
			return nil, invalidf("parameter %s: want key=value", quote.String(strings.TrimSpace(rest[:end])))
		}
		out = append(out, Param{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
		if end == len(rest) {
			break
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	return out, nil
}
