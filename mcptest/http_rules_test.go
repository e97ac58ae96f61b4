package mcptest_test

import (
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// httpRaw is a hand-written Streamable HTTP client: it sends exactly the
// requests a test gives it, to send what no SDK would.
type httpRaw struct {
	t   testing.TB
	url string
	c   *http.Client
}

func newHTTPRaw(t testing.TB, srv *mcptest.Server) *httpRaw {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &httpRaw{t: t, url: srv.URL(), c: &http.Client{Transport: tr}}
}

// both is the Accept header the spec asks a POST for.
const both = "application/json, text/event-stream"

// do sends one request; headers alternate name, value. It returns the
// status, the response's headers and its body.
func (h *httpRaw) do(method, body string, headers ...string) (int, http.Header, string) {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.url, rd)
	if err != nil {
		h.t.Fatalf("httpRaw: %v", err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := h.c.Do(req)
	if err != nil {
		h.t.Fatalf("httpRaw: %s: %v", method, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// post sends a JSON-RPC message the way a correct client does, plus headers.
func (h *httpRaw) post(body string, headers ...string) (int, http.Header, string) {
	h.t.Helper()
	return h.do(http.MethodPost, body, append([]string{"Content-Type", "application/json", "Accept", both}, headers...)...)
}

// handshake initializes a session at version and returns its Mcp-Session-Id.
func (h *httpRaw) handshake(version string) string {
	h.t.Helper()
	status, hdr, body := h.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	sid := hdr.Get(spec.HeaderSessionID)
	if status != http.StatusOK || sid == "" {
		h.t.Fatalf("initialize: status %d, session id %q, body %s", status, sid, body)
	}
	status, _, _ = h.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, version)
	if status != http.StatusAccepted {
		h.t.Fatalf("notifications/initialized: status %d, want 202", status)
	}
	return sid
}

const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`

// httpRuleCase is a raw HTTP client breaking one HTTP rule: break_ sends
// the offending request and returns its status and body.
type httpRuleCase struct {
	name     string
	rule     mcptest.RuleID
	server   func(testing.TB) *mcptest.Server // nil: ruleServer
	break_   func(h *httpRaw) (int, string)
	status   int // what the mock answers
	code     int // the JSON-RPC error code of the answer, 0 for none
	severity mcptest.Severity
}

var httpRuleCases = []httpRuleCase{
	{name: "post accepts only json", rule: "http/accept", status: http.StatusNotAcceptable, code: spec.CodeInvalidRequest,
		break_: func(h *httpRaw) (int, string) {
			s, _, b := h.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "Content-Type", "application/json", "Accept", "application/json")
			return s, b
		}},
	{name: "get without event-stream", rule: "http/accept", status: http.StatusNotAcceptable, code: spec.CodeInvalidRequest,
		break_: func(h *httpRaw) (int, string) {
			sid := h.handshake("2025-11-25")
			s, _, b := h.do(http.MethodGet, "", "Accept", "application/json", spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
			return s, b
		}},
	{name: "text/plain body", rule: "http/content-type", severity: mcptest.SeverityWarning, status: http.StatusUnsupportedMediaType, code: spec.CodeInvalidRequest,
		break_: func(h *httpRaw) (int, string) {
			s, _, b := h.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "Content-Type", "text/plain", "Accept", both)
			return s, b
		}},
	{name: "request without session id", rule: "http/session-id", status: http.StatusBadRequest, code: spec.CodeInvalidRequest,
		server: func(t testing.TB) *mcptest.Server {
			return ruleServer(t).WithProtocolVersions(mcptest.HandshakeVersions()...)
		},
		break_: func(h *httpRaw) (int, string) {
			h.handshake("2025-11-25")
			s, _, b := h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, spec.HeaderProtocolVersion, "2025-11-25")
			return s, b
		}},
	{name: "invented session id", rule: "http/session-id", status: http.StatusNotFound, code: spec.CodeInvalidRequest,
		break_: func(h *httpRaw) (int, string) {
			s, _, b := h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, spec.HeaderSessionID, "guessed", spec.HeaderProtocolVersion, "2025-11-25")
			return s, b
		}},
	{name: "no version header after 2025-11-25", rule: "http/protocol-version-header", status: http.StatusOK,
		break_: func(h *httpRaw) (int, string) {
			sid := h.handshake("2025-11-25")
			s, _, b := h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, spec.HeaderSessionID, sid)
			return s, b
		}},
	{name: "other version than negotiated", rule: "http/protocol-version-negotiated", severity: mcptest.SeverityWarning, status: http.StatusOK,
		break_: func(h *httpRaw) (int, string) {
			sid := h.handshake("2025-11-25")
			s, _, b := h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-06-18")
			return s, b
		}},
	{name: "unknown version header", rule: "http/protocol-version-negotiated", status: http.StatusBadRequest, code: spec.CodeInvalidRequest, severity: mcptest.SeverityWarning,
		break_: func(h *httpRaw) (int, string) {
			sid := h.handshake("2025-11-25")
			s, _, b := h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "1999-01-01")
			return s, b
		}},
	{name: "ended session used twice", rule: "http/reinitialize-after-404", status: http.StatusNotFound, code: spec.CodeInvalidRequest,
		break_: func(h *httpRaw) (int, string) {
			sid := h.handshake("2025-11-25")
			if s, _, _ := h.do(http.MethodDelete, "", spec.HeaderSessionID, sid); s != http.StatusOK {
				h.t.Fatalf("DELETE: status %d", s)
			}
			h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
			s, _, b := h.post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
			return s, b
		}},
	{name: "session left open", rule: "http/delete-on-close", status: http.StatusOK, severity: mcptest.SeverityWarning,
		break_: func(h *httpRaw) (int, string) {
			sid := h.handshake("2025-11-25")
			s, _, b := h.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
			return s, b
		}},
	{name: "no Mcp-Method", rule: "http/stateless-headers", status: http.StatusBadRequest, code: spec.CodeHeaderMismatch,
		break_: func(h *httpRaw) (int, string) {
			s, _, b := h.post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+statelessMeta+`}}`, spec.HeaderProtocolVersion, "2026-07-28")
			return s, b
		}},
	{name: "Mcp-Name disagrees", rule: "http/stateless-headers", status: http.StatusBadRequest, code: spec.CodeHeaderMismatch,
		break_: func(h *httpRaw) (int, string) {
			s, _, b := h.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",`+statelessMeta+`}}`,
				spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, "tools/call", spec.HeaderName, "add")
			return s, b
		}},
	{name: "version header disagrees with _meta", rule: "http/stateless-headers", status: http.StatusBadRequest, code: spec.CodeHeaderMismatch,
		break_: func(h *httpRaw) (int, string) {
			s, _, b := h.post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+statelessMeta+`}}`,
				spec.HeaderProtocolVersion, "2025-11-25", spec.HeaderMethod, "tools/list")
			return s, b
		}},
	{name: "Mcp-Param header missing", rule: "http/param-headers", server: paramHeaderServer, status: http.StatusBadRequest, code: spec.CodeHeaderMismatch,
		break_: func(h *httpRaw) (int, string) { return paramCall(h, `{"region":"us-west1"}`) }},
	{name: "Mcp-Param value not encoded", rule: "http/header-encoding", server: paramHeaderServer, status: http.StatusBadRequest, code: spec.CodeHeaderMismatch,
		break_: func(h *httpRaw) (int, string) {
			return paramCall(h, `{"region":"Zürich"}`, "Mcp-Param-Region", "Zürich")
		}},
	{name: "foreign origin", rule: "http/origin", severity: mcptest.SeverityWarning, status: http.StatusForbidden, code: spec.CodeInvalidRequest,
		break_: func(h *httpRaw) (int, string) {
			s, _, b := h.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "Origin", "https://evil.example")
			return s, b
		}},
	{name: "rebound host", rule: "http/host", severity: mcptest.SeverityWarning, status: http.StatusForbidden, code: spec.CodeInvalidRequest,
		break_: func(h *httpRaw) (int, string) {
			req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
			req.Host = "attacker.example"
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", both)
			resp, err := h.c.Do(req)
			if err != nil {
				h.t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}},
}

