package mcptest

import (
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// The custom headers of tool parameters (protocol 2026-07-28, Streamable
// HTTP, SEP-2243): a property of a tool's inputSchema annotated with
// "x-mcp-header": NAME (written in the schema given to WithInputSchema, as
// the spec writes it) is mirrored by the client into the header
// Mcp-Param-NAME of every tools/call of that tool; the server checks each
// header against the arguments and refuses a request whose headers are
// missing, different or badly encoded with 400 and -32020 (HeaderMismatch).
// An annotation that breaks the spec's constraints is served as written
// (a test may serve one on purpose: a client must leave such a tool out of
// its list), and none of that tool's headers is checked.

// xMCPHeader is the inputSchema keyword that names a parameter's header.
const xMCPHeader = "x-mcp-header"

// paramHeader is one x-mcp-header annotation of an inputSchema: the
// property's path (its properties keys) and the header's name part.
type paramHeader struct {
	path []string
	name string
}

// header is the header's name, Mcp-Param-name.
func (p paramHeader) header() string { return spec.HeaderParamPrefix + p.name }

// paramHeaders reads the x-mcp-header annotations of an inputSchema. It
// returns why they are invalid when one breaks the spec's constraints
// (then the whole tool is invalid: a client leaves it out, and the mock
// checks none of its headers).
func paramHeaders(schema gjson.Result) (hs []paramHeader, invalid string) {
	var walk func(v gjson.Result, path []string, reachable bool)
	walk = func(v gjson.Result, path []string, reachable bool) {
		if invalid != "" {
			return
		}
		switch {
		case v.IsArray():
			v.ForEach(func(_, item gjson.Result) bool { walk(item, nil, false); return invalid == "" })
			return
		case !v.IsObject():
			return
		}
		if a := v.Get(gjson.Escape(xMCPHeader)); a.Exists() {
			if !reachable || len(path) == 0 {
				invalid = fmt.Sprintf("%s on a property not reachable from the root through properties alone", xMCPHeader)
				return
			}
			typ := primitiveType(v.Get("type"))
			switch {
			case a.Type != gjson.String || a.Str == "":
				invalid = fmt.Sprintf("%s of %s is %s, want a non-empty header name", xMCPHeader, strings.Join(path, "."), describe(a))
			case !isToken(a.Str):
				invalid = fmt.Sprintf("%s %q of %s is not an HTTP field-name token (RFC 9110 §5.1)", xMCPHeader, a.Str, strings.Join(path, "."))
			case typ == "":
				invalid = fmt.Sprintf("%s on %s, whose type is %s, not string, integer or boolean", xMCPHeader, strings.Join(path, "."), describe(v.Get("type")))
			case slices.ContainsFunc(hs, func(h paramHeader) bool { return strings.EqualFold(h.name, a.Str) }):
				invalid = fmt.Sprintf("%s %q is used twice (names are compared case-insensitively)", xMCPHeader, a.Str)
			default:
				hs = append(hs, paramHeader{path: slices.Clone(path), name: a.Str})
			}
		}
		v.ForEach(func(k, child gjson.Result) bool {
			if k.Str == "properties" && child.IsObject() && reachable {
				child.ForEach(func(name, prop gjson.Result) bool {
					walk(prop, append(path, name.Str), true)
					return invalid == ""
				})
			} else {
				walk(child, nil, false)
			}
			return invalid == ""
		})
	}
	walk(schema, nil, true)
	if invalid != "" {
		return nil, invalid
	}
	return hs, ""
}

// primitiveType is the type an annotated property may have: "string",
// "integer" or "boolean" ("" for any other, a type array included: go-sdk
// v1.8.0 and mark3labs v1.2.1 leave out a tool whose annotated property
// is ["string", "null"], and so does the mock's check).
func primitiveType(t gjson.Result) string {
	if t.Type == gjson.String && (t.Str == "string" || t.Str == "integer" || t.Str == "boolean") {
		return t.Str
	}
	return ""
}

// isToken reports whether s is an HTTP token (1*tchar, RFC 9110 §5.6.2).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// The Base64 form of a header value (streamable-http#value-encoding).
const (
	b64Prefix = "=?base64?"
	b64Suffix = "?="
)

// decodeHeaderValue reads a value of Mcp-Name or Mcp-Param-*: a value in
// the Base64 form is decoded (standard alphabet, with padding); one that
// merely lacks the prefix or the suffix is taken as it is. problem says
// why it cannot be read: characters outside visible ASCII, space and tab,
// or Base64 that does not decode to UTF-8 text.
func decodeHeaderValue(v string) (value, problem string) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", fmt.Sprintf("%q holds characters outside visible ASCII, space and tab; such a value must be sent as %s…%s", v, b64Prefix, b64Suffix)
		}
	}
	if len(v) < len(b64Prefix)+len(b64Suffix) || !strings.HasPrefix(v, b64Prefix) || !strings.HasSuffix(v, b64Suffix) {
		return v, ""
	}
	b, err := base64.StdEncoding.Strict().DecodeString(v[len(b64Prefix) : len(v)-len(b64Suffix)])
	if err != nil {
		return "", fmt.Sprintf("%q is not valid Base64 (the standard alphabet, with padding): %v", v, err)
	}
	if !utf8.Valid(b) {
		return "", fmt.Sprintf("%q decodes to bytes that are not UTF-8 text", v)
	}
	return string(b), ""
}

