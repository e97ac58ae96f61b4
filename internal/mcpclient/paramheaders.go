package mcpclient

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The custom headers of tool parameters (2026-07-28, Streamable HTTP,
// SEP-2243): a property of a tool's inputSchema annotated with
// "x-mcp-header": NAME is mirrored into Mcp-Param-NAME on every tools/call
// of the tool; a tool whose annotations break the spec's constraints is
// left out of the tools the client uses.

// paramHeader is one valid annotation: the property's path and the name.
type paramHeader struct {
	path []string
	name string
}

// paramHeadersOf reads the annotations of an inputSchema; ok is false
// when one breaks the spec's constraints (the tool is invalid).
func paramHeadersOf(schema gjson.Result) (hs []paramHeader, ok bool) {
	ok = true
	var walk func(v gjson.Result, path []string, reachable bool)
	walk = func(v gjson.Result, path []string, reachable bool) {
		if !ok {
			return
		}
		if v.IsArray() {
			v.ForEach(func(_, item gjson.Result) bool { walk(item, nil, false); return ok })
			return
		}
		if !v.IsObject() {
			return
		}
		if a := v.Get(gjson.Escape("x-mcp-header")); a.Exists() {
			t := v.Get("type").String()
			switch {
			case !reachable || len(path) == 0, a.Type != gjson.String, !isToken(a.Str),
				v.Get("type").Type != gjson.String || (t != "string" && t != "integer" && t != "boolean"):
				ok = false
				return
			}
			for _, h := range hs {
				if strings.EqualFold(h.name, a.Str) {
					ok = false
					return
				}
			}
			hs = append(hs, paramHeader{path: append([]string(nil), path...), name: a.Str})
		}
		v.ForEach(func(k, child gjson.Result) bool {
			if k.Str == "properties" && child.IsObject() && reachable {
				child.ForEach(func(name, prop gjson.Result) bool {
					walk(prop, append(append([]string(nil), path...), name.Str), true)
					return ok
				})
			} else {
				walk(child, nil, false)
			}
			return ok
		})
	}
	walk(schema, nil, true)
	return hs, ok
}

// isToken reports whether s is an HTTP token (RFC 9110 §5.6.2).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// paramHeaderValues returns the Mcp-Param-* headers of a call with
// arguments args of a tool with the given annotations: a null or absent
// argument has none.
func paramHeaderValues(hs []paramHeader, args gjson.Result) map[string]string {
	out := map[string]string{}
	for _, h := range hs {
		keys := make([]string, len(h.path))
		for i, k := range h.path {
			keys[i] = gjson.Escape(k)
		}
		v := args.Get(strings.Join(keys, "."))
		switch v.Type {
		case gjson.Null:
			continue
		case gjson.True, gjson.False:
			out["Mcp-Param-"+h.name] = v.Raw
		case gjson.Number:
			out["Mcp-Param-"+h.name] = v.Raw
		case gjson.String:
			out["Mcp-Param-"+h.name] = encodeHeaderValue(v.Str)
		}
	}
	return out
}

// encodeHeaderValue is a header value as the spec's value encoding
// writes it: plain when it is header-safe ASCII without leading or
// trailing whitespace and does not look like the Base64 form, else
// =?base64?…?=.
func encodeHeaderValue(s string) string {
	plain := s == strings.TrimSpace(s) && !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?="))
	for i := 0; plain && i < len(s); i++ {
		if c := s[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

// stripSchema is a schema as a client that keeps only type, properties
// and required holds it (Bugs.StripSchema).
func stripSchema(schema gjson.Result) string {
	out := "{"
	for _, k := range []string{"type", "properties", "required"} {
		if v := schema.Get(k); v.Exists() {
			if out != "{" {
				out += ","
			}
			out += `"` + k + `":` + v.Raw
		}
	}
	return out + "}"
}

// fetchRefs GETs every $ref of schema that is an http URL
// (Bugs.FetchRefs: a validator that dereferences network $refs).
func fetchRefs(ctx context.Context, schema gjson.Result) {
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		v.ForEach(func(k, child gjson.Result) bool {
			if k.Str == "$ref" && (strings.HasPrefix(child.Str, "http://") || strings.HasPrefix(child.Str, "https://")) {
				if req, err := http.NewRequestWithContext(ctx, http.MethodGet, child.Str, nil); err == nil {
					if resp, err := http.DefaultClient.Do(req); err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
			}
			if child.IsObject() || child.IsArray() {
				walk(child)
			}
			return true
		})
	}
	walk(schema)
}

// numbersAsStrings turns the numbers of a JSON object of arguments into
// strings (Bugs.StringArguments).
func numbersAsStrings(args string) string {
	out := "{"
	gjson.Parse(args).ForEach(func(k, v gjson.Result) bool {
		if out != "{" {
			out += ","
		}
		val := v.Raw
		if v.Type == gjson.Number {
			val = strconv.Quote(v.Raw)
		}
		out += strconv.Quote(k.Str) + ":" + val
		return true
	})
	return out + "}"
}