// TestHTTPRules: for each HTTP rule, a raw HTTP client breaks it; the mock
// answers as the spec says and records exactly that violation, and a
// test that expects it passes.
func TestHTTPRules(t *testing.T) {
	for _, tc := range httpRuleCases {
		t.Run(string(tc.rule)+"/"+tc.name, func(t *testing.T) {
			ft := faketb.New(t)
			mk := tc.server
			if mk == nil {
				mk = ruleServer
			}
			srv := mk(ft)
			h := newHTTPRaw(t, srv)
			status, body := tc.break_(h)
			if status != tc.status {
				t.Errorf("status %d, want %d (body %s)", status, tc.status, body)
			}
			if tc.code != 0 {
				if got := gjson.Get(body, "error.code").Int(); got != int64(tc.code) {
					t.Errorf("error code %d, want %d (body %s)", got, tc.code, body)
				}
			}
			srv.Close()
			var found []mcptest.Violation
			for _, v := range srv.Violations() {
				switch {
				case v.Rule == tc.rule:
					found = append(found, v)
				case v.Rule == "http/delete-on-close": // the raw client leaves its session open
				default:
					t.Errorf("another violation: %s", v)
				}
			}
			if len(found) == 0 {
				t.Fatalf("no %s violation; journal:\n%s", tc.rule, srv.Transcript())
			}
			if found[0].Severity != tc.severity {
				t.Errorf("severity %s, want %s", found[0].Severity, tc.severity)
			}
			v := found[0]
			if v.Detail == "" || v.Section == "" || !specVersion.MatchString(v.Spec) || v.Message.Direction != mcptest.FromClient {
				t.Errorf("want a detail, a spec section and version, and the client's message, got %+v", v)
			}
		})
	}
}

