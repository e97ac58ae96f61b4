package mcptest_test

// The mock as a 2026-07-28 server over Streamable HTTP, measured the way
// the official conformance suite (0.2.0-alpha.12, --requirements
// 2026-07-28) measures a server: the HTTP status and JSON-RPC error of
// each refused request, multi-round input_required with a requestState
// the server verifies, and a tool's notifications on its response stream.

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// ssMeta is the _meta of a correct 2026-07-28 client with capabilities caps.
func ssMeta(caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `,"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
}

// ssPost posts a 2026-07-28 request with the standard headers (Mcp-Name
// from name, when not ""), and returns the status and the messages of the
// response: the JSON body, or the data of each SSE event.
func ssPost(t *testing.T, h *httpRaw, id, method, name, params string, headers ...string) (int, []gjson.Result) {
	t.Helper()
	hdr := []string{spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, method}
	if name != "" {
		hdr = append(hdr, spec.HeaderName, name)
	}
	body := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
	status, rh, text := h.post(body, append(hdr, headers...)...)
	if !strings.HasPrefix(rh.Get("Content-Type"), "text/event-stream") {
		return status, []gjson.Result{gjson.Parse(text)}
	}
	var msgs []gjson.Result
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.TrimSpace(data) != "" {
			msgs = append(msgs, gjson.Parse(data))
		}
	}
	return status, msgs
}

// ssServer serves a tool that needs sampling and one without needs.
func ssServer(t testing.TB) *mcptest.Server {
	return mcptest.NewServer(t).WithTools(
		mcptest.NewTool("echo").ReturnsText("echoed"),
		mcptest.NewTool("summarize").RequiresInput(mcptest.SamplingInput("draft", `{"messages":[],"maxTokens":10}`)).ReturnsText("summary"))
}

// TestStatelessRefusalStatus: each refusal of a 2026-07-28 request comes
// with the HTTP status the spec gives it, the JSON-RPC error, the request's
// id, and the rule the client broke; what is not a refusal stays 200.
func TestStatelessRefusalStatus(t *testing.T) {
	const noRule = ""
	meta := ssMeta(`{}`)
	for _, tc := range []struct {
		name, method, mcpName, params string
		headers                       []string
		status, code                  int
		rule                          mcptest.RuleID
	}{
		// basic/index#meta: "A request missing any required field is
		// malformed; the server MUST reject it with -32602. On HTTP, the
		// response status MUST be 400 Bad Request."
		{name: "no _meta", method: "server/discover", params: `{}`, status: 400, code: spec.CodeInvalidParams, rule: "stateless/meta-required"},
		{name: "_meta without protocolVersion", method: "server/discover", params: `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}`, status: 400, code: spec.CodeInvalidParams, rule: "stateless/meta-required"},
		{name: "_meta without clientCapabilities", method: "tools/list", params: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, status: 400, code: spec.CodeInvalidParams, rule: "stateless/meta-required"},
		{name: "_meta without clientInfo (a SHOULD)", method: "server/discover", params: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`, status: 200, rule: "stateless/client-info"},
		// streamable-http#protocol-version-header: "If the server does not
		// implement the requested RPC method, it MUST respond with 404 Not
		// Found and a JSON-RPC error with code -32601."
		{name: "initialize as a 2026-07-28 request", method: "initialize", params: `{` + meta + `}`, status: 404, code: spec.CodeMethodNotFound, rule: "stateless/removed-method"},
		{name: "ping", method: "ping", params: `{` + meta + `}`, status: 404, code: spec.CodeMethodNotFound, rule: "stateless/removed-method"},
		{name: "logging/setLevel", method: "logging/setLevel", params: `{"level":"info",` + meta + `}`, status: 404, code: spec.CodeMethodNotFound, rule: "stateless/removed-method"},
		{name: "resources/subscribe", method: "resources/subscribe", params: `{"uri":"x",` + meta + `}`, status: 404, code: spec.CodeMethodNotFound, rule: "stateless/removed-method"},
		{name: "an unknown method", method: "unknown/method", params: `{` + meta + `}`, status: 404, code: spec.CodeMethodNotFound, rule: "jsonrpc/method-not-found"},
		// basic/index#meta: -32021 "On HTTP, the response status MUST be
		// 400 Bad Request." The server is right; the client is not at fault.
		{name: "a capability the client did not declare", method: "tools/call", mcpName: "summarize", params: `{"name":"summarize","arguments":{},` + meta + `}`, status: 400, code: spec.CodeMissingClientCapability, rule: noRule},
		// versioning: -32022 with 400 (streamable-http#protocol-version-header).
		{name: "an unsupported version", method: "server/discover", params: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}`,
			headers: []string{spec.HeaderProtocolVersion, "v999.0.0"}, status: 400, code: spec.CodeUnsupportedProtocolVersion, rule: noRule},
		// Not refusals of the request: 200 with the JSON-RPC error.
		{name: "an unknown tool", method: "tools/call", mcpName: "nope", params: `{"name":"nope",` + meta + `}`, status: 200, code: spec.CodeInvalidParams, rule: noRule},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ssServer(faketb.New(t))
			status, msgs := ssPost(t, newHTTPRaw(t, srv), "101", tc.method, tc.mcpName, tc.params, tc.headers...)
			reply := msgs[len(msgs)-1]
			if status != tc.status {
				t.Errorf("status %d, want %d (%s)", status, tc.status, reply.Raw)
			}
			if got := reply.Get("error.code").Int(); got != int64(tc.code) {
				t.Errorf("error code %d, want %d (%s)", got, tc.code, reply.Raw)
			}
			if reply.Get("id").Raw != "101" {
				t.Errorf("want the request's id 101 on the reply, got %s", reply.Raw)
			}
			var rules []string
			for _, v := range srv.Violations() {
				rules = append(rules, string(v.Rule))
			}
			if want := string(tc.rule); (want == "" && len(rules) > 0) || (want != "" && (len(rules) != 1 || rules[0] != want)) {
				t.Errorf("violations %v, want [%s]", rules, want)
			}
		})
	}
}

// TestInitializeWithoutStatelessHeader: an initialize that does not say it
// is a 2026-07-28 request still selects the handshake era, as a dual-era
// server does (versioning#backward-compatibility-with-initialization-based-versions).
func TestInitializeWithoutStatelessHeader(t *testing.T) {
	srv := ssServer(faketb.New(t))
	h := newHTTPRaw(t, srv)
	status, hdr, body := h.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if status != http.StatusOK || hdr.Get(spec.HeaderSessionID) == "" || gjson.Get(body, "result.protocolVersion").String() != "2025-11-25" {
		t.Errorf("want the handshake answered with a session, got %d %q %s", status, hdr.Get(spec.HeaderSessionID), body)
	}
}

// TestMRTRRounds: a tool that asks for its inputs in two rounds (two
// RequiresInput calls): each input_required asks for one round's inputs
// and carries a fresh requestState holding what was answered before it;
// the last retry completes, the handler seeing both rounds' answers; a
// requestState the server never issued is rejected.
func TestMRTRRounds(t *testing.T) {
	var got []string
	srv := mcptest.NewServer(faketb.New(t)).WithTools(mcptest.NewTool("profile").
		RequiresInput(mcptest.ElicitInput("step1", "Your name?", `{"type":"object","properties":{"name":{"type":"string"}}}`)).
		RequiresInput(mcptest.ElicitInput("step2", "Your colour?", `{"type":"object","properties":{"color":{"type":"string"}}}`)).
		HandledBy(func(_ context.Context, r *mcptest.Request) mcptest.Reply {
			got = append(got, r.InputResponse("step1").Get("content.name").String(), r.InputResponse("step2").Get("content.color").String())
			return mcptest.TextResult("done")
		}))
	h := newHTTPRaw(t, srv)
	meta := ssMeta(`{"elicitation":{}}`)
	call := func(id, extra string) gjson.Result {
		t.Helper()
		_, msgs := ssPost(t, h, id, "tools/call", "profile", `{"name":"profile","arguments":{}`+extra+`,`+meta+`}`)
		return msgs[len(msgs)-1]
	}
	r1 := call("1", "").Get("result")
	s1 := r1.Get("requestState").String()
	if r1.Get("resultType").String() != "input_required" || s1 == "" || !r1.Get("inputRequests.step1").Exists() || r1.Get("inputRequests.step2").Exists() {
		t.Fatalf("round 1: want input_required for step1 only, with a requestState, got %s", r1.Raw)
	}
	r2 := call("2", `,"inputResponses":{"step1":{"action":"accept","content":{"name":"Alice"}}},"requestState":`+strconv.Quote(s1)).Get("result")
	s2 := r2.Get("requestState").String()
	if r2.Get("resultType").String() != "input_required" || s2 == "" || s2 == s1 || r2.Get("inputRequests.step1").Exists() || !r2.Get("inputRequests.step2").Exists() {
		t.Fatalf("round 2: want input_required for step2 only, with a new requestState (not %q), got %s", s1, r2.Raw)
	}
	tampered := call("3", `,"inputResponses":{"step2":{"action":"accept","content":{"color":"blue"}}},"requestState":`+strconv.Quote(s2+"-TAMPERED"))
	if tampered.Get("error.code").Int() != spec.CodeInvalidParams {
		t.Errorf("tampered requestState: want -32602, got %s", tampered.Raw)
	}
	r3 := call("4", `,"inputResponses":{"step2":{"action":"accept","content":{"color":"blue"}}},"requestState":`+strconv.Quote(s2)).Get("result")
	if r3.Get("resultType").String() != "complete" || r3.Get("content.0.text").String() != "done" {
		t.Fatalf("round 3: want the complete result, got %s", r3.Raw)
	}
	if strings.Join(got, ",") != "Alice,blue" {
		t.Errorf("the handler saw %v, want both rounds' answers [Alice blue]", got)
	}
	var rules []mcptest.RuleID
	for _, v := range srv.Violations() {
		rules = append(rules, v.Rule)
	}
	if len(rules) != 1 || rules[0] != "mrtr/request-state-unchanged" {
		t.Errorf("want the tampered retry blamed (mrtr/request-state-unchanged), and nothing else, got %v", srv.Violations())
	}
}

// TestToolNotifies: a tool's notifications go on the call's response
// stream before its reply: progress only for a call that asked for it,
// with its progressToken; a log message only at a logLevel the request
// asked for.
func TestToolNotifies(t *testing.T) {
	srv := mcptest.NewServer(faketb.New(t)).WithTools(mcptest.NewTool("work").
		Notifies("notifications/progress", `{"progress":0,"total":100}`).
		Notifies("notifications/message", `{"level":"info","data":"working"}`).
		Notifies("notifications/progress", `{"progress":100,"total":100}`).
		ReturnsText("done"))
	h := newHTTPRaw(t, srv)
	methods := func(msgs []gjson.Result) string {
		var ms []string
		for _, m := range msgs {
			if m.Get("method").Exists() {
				ms = append(ms, m.Get("method").String()+"("+m.Get("params.progressToken").String()+m.Get("params.data").String()+")")
			} else {
				ms = append(ms, "reply:"+m.Get("result.content.0.text").String())
			}
		}
		return strings.Join(ms, " ")
	}
	for _, tc := range []struct{ name, meta, want string }{
		{"no progressToken, no logLevel", ssMeta(`{}`), "reply:done"},
		{"a progressToken", strings.Replace(ssMeta(`{}`), `"_meta":{`, `"_meta":{"progressToken":"p1",`, 1),
			"notifications/progress(p1) notifications/progress(p1) reply:done"},
		{"a progressToken and logLevel debug", strings.Replace(ssMeta(`{}`), `"_meta":{`, `"_meta":{"progressToken":"p1","io.modelcontextprotocol/logLevel":"debug",`, 1),
			"notifications/progress(p1) notifications/message(working) notifications/progress(p1) reply:done"},
		{"logLevel error: info is not sent", strings.Replace(ssMeta(`{}`), `"_meta":{`, `"_meta":{"io.modelcontextprotocol/logLevel":"error",`, 1), "reply:done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, msgs := ssPost(t, h, "1", "tools/call", "work", `{"name":"work",`+tc.meta+`}`)
			if got := methods(msgs); status != http.StatusOK || got != tc.want {
				t.Errorf("got %d %q, want 200 %q", status, got, tc.want)
			}
		})
	}
	if vs := srv.Violations(); len(vs) > 0 {
		t.Errorf("want no violation, got %v", vs)
	}
}

// TestToolNotifiesListChanged: a tool that announces a list change
// reaches the subscriptions/listen stream that asked for it, and not one
// that asked for another list.
func TestToolNotifiesListChanged(t *testing.T) {
	srv := mcptest.NewServer(faketb.New(t)).WithTools(
		mcptest.NewTool("change_tools").Notifies("notifications/tools/list_changed", nil).ReturnsText("changed")).
		WithPrompts(mcptest.NewPrompt("p").ReturnsText("x"))
	c := dialRaw(t, srv)
	c.send(rawRequest(`"tools-listen"`, "subscriptions/listen", slOK(`"notifications":{"toolsListChanged":true}`)))
	if ack := c.recvJSON(t); ack.Get("method").String() != "notifications/subscriptions/acknowledged" {
		t.Fatalf("want the acknowledgement, got %s", ack.Raw)
	}
	c.send(rawRequest(`"prompts-listen"`, "subscriptions/listen", slOK(`"notifications":{"promptsListChanged":true}`)))
	if ack := c.recvJSON(t); ack.Get("method").String() != "notifications/subscriptions/acknowledged" {
		t.Fatalf("want the acknowledgement, got %s", ack.Raw)
	}
	c.send(rawRequest(`"c1"`, "tools/call", slOK(`"name":"change_tools"`)))
	n := c.recvJSON(t)
	if n.Get("method").String() != "notifications/tools/list_changed" || n.Get(slMetaPath("params.", "io.modelcontextprotocol/subscriptionId")).Raw != `"tools-listen"` {
		t.Fatalf("want tools/list_changed on the tools listen stream, got %s", n.Raw)
	}
	if reply := c.recvJSON(t); reply.Get("id").Raw != `"c1"` || reply.Get("result.content.0.text").String() != "changed" {
		t.Fatalf("want the call's reply next (nothing for the prompts stream), got %s", reply.Raw)
	}
}

// TestMRTRResponseNotAnObject: an input response that is not the result
// the input request asked for (a number for an elicitation) is refused
// with -32602, not taken as an answer (mrtr: servers SHOULD validate the
// InputResponses and answer a protocol error with a JSON-RPC error).
func TestMRTRResponseNotAnObject(t *testing.T) {
	srv := mcptest.NewServer(faketb.New(t)).ExpectViolation("jsonrpc/invalid-params").WithTools(mcptest.NewTool("greet").
		RequiresInput(mcptest.ElicitInput("user_name", "Your name?", `{"type":"object","properties":{"name":{"type":"string"}}}`)).
		ReturnsText("Hello!"))
	_, msgs := ssPost(t, newHTTPRaw(t, srv), "1", "tools/call", "greet", `{"name":"greet","arguments":{},"inputResponses":{"user_name":12345},`+ssMeta(`{"elicitation":{}}`)+`}`)
	reply := msgs[len(msgs)-1]
	if reply.Get("error.code").Int() != spec.CodeInvalidParams || !strings.Contains(reply.Get("error.message").String(), "inputResponses.user_name is 12345") {
		t.Errorf("want -32602 naming the response, got %s", reply.Raw)
	}
	if vs := srv.Violations(); len(vs) != 1 || vs[0].Rule != "jsonrpc/invalid-params" {
		t.Errorf("want one jsonrpc/invalid-params violation, got %v", vs)
	}
}
