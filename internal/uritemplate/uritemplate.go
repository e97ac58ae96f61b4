// Package uritemplate is mcpmock's one implementation of URI templates
// (RFC 6570, levels 1 to 4: {name}, {+name}, {#name}, {.name}, {/name},
// {;name}, {?name}, {&name}, with several variables, explode (*) and
// prefix (:N) modifiers). The mock matches the URI of a resources/read
// against its resource templates with it, config recording matches
// recorded reads and expands recorded cases with it, and clients fill
// templates with it.
//
// It wraps github.com/yosida95/uritemplate/v3 (the library the official Go
// SDK and mcp-go use, so the mock matches as their servers do) and
// smooths four habits of that library:
//
//   - Matching compares a URI as RFC 3986 writes it: characters a URI does
//     not carry raw (non-ASCII, space, quotes, …) are percent-encoded
//     (UTF-8) in the URI and in the template's literal text before
//     matching, and hex digits are upper-cased, so "file:///São Paulo"
//     matches "file:///{name}" with name "São Paulo".
//   - Values are decoded: Match returns "a b" for "a%20b", and Expand
//     encodes what it is given, so a match expands back to its URI.
//     Expand encodes non-ASCII characters as UTF-8 (the library alone
//     writes the code point's bytes: "ü" as %FC).
//   - A variable with a prefix modifier ({id:3}) is returned under its
//     name ("id"), not "id:3".
//   - A variable that matched several values ({/path*} against /a/b/c, or
//     {id} against 1,2) is one string: the values joined with the
//     separator the expression puts between them when exploded ("/" for
//     {/path*}, "." for {.ext*}) and with "," otherwise ("a/b/c", "1,2").
//     Expand splits the value of an exploded variable at that separator.
//
// What a {name} variable matches is what simple expansion produces:
// letters, digits, "-._~" and percent-encoded characters; a value that
// holds reserved characters (":", "@", "+", …) needs {+name}, as with the
// SDKs' servers. Matching is order-bound, as expansion is: {?a,b} matches
// ?a=1&b=2 and ?b=2, not ?b=2&a=1. Where two variables could share
// characters, the earlier takes as many as it can: {/y}{.format} reads
// /1361.png as y "1361.png" and no format.
package uritemplate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	rfc6570 "github.com/yosida95/uritemplate/v3"
)

// Template is a parsed URI template, safe for concurrent use.
type Template struct {
	raw  string
	t    *rfc6570.Template
	vars []variable
}

// variable is one variable of an expression.
type variable struct {
	name    string
	op      byte // the expression's operator, 0 for a simple one
	explode bool
	prefix  bool
}

// sep is what an exploded variable's values are joined with in Vars.
func (v variable) sep() string {
	if v.explode && (v.op == '/' || v.op == '.') {
		return string(v.op)
	}
	return ","
}

// Parse parses a URI template. The error says what is wrong and how
// templates are written.
func Parse(template string) (*Template, error) {
	if strings.Count(template, "{") != strings.Count(template, "}") {
		return nil, fmt.Errorf("unbalanced braces in URI template %q", template)
	}
	t, err := rfc6570.New(canon(template, true))
	if err != nil {
		return nil, fmt.Errorf("URI template %q is not RFC 6570 (%v); write variables as {name}, {+name}, {#name}, {.name}, {/name}, {;name}, {?name}, {&name}, several as {?a,b}, with an explode {/name*} or a prefix {name:3}", template, err)
	}
	return &Template{raw: template, t: t, vars: variables(template)}, nil
}

// Validate reports whether template parses: nil, or Parse's error.
func Validate(template string) error {
	_, err := Parse(template)
	return err
}

// String returns the template as written.
func (t *Template) String() string { return t.raw }

// Names returns the template's variable names, each once, in the order
// they first appear.
func (t *Template) Names() []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range t.vars {
		if !seen[v.name] {
			seen[v.name] = true
			out = append(out, v.name)
		}
	}
	return out
}

