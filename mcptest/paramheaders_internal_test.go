package mcptest

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestParamHeaderAnnotations: the x-mcp-header annotations of an
// inputSchema, read as the spec's constraints say (server/tools#x-mcp-header):
// the cases of the official suite's http-invalid-tool-headers and the
// reachability rule.
func TestParamHeaderAnnotations(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         string // the headers, "Name@path" joined by spaces; or "invalid: " and a part of the reason
	}{
		{"none", `{"type":"object","properties":{"q":{"type":"string"}}}`, ""},
		{"one", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`, "Region@region"},
		{"nested through properties", `{"type":"object","properties":{"loc":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}}`, "Region@loc.region"},
		{"integer and boolean", `{"type":"object","properties":{"p":{"type":"integer","x-mcp-header":"P"},"v":{"type":"boolean","x-mcp-header":"V"}}}`, "P@p V@v"},
		{"nullable string", `{"type":"object","properties":{"r":{"type":["string","null"],"x-mcp-header":"R"}}}`, "invalid: not string, integer or boolean"},
		{"empty name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":""}}}`, "invalid: non-empty"},
		{"space in name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"My Header"}}}`, "invalid: token"},
		{"colon in name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"a:b"}}}`, "invalid: token"},
		{"non-ASCII name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Régión"}}}`, "invalid: token"},
		{"control character", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"A\u0001B"}}}`, "invalid: token"},
		{"duplicate, same case", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"R"},"b":{"type":"string","x-mcp-header":"R"}}}`, "invalid: twice"},
		{"duplicate, other case", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"R"},"b":{"type":"string","x-mcp-header":"r"}}}`, "invalid: twice"},
		{"on an object", `{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"O"}}}`, "invalid: not string, integer or boolean"},
		{"on an array", `{"type":"object","properties":{"a":{"type":"array","x-mcp-header":"A"}}}`, "invalid: not string, integer or boolean"},
		{"on a number", `{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}`, "invalid: not string, integer or boolean"},
		{"on null", `{"type":"object","properties":{"n":{"type":"null","x-mcp-header":"N"}}}`, "invalid: not string, integer or boolean"},
		{"without a type", `{"type":"object","properties":{"n":{"x-mcp-header":"N"}}}`, "invalid: not string, integer or boolean"},
		{"not a string", `{"type":"object","properties":{"n":{"type":"string","x-mcp-header":5}}}`, "invalid: non-empty"},
		{"inside items", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}`, "invalid: not reachable"},
		{"inside anyOf", `{"type":"object","anyOf":[{"properties":{"r":{"type":"string","x-mcp-header":"R"}}}]}`, "invalid: not reachable"},
		{"inside $defs", `{"type":"object","$defs":{"r":{"type":"string","x-mcp-header":"R"}},"properties":{"r":{"$ref":"#/$defs/r"}}}`, "invalid: not reachable"},
		{"on the root", `{"type":"string","x-mcp-header":"R"}`, "invalid: not reachable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs, invalid := paramHeaders(gjson.Parse(tc.schema))
			var got []string
			for _, h := range hs {
				got = append(got, h.name+"@"+strings.Join(h.path, "."))
			}
			switch want, ok := strings.CutPrefix(tc.want, "invalid: "); {
			case ok && !strings.Contains(invalid, want):
				t.Errorf("want invalid (%q), got %q, headers %v", want, invalid, got)
			case !ok && (invalid != "" || strings.Join(got, " ") != tc.want):
				t.Errorf("want %q, got %v (invalid: %q)", tc.want, got, invalid)
			}
		})
	}
}

// TestDecodeHeaderValue: the value encoding of Mcp-Name and Mcp-Param-*
// (streamable-http#value-encoding), with the spec's examples.
func TestDecodeHeaderValue(t *testing.T) {
	for _, tc := range []struct{ in, want, problem string }{
		{"us-west1", "us-west1", ""},
		{"=?base64?SGVsbG8sIOS4lueVjA==?=", "Hello, 世界", ""},
		{"=?base64?IHBhZGRlZCA=?=", " padded ", ""},
		{"=?base64?bGluZTEKbGluZTI=?=", "line1\nline2", ""},
		{"=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", "=?base64?literal?=", ""},
		{"=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?=", ""}, // the markers are case-sensitive: a literal
		{"=?base64??=", "", ""},
		{"=?base64?SGVsbG8?=", "", "not valid Base64"},
		{"=?base64?SGVs!!!bG8=?=", "", "not valid Base64"},
		{"=?base64?/w==?=", "", "not UTF-8"},
		{"Zürich", "", "outside visible ASCII"},
		{"a\x7fb", "", "outside visible ASCII"},
		{"tab\tinside", "tab\tinside", ""},
	} {
		got, problem := decodeHeaderValue(tc.in)
		if got != tc.want || (problem == "") != (tc.problem == "") || !strings.Contains(problem, tc.problem) {
			t.Errorf("decodeHeaderValue(%q) = %q, %q; want %q, a problem with %q", tc.in, got, problem, tc.want, tc.problem)
		}
	}
}
