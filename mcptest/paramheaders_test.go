package mcptest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// The custom headers of tool parameters (SEP-2243, 2026-07-28): a raw
// HTTP client sends each case the official suite's
// http-custom-header-server-validation sends, and a few it does not;
// the mock accepts what the spec says a server accepts and refuses the
// rest with 400 and -32020, blaming the client with the rule it broke.

// paramHeaderServer serves exec_sql, whose region (string), shard
// (integer) and dry_run (boolean) are mirrored into Mcp-Param-Region,
// Mcp-Param-Shard and Mcp-Param-Dry-Run, and whose query is not.
func paramHeaderServer(t testing.TB) *mcptest.Server {
	return mcptest.NewServer(t).WithTools(mcptest.NewTool("exec_sql").
		WithInputSchema(`{"type":"object","properties":{
			"region":{"type":"string","x-mcp-header":"Region"},
			"shard":{"type":"integer","x-mcp-header":"Shard"},
			"dry_run":{"type":"boolean","x-mcp-header":"Dry-Run"},
			"query":{"type":"string"}}}`).
		ReturnsText("done"))
}

// paramCall posts a 2026-07-28 tools/call of exec_sql with arguments args
// and the right standard headers, plus headers (name, value pairs).
func paramCall(h *httpRaw, args string, headers ...string) (int, string) {
	h.t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"exec_sql","arguments":` + args + `,` + statelessMeta + `}}`
	s, _, b := h.post(body, append([]string{spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, "tools/call", spec.HeaderName, "exec_sql"}, headers...)...)
	return s, b
}

func TestParamHeaders(t *testing.T) {
	const accepted, refused = "", "refused"
	cases := []struct {
		name    string
		args    string
		headers []string
		want    mcptest.RuleID // "" (accepted) or the rule the client breaks
	}{
		// What the official suite sends (http-custom-header-server-validation).
		{"valid Base64", `{"region":"Hello"}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8=?="}, accepted},
		{"Base64 without padding", `{"region":"Hello"}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8?="}, "http/header-encoding"},
		{"Base64 with characters outside the alphabet", `{"region":"Hello"}`, []string{"Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="}, "http/header-encoding"},
		{"no prefix: a literal value", `{"region":"SGVsbG8="}`, []string{"Mcp-Param-Region", "SGVsbG8="}, accepted},
		{"no suffix: a literal value", `{"region":"=?base64?SGVsbG8="}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8="}, accepted},
		{"header missing, value in the body", `{"region":"test-value"}`, nil, "http/param-headers"},
		// The spec's own table and examples.
		{"plain value", `{"region":"us-west1","query":"SELECT 1"}`, []string{"Mcp-Param-Region", "us-west1"}, accepted},
		{"header name in another case", `{"region":"us-west1"}`, []string{"mcp-param-region", "us-west1"}, accepted},
		{"non-ASCII in Base64", `{"region":"Hello, 世界"}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?="}, accepted},
		{"non-ASCII sent raw", `{"region":"Zürich"}`, []string{"Mcp-Param-Region", "Zürich"}, "http/header-encoding"},
		{"a value that looks like the sentinel, encoded", `{"region":"=?base64?literal?="}`, []string{"Mcp-Param-Region", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="}, accepted},
		{"a value that looks like the sentinel, sent raw", `{"region":"=?base64?literal?="}`, []string{"Mcp-Param-Region", "=?base64?literal?="}, "http/header-encoding"},
		{"mismatch", `{"region":"us-west1"}`, []string{"Mcp-Param-Region", "eu-west1"}, "http/param-headers"},
		{"null value, no header", `{"region":null}`, nil, accepted},
		{"absent value, no header", `{"query":"SELECT 1"}`, nil, accepted},
		{"null value, header sent", `{"region":null}`, []string{"Mcp-Param-Region", "null"}, "http/param-headers"},
		{"integer", `{"shard":42}`, []string{"Mcp-Param-Shard", "42"}, accepted},
		{"integer compared as a number", `{"shard":42}`, []string{"Mcp-Param-Shard", "42.0"}, accepted},
		{"integer mismatch", `{"shard":42}`, []string{"Mcp-Param-Shard", "43"}, "http/param-headers"},
		{"boolean", `{"dry_run":false}`, []string{"Mcp-Param-Dry-Run", "false"}, accepted},
		{"boolean in capitals", `{"dry_run":true}`, []string{"Mcp-Param-Dry-Run", "True"}, "http/param-headers"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := paramHeaderServer(faketb.New(t))
			status, body := paramCall(newHTTPRaw(t, srv), tc.args, tc.headers...)
			reply := gjson.Get(body, "@this")
			if strings.HasPrefix(body, "event:") || strings.HasPrefix(body, "id:") {
				t.Fatalf("want a JSON reply, got %s", body)
			}
			var rules []mcptest.RuleID
			for _, v := range srv.Violations() {
				if v.Rule != "tools/arguments-schema" { // a null for a string: a warning of its own
					rules = append(rules, v.Rule)
				}
			}
			if tc.want == accepted {
				if status != http.StatusOK || reply.Get("error").Exists() || reply.Get("result.content.0.text").String() != "done" {
					t.Errorf("want the call answered (200, the tool's result), got %d %s", status, body)
				}
				if len(rules) > 0 {
					t.Errorf("a correct call is blamed: %v", srv.Violations())
				}
				return
			}
			if status != http.StatusBadRequest || reply.Get("error.code").Int() != spec.CodeHeaderMismatch || reply.Get("id").Raw != "7" {
				t.Errorf("want 400 with -32020 and the request's id, got %d %s", status, body)
			}
			if len(rules) != 1 || rules[0] != tc.want {
				t.Errorf("want the client blamed once with %s, got %v", tc.want, srv.Violations())
			}
		})
	}
}

// TestParamHeadersInvalidAnnotation: a tool whose annotation breaks the
// spec's constraints is served as written (a test serves it to see the
// client leave it out), and the mock checks none of its headers.
func TestParamHeadersInvalidAnnotation(t *testing.T) {
	srv := mcptest.NewServer(faketb.New(t)).WithTools(mcptest.NewTool("bad").
		WithInputSchema(`{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}`).
		ReturnsText("done"))
	h := newHTTPRaw(t, srv)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bad","arguments":{"n":1.5},` + statelessMeta + `}}`
	status, _, got := h.post(body, spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, "tools/call", spec.HeaderName, "bad")
	if status != http.StatusOK || gjson.Get(got, "result.content.0.text").String() != "done" {
		t.Errorf("want the call answered, got %d %s", status, got)
	}
	if vs := srv.Violations(); len(vs) > 0 {
		t.Errorf("want no violation, got %v", vs)
	}
}

// TestMcpNameBase64: a tool name outside the header-safe set travels in
// Mcp-Name in the Base64 form; the mock decodes it before comparing.
func TestMcpNameBase64(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		want         int
	}{
		{"encoded", "=?base64?w6ljaG8=?=", http.StatusOK},
		{"sent raw", "écho", http.StatusBadRequest},
		{"encoded, another name", "=?base64?ZWNobw==?=", http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mcptest.NewServer(faketb.New(t)).WithTools(mcptest.NewTool("écho").ReturnsText("done"))
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"écho",` + statelessMeta + `}}`
			status, _, got := newHTTPRaw(t, srv).post(body, spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, "tools/call", spec.HeaderName, tc.header)
			if status != tc.want {
				t.Errorf("status %d, want %d (%s)", status, tc.want, got)
			}
			if (tc.want == http.StatusOK) != (len(srv.Violations()) == 0) {
				t.Errorf("violations %v for a status %d", srv.Violations(), tc.want)
			}
		})
	}
}