// checkParamHeaders checks the Mcp-Param-* headers of a tools/call against
// its arguments, for the annotations hs of the tool's inputSchema. It
// returns the rule the first problem breaks and the problem ("" when all
// agree).
func checkParamHeaders(h http.Header, hs []paramHeader, args gjson.Result) (RuleID, string) {
	for _, p := range hs {
		v := args
		for _, k := range p.path {
			v = v.Get(gjson.Escape(k))
		}
		at := "arguments." + strings.Join(p.path, ".")
		values := h.Values(p.header())
		absent := !v.Exists() || v.Type == gjson.Null
		switch {
		case absent && len(values) == 0:
			continue
		case absent:
			return ruleHTTPParamHeaders, fmt.Sprintf("%s header %q, but %s is %s: the header must be left out then", p.header(), values[0], at, describe(v))
		case len(values) == 0:
			return ruleHTTPParamHeaders, fmt.Sprintf("no %s header, but %s is %s (the inputSchema marks it %s %q)", p.header(), at, shorten(v.Raw, 60), xMCPHeader, p.name)
		case len(values) > 1:
			return ruleHTTPParamHeaders, fmt.Sprintf("%d %s headers; send one", len(values), p.header())
		}
		got, problem := decodeHeaderValue(values[0])
		if problem != "" {
			return ruleHTTPHeaderEncoding, p.header() + " " + problem
		}
		if !sameParamValue(got, v) {
			return ruleHTTPParamHeaders, fmt.Sprintf("%s header %q, but %s is %s", p.header(), values[0], at, shorten(v.Raw, 60))
		}
	}
	return "", ""
}

// sameParamValue reports whether a decoded header value says the argument
// v: a string as it is, an integer compared as a number (42.0 is 42, as
// the spec says a server should compare), a boolean as true or false.
func sameParamValue(header string, v gjson.Result) bool {
	switch v.Type {
	case gjson.String:
		return header == v.Str
	case gjson.Number:
		f, err := strconv.ParseFloat(header, 64)
		return err == nil && !math.IsInf(f, 0) && f == v.Num
	case gjson.True:
		return header == "true"
	case gjson.False:
		return header == "false"
	}
	return false
}

// namedHeaders checks the headers of a tools/call, prompts/get or
// resources/read that repeat its body: Mcp-Name, decoded, against what the
// body names, and for tools/call the Mcp-Param-* headers the tool's
// inputSchema asks for. It returns the rule the first problem breaks and
// the problem ("" when all agree).
func (f *httpFront) namedHeaders(r *http.Request, p *peeked, x *HTTPExchange) (RuleID, string) {
	name, problem := decodeHeaderValue(x.MCPName)
	switch {
	case problem != "":
		return ruleHTTPHeaderEncoding, spec.HeaderName + " " + problem
	case name != p.name().String():
		return ruleHTTPStatelessHeaders, fmt.Sprintf("Mcp-Name header %q, but the body names %q", x.MCPName, p.name().String())
	case p.method.String() != "tools/call":
		return "", ""
	}
	f.srv.mu.Lock()
	e, ok := f.srv.tools.get(name)
	f.srv.mu.Unlock()
	if !ok || len(e.params) == 0 {
		return "", ""
	}
	return checkParamHeaders(r.Header, e.params, p.d.getParam(paramArguments))
}