// Match reports whether uri is an expansion of the template and returns
// its variables, decoded (see the package doc). A variable the URI leaves
// out (an absent {?query}) is not in the map.
func (t *Template) Match(uri string) (map[string]string, bool) {
	got := t.t.Match(canon(uri, false))
	if got == nil {
		return nil, false
	}
	vars := make(map[string]string, len(got))
	for _, v := range t.vars {
		val, ok := got[v.name]
		if !ok {
			continue // a prefix variable's key has the modifier
		}
		vars[v.name] = strings.Join(val.V, v.sep())
	}
	for key, val := range got {
		name, _, _ := strings.Cut(key, ":")
		if _, ok := vars[name]; !ok {
			vars[name] = strings.Join(val.V, ",")
		}
	}
	return vars, true
}

// Expand fills the template with vars (decoded values; see the package
// doc for how an exploded variable's value is split). A variable missing
// from vars is left out, as RFC 6570 says of an undefined one.
func (t *Template) Expand(vars map[string]string) (string, error) {
	values := rfc6570.Values{}
	for _, v := range t.vars {
		val, ok := vars[v.name]
		if !ok {
			continue
		}
		if strings.IndexByte(val, 0) >= 0 {
			return "", fmt.Errorf("URI template %q: the value of %s holds a NUL byte, which a URI cannot carry", t.raw, v.name)
		}
		if v.prefix && !isASCII(val) {
			return "", fmt.Errorf("URI template %q: a prefix modifier on %s, whose value %q is not ASCII: mcpmock cannot cut it by characters; give an ASCII value or drop the modifier", t.raw, v.name, val)
		}
		if v.explode {
			parts := strings.Split(val, v.sep())
			for i, p := range parts {
				parts[i] = utf8Bytes(p)
			}
			values.Set(v.name, rfc6570.List(parts...))
		} else {
			values.Set(v.name, rfc6570.String(utf8Bytes(val)))
		}
	}
	out, err := t.t.Expand(values)
	if err != nil {
		return "", fmt.Errorf("URI template %q: %v", t.raw, err)
	}
	return out, nil
}

// Fill expands every variable of the template with value, as a client
// that knows nothing of the variables may (the golden client reads
// "file:///users/{id}{?q}" as "file:///users/1?q=1" with value "1").
func (t *Template) Fill(value string) (string, error) {
	vars := map[string]string{}
	for _, n := range t.Names() {
		vars[n] = value
	}
	return t.Expand(vars)
}

// variables lists the variables of a template the library has parsed:
// expressions are "{", an optional operator, then varspecs separated by
// ",", each a name with an optional "*" or ":N".
func variables(template string) []variable {
	var out []variable
	for {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(template[i:], '}')
		if j < 0 {
			return out
		}
		expr := template[i+1 : i+j]
		template = template[i+j+1:]
		var op byte
		if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
			op, expr = expr[0], expr[1:]
		}
		for spec := range strings.SplitSeq(expr, ",") {
			v := variable{op: op}
			if name, ok := strings.CutSuffix(spec, "*"); ok {
				v.explode, spec = true, name
			}
			if name, _, ok := strings.Cut(spec, ":"); ok {
				v.prefix, spec = true, name
			}
			v.name = spec
			out = append(out, v)
		}
	}
}

// canon writes s as RFC 3986 carries it: every byte a URI does not hold
// raw percent-encoded (non-ASCII as its UTF-8 bytes, a "%" that begins no
// triplet as %25), the hex digits of a triplet upper-cased. In a template
// the expressions are left as they are.
func canon(s string, template bool) string {
	var b strings.Builder
	b.Grow(len(s))
	inExpr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case template && c == '{':
			inExpr = true
			b.WriteByte(c)
		case template && c == '}':
			inExpr = false
			b.WriteByte(c)
		case inExpr:
			b.WriteByte(c)
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteByte(upperHex(s[i+1]))
			b.WriteByte(upperHex(s[i+2]))
			i += 2
		case c == '%' || !uriByte(c):
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// uriByte reports whether c may stand raw in a URI: an unreserved or a
// reserved character of RFC 3986.
func uriByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func upperHex(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - 'a' + 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// utf8Bytes rewrites s so that the library's encoder, which writes the
// bytes of a character's code point, writes its UTF-8 bytes: each byte
// from 0x80 up becomes the character of that code point (Latin-1), whose
// one byte the encoder writes as %XX.
func utf8Bytes(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}
