package mcptest_test

import (
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// chargedRules lists the rules of srv's violations, in order, without the
// warning the raw HTTP client earns by leaving its session open.
func chargedRules(srv *mcptest.Server) []string {
	var rules []string
	for _, v := range srv.Violations() {
		if v.Rule != "http/delete-on-close" {
			rules = append(rules, string(v.Rule))
		}
	}
	return rules
}

// overStdio sends line to a new session of a fresh server over a
// connection and returns the reply and the rules the server charged.
func overStdio(t *testing.T, mk func(testing.TB) *mcptest.Server, line string) (gjson.Result, []string) {
	t.Helper()
	srv := mk(faketb.New(t))
	c := dialRaw(t, srv)
	c.send(line)
	reply := c.recvJSON(t)
	srv.Close()
	return reply, chargedRules(srv)
}

// TestHTTPHandshakeEraNotBoundByStatelessHeaders: a message that is not a
// request of the stateless era, POSTed without a session id and without
// the stateless era's headers, is answered as over stdio, and the client
// is charged with what it is charged with there, never with
// http/stateless-headers. (Before: 400 -32020 "no Mcp-Protocol-Version
// header" and an http/stateless-headers violation.)
func TestHTTPHandshakeEraNotBoundByStatelessHeaders(t *testing.T) {
	cases := []struct {
		name   string
		server func(testing.TB) *mcptest.Server
		body   string
	}{
		{"modern-only server: initialize", modernOnlyServer, rawRequest("1", "initialize", initializeParams(`"2025-11-25"`))},
		{"modern-only server: ping", modernOnlyServer, rawRequest("2", "ping", "")},
		{"modern-only server: tools/list without _meta", modernOnlyServer, rawRequest("3", "tools/list", "")},
		{"modern-only server: server/discover probe without _meta", modernOnlyServer, rawRequest("4", "server/discover", "")},
		{"both eras: server/discover probe without _meta", ruleServer, rawRequest("5", "server/discover", "")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, wantRules := overStdio(t, tc.server, tc.body)
			srv := tc.server(faketb.New(t))
			h := newHTTPRaw(t, srv)
			status, _, body := h.post(tc.body)
			got := gjson.Parse(body)
			srv.Close()
			rules := chargedRules(srv)
			if slices.Contains(rules, "http/stateless-headers") || got.Get("error.code").Int() == spec.CodeHeaderMismatch {
				t.Errorf("a message that is not a stateless-era request was held to the stateless era's headers: %d %s, violations %v", status, body, srv.Violations())
			}
			if got.Get("error.code").Int() != want.Get("error.code").Int() || got.Get("result").Exists() != want.Get("result").Exists() ||
				got.Get("error.data.supported").Raw != want.Get("error.data.supported").Raw {
				t.Errorf("over HTTP: %d %s; over stdio: %s", status, body, want.Raw)
			}
			if !slices.Equal(rules, wantRules) {
				t.Errorf("over HTTP the client is charged with %v, over stdio with %v", rules, wantRules)
			}
		})
	}
	t.Run("modern-only server: initialize is -32602 naming 2026-07-28, no violation", func(t *testing.T) {
		srv := modernOnlyServer(faketb.New(t))
		h := newHTTPRaw(t, srv)
		status, _, body := h.post(rawRequest("1", "initialize", initializeParams(`"2025-11-25"`)))
		if status != http.StatusOK || gjson.Get(body, "error.code").Int() != spec.CodeInvalidParams || gjson.Get(body, "error.data.supported.0").String() != statelessVersion {
			t.Errorf("got %d %s, want 200 with -32602 naming %s", status, body, statelessVersion)
		}
		srv.Close()
		if rules := chargedRules(srv); len(rules) != 0 {
			t.Errorf("want no violation, got %v", srv.Violations())
		}
	})
	t.Run("a stateless-era request without its headers is still charged", func(t *testing.T) {
		srv := ruleServer(faketb.New(t))
		h := newHTTPRaw(t, srv)
		status, _, body := h.post(rawRequest("1", "tools/list", `{`+statelessMeta+`}`))
		if status != http.StatusBadRequest || gjson.Get(body, "error.code").Int() != spec.CodeHeaderMismatch {
			t.Errorf("got %d %s, want 400 with -32020", status, body)
		}
		srv.Close()
		if rules := chargedRules(srv); !slices.Equal(rules, []string{"http/stateless-headers"}) {
			t.Errorf("want http/stateless-headers, got %v", srv.Violations())
		}
	})
}