// TestHTTPBatch: a 2025-03-26 session POSTs a batch; the mock answers it
// with one batch of responses in the POST's reply, and a batch of
// notifications only with 202.
func TestHTTPBatch(t *testing.T) {
	srv := ruleServer(faketb.New(t))
	h := newHTTPRaw(t, srv)
	sid := h.handshake("2025-03-26")
	status, _, body := h.post(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
		spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-03-26")
	if status != http.StatusOK || !gjson.Parse(body).IsArray() || gjson.Get(body, "#").Int() != 2 {
		t.Fatalf("batch: status %d, body %s; want 200 and an array of two responses\n%s", status, body, srv.Transcript())
	}
	status, _, _ = h.post(`[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`,
		spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-03-26")
	if status != http.StatusAccepted {
		t.Fatalf("batch of notifications: status %d, want 202", status)
	}
	if b := srv.Journal().All().Filter(func(m mcptest.Message) bool { return m.Kind == mcptest.KindBatch && m.Direction == mcptest.FromServer }); len(b) != 1 || b[0].HTTP == nil || b[0].HTTP.Status != http.StatusOK {
		t.Fatalf("want one batch reply journaled with its HTTP exchange, got %v", b)
	}
}

// TestHTTPMalformed: what no client should send gets the JSON-RPC error
// the spec asks for with the right HTTP status, is journaled, and the
// server goes on serving.
func TestHTTPMalformed(t *testing.T) {
	srv := ruleServer(faketb.New(t)).WithHTTP(mcptest.HTTPOptions{BodyLimit: 1 << 10})
	h := newHTTPRaw(t, srv)
	sid := h.handshake("2025-11-25")
	hdr := []string{spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25"}
	cases := []struct {
		name, body string
		status     int
		code       int64
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":2,"method":`, http.StatusBadRequest, spec.CodeParseError},
		{"plain text", `hello`, http.StatusBadRequest, spec.CodeParseError},
		{"empty batch", `[]`, http.StatusBadRequest, spec.CodeInvalidRequest},
		{"batch in 2025-11-25", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, http.StatusBadRequest, spec.CodeInvalidRequest},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, http.StatusBadRequest, spec.CodeInvalidRequest},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":4,"method":"ping"}`, http.StatusBadRequest, spec.CodeInvalidRequest},
		{"too large", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2<<10) + `"}}`, http.StatusRequestEntityTooLarge, spec.CodeInvalidRequest},
	}
	for _, tc := range cases {
		status, _, body := h.post(tc.body, hdr...)
		if status != tc.status || gjson.Get(body, "error.code").Int() != tc.code {
			t.Errorf("%s: got %d %s, want %d with code %d", tc.name, status, body, tc.status, tc.code)
		}
	}
	if s, _, _ := h.do(http.MethodPut, `{}`, hdr...); s != http.StatusMethodNotAllowed {
		t.Errorf("PUT: status %d, want 405", s)
	}
	status, _, body := h.post(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo"}}`, hdr...)
	if status != http.StatusOK || gjson.Get(body, "result.content.0.text").String() != "echoed" {
		t.Fatalf("after the bad requests: %d %s, want the tool's result", status, body)
	}
	if n := len(srv.Journal().All().Invalid()); n < 3 {
		t.Errorf("want the malformed bodies journaled as invalid, got %d:\n%s", n, srv.Transcript())
	}
	srv.IgnoreViolations()
}