// TestHTTPMalformedWithoutSession: a body that is no JSON-RPC message,
// POSTed without Mcp-Session-Id, gets the error a session gives it (a
// parse error is -32700 with id null, as docs/http.md promises) and the
// client is charged only with what it is charged with over stdio, not
// with http/session-id. (Before: 400 -32600 "Mcp-Session-Id header
// required" and an http/session-id violation.) A batch of messages still
// needs a session.
func TestHTTPMalformedWithoutSession(t *testing.T) {
	cases := []struct {
		name, body string
		code       int64
		id         string
		rule       mcptest.RuleID
	}{
		{"not JSON", `{"jsonrpc":"2.0",`, spec.CodeParseError, "null", "jsonrpc/parse-error"},
		{"plain text", `hello`, spec.CodeParseError, "null", "jsonrpc/parse-error"},
		{"a JSON object that is no message", `{"foo":1}`, spec.CodeInvalidRequest, "null", "jsonrpc/invalid-request"},
		{"a JSON number", `42`, spec.CodeInvalidRequest, "null", "jsonrpc/invalid-request"},
		{"neither request nor response, with an id", `{"jsonrpc":"2.0","id":3}`, spec.CodeInvalidRequest, "3", "jsonrpc/invalid-request"},
		{"an empty batch", `[]`, spec.CodeInvalidRequest, "null", "jsonrpc/invalid-request"},
		{"an empty body", ``, spec.CodeParseError, "null", "jsonrpc/parse-error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := ruleServer(faketb.New(t))
			h := newHTTPRaw(t, srv)
			status, _, body := h.post(tc.body)
			if status != http.StatusBadRequest || gjson.Get(body, "error.code").Int() != tc.code || gjson.Get(body, "id").Raw != tc.id {
				t.Errorf("got %d %s, want 400 with %d and id %s", status, body, tc.code, tc.id)
			}
			srv.Close()
			if rules := chargedRules(srv); !slices.Equal(rules, []string{string(tc.rule)}) {
				t.Errorf("want only %s, got %v", tc.rule, srv.Violations())
			}
			if strings.TrimSpace(tc.body) != "" {
				want, wantRules := overStdio(t, ruleServer, tc.body)
				if want.Get("error.code").Int() != tc.code || !slices.Equal(wantRules, []string{string(tc.rule)}) {
					t.Errorf("over stdio: %s %v; the case's expectation is not what a session answers", want.Raw, wantRules)
				}
			}
		})
	}
	t.Run("a batch of requests needs a session", func(t *testing.T) {
		srv := ruleServer(faketb.New(t))
		h := newHTTPRaw(t, srv)
		status, _, body := h.post(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
		if status != http.StatusBadRequest || gjson.Get(body, "error.code").Int() != spec.CodeInvalidRequest {
			t.Errorf("got %d %s, want 400 with -32600", status, body)
		}
		srv.Close()
		if rules := chargedRules(srv); !slices.Equal(rules, []string{"http/session-id"}) {
			t.Errorf("want http/session-id, got %v", srv.Violations())
		}
	})
}

// TestHTTPRefusedInitializeOpensNoSession: an initialize refused for its
// Accept (406) or Content-Type (415) is journaled in session 0 and opens
// no session; the client's next, correct initialize opens session 1.
// (Before: each refusal opened a session that never ended.)
func TestHTTPRefusedInitializeOpensNoSession(t *testing.T) {
	srv := ruleServer(faketb.New(t))
	h := newHTTPRaw(t, srv)
	init := rawRequest("1", "initialize", initializeParams(`"2025-11-25"`))
	if status, _, body := h.do(http.MethodPost, init, "Content-Type", "application/json", "Accept", "application/json"); status != http.StatusNotAcceptable {
		t.Fatalf("initialize accepting only JSON: %d %s, want 406", status, body)
	}
	if status, _, body := h.do(http.MethodPost, init, "Content-Type", "text/plain", "Accept", both); status != http.StatusUnsupportedMediaType {
		t.Fatalf("initialize as text/plain: %d %s, want 415", status, body)
	}
	if n := len(srv.Sessions()); n != 0 {
		t.Fatalf("two refused initialize requests opened %d sessions, want none", n)
	}
	sid := h.handshake("2025-11-25")
	if s := srv.Sessions(); len(s) != 1 || s[0].ID() != sid || s[0].Number() != 1 {
		t.Fatalf("want one session, number 1, with id %s; got %d sessions", sid, len(s))
	}
	if status, _, _ := h.do(http.MethodDelete, "", spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25"); status != http.StatusOK {
		t.Fatalf("DELETE: status %d", status)
	}
	<-srv.Sessions()[0].Done()
	refused := srv.Journal().All().Filter(func(m mcptest.Message) bool {
		return m.SessionNumber == 0 && m.Direction == mcptest.FromClient && m.Method == "initialize"
	})
	if len(refused) != 2 {
		t.Errorf("want the two refused initialize requests journaled in session 0, got %d:\n%s", len(refused), srv.Transcript())
	}
	srv.Close()
	if rules := chargedRules(srv); !slices.Equal(rules, []string{"http/accept", "http/content-type"}) {
		t.Errorf("want http/accept and http/content-type, got %v", srv.Violations())
	}
}

// TestHTTPOutboundFaultsActOnRefusals: a refusal of the HTTP front goes
// out through the session's write path, so an outbound fault acts on it
// as on any reply, and the journal records the frame as it went on the
// wire, with its HTTP status: a 406 within a session, and a 400 of a
// request that belongs to no session (session 0). (Before: the front
// wrote its refusals itself, and the fault never acted.)
func TestHTTPOutboundFaultsActOnRefusals(t *testing.T) {
	srv := ruleServer(faketb.New(t))
	call := srv.AddFault(fault.JSONRPCVersion("tools/call", "1.0"))
	ping := srv.AddFault(fault.JSONRPCVersion("ping", "1.0"))
	h := newHTTPRaw(t, srv)
	sid := h.handshake("2025-11-25")

	status, hdr, body := h.do(http.MethodPost, rawRequest("7", "tools/call", `{"name":"echo"}`),
		"Content-Type", "application/json", "Accept", "application/json",
		spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
	if status != http.StatusNotAcceptable || gjson.Get(body, "jsonrpc").String() != "1.0" || gjson.Get(body, "id").Raw != "7" ||
		gjson.Get(body, "error.code").Int() != spec.CodeInvalidRequest {
		t.Errorf("406 within the session: %d %s; want the refusal (-32600, id 7) with the fault's jsonrpc 1.0", status, body)
	}
	if got := hdr.Get("Content-Type"); got != "application/json" {
		t.Errorf("406: Content-Type %q, want application/json", got)
	}
	status, _, body = h.post(rawRequest("3", "ping", ""))
	if status != http.StatusBadRequest || gjson.Get(body, "jsonrpc").String() != "1.0" || gjson.Get(body, "id").Raw != "3" {
		t.Errorf("400 for want of a session: %d %s; want the refusal (id 3) with the fault's jsonrpc 1.0", status, body)
	}
	if call.Hits() != 1 || ping.Hits() != 1 {
		t.Errorf("fault hits: tools/call %d, ping %d; want 1 each", call.Hits(), ping.Hits())
	}
	for _, want := range []struct {
		session, status int
		method          string
	}{{1, http.StatusNotAcceptable, "tools/call"}, {0, http.StatusBadRequest, "ping"}} {
		out := srv.Journal().All().Filter(func(m mcptest.Message) bool {
			return m.SessionNumber == want.session && m.Direction == mcptest.FromServer && m.Method == want.method
		})
		if len(out) != 1 || out[0].HTTP == nil || out[0].HTTP.Status != want.status || !strings.Contains(out[0].Raw(), `"jsonrpc":"1.0"`) {
			t.Errorf("session %d: want the %s refusal journaled as sent, with status %d; got %v\n%s", want.session, want.method, want.status, out, srv.Transcript())
		}
	}
	srv.IgnoreViolations()
}

// TestWithHTTPAllowedHosts: a Host the server was told about is served
// like a loopback one, with or without a port and in any case; any other
// is still refused with 403 and http/host; a name with a port is a
// misconfiguration that fails the test at once.
func TestWithHTTPAllowedHosts(t *testing.T) {
	srv := mcptest.NewServer(t).WithHTTP(mcptest.HTTPOptions{AllowedHosts: []string{"Mock.Internal", "192.0.2.7", "[2001:db8::7]"}})
	srv.ExpectViolation("http/host")
	post := func(host string) int {
		req, err := http.NewRequest(http.MethodPost, srv.URL(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
		require.NoError(t, err)
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, host := range []string{"mock.internal", "MOCK.internal:8080", "192.0.2.7:80", "[2001:db8::7]:443"} {
		assert.Equal(t, http.StatusOK, post(host), "Host %s was allowed", host)
	}
	assert.Equal(t, http.StatusForbidden, post("other.example"), "a Host not allowed")
	assert.Len(t, srv.Violations(), 1, "one http/host violation, for other.example")

	fake := faketb.New(t)
	bad := mcptest.NewServer(fake)
	if fake.Run(func() { bad.WithHTTP(mcptest.HTTPOptions{AllowedHosts: []string{"mock.internal:8080"}}) }) {
		t.Fatal("AllowedHosts with a port did not stop the test")
	}
	assert.Contains(t, fake.FatalOutput(), `WithHTTP: AllowedHosts: host "mock.internal:8080": want a host name or IP address without a port`)
}

// TestWithHTTPAddsUp: calls of WithHTTP add up (a flag or a limit given
// stays, hosts are added), and a negative limit or duration fails the test
// at once, naming the call and the field.
func TestWithHTTPAddsUp(t *testing.T) {
	srv := mcptest.NewServer(t).
		WithHTTP(mcptest.HTTPOptions{NoStandaloneSSE: true, AllowedHosts: []string{"one.internal"}}).
		WithHTTP(mcptest.HTTPOptions{BodyLimit: 1 << 10, AllowedHosts: []string{"two.internal"}})
	get, err := http.NewRequest(http.MethodGet, srv.URL(), nil)
	require.NoError(t, err)
	get.Header.Set("Accept", "text/event-stream")
	get.Host = "one.internal"
	resp, err := http.DefaultClient.Do(get)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "NoStandaloneSSE of the first call stays, and its host is allowed")
	post, err := http.NewRequest(http.MethodPost, srv.URL(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","padding":"`+strings.Repeat("x", 2<<10)+`"}`))
	require.NoError(t, err)
	post.Host = "two.internal"
	post.Header.Set("Content-Type", "application/json")
	post.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(post)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "the second call's BodyLimit, on the second call's host")
	srv.IgnoreViolations()

	for _, c := range []struct {
		opt  mcptest.HTTPOptions
		want string
	}{
		{mcptest.HTTPOptions{BodyLimit: -1}, "WithHTTP: BodyLimit -1 is negative"},
		{mcptest.HTTPOptions{SSEWriteTimeout: -time.Second}, "WithHTTP: SSEWriteTimeout -1s is negative"},
		{mcptest.HTTPOptions{SSERetry: -time.Second}, "WithHTTP: SSERetry -1s is negative"},
	} {
		fake := faketb.New(t)
		bad := mcptest.NewServer(fake)
		if fake.Run(func() { bad.WithHTTP(c.opt) }) {
			t.Fatalf("WithHTTP(%+v) did not stop the test", c.opt)
		}
		assert.Contains(t, fake.FatalOutput(), c.want)
	}
}
