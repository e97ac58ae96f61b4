package mcptest_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/tidwall/gjson"
)

// ruleServer is the server most rule cases run against: every capability
// declared, two tools listed one a page, so that cursors exist.
func ruleServer(t testing.TB) *mcptest.Server {
	return mcptest.NewServer(t).
		WithTools(
			mcptest.NewTool("echo").ReturnsText("echoed"),
			mcptest.NewTool("add").ReturnsText("3"),
		).
		WithResources(mcptest.NewResource("file:///notes.txt", "notes").WithMIMEType("text/plain").ReturnsText("remember the milk")).
		WithResourceTemplates(mcptest.NewResourceTemplate("file:///users/{id}", "user").ReturnsText("a user")).
		WithPrompts(mcptest.NewPrompt("greet").WithArgument("name", "who to greet", true).ReturnsText("Hello!"),
			mcptest.NewPrompt("plain").ReturnsText("Hi.")).
		WithPromptCompletion("greet", "name", "alice", "bob").
		WithOptions(mcptest.Options{Logging: true}).
		WithOptions(mcptest.Options{PageSize: 1})
}

// mrtrServer has a tool that asks the client to confirm before it answers.
func mrtrServer(t testing.TB) *mcptest.Server {
	return mcptest.NewServer(t).WithTools(
		mcptest.NewTool("book").
			RequiresInput(mcptest.ElicitInput("confirm", "Book it?", `{"type":"object","properties":{"ok":{"type":"boolean"}}}`)).
			ReturnsText("booked"),
		mcptest.NewTool("echo").ReturnsText("echoed"))
}

// modernOnlyServer speaks only the stateless era.
func modernOnlyServer(t testing.TB) *mcptest.Server {
	return ruleServer(t).WithProtocolVersions(statelessVersion)
}

// bookFirstRound calls the book tool (id "b1") in a stateless session and
// returns the requestState of its input_required result.
func bookFirstRound(t testing.TB, c *rawClient) string {
	res := c.result(t, `"b1"`, "tools/call", modernParams(`"name":"book","arguments":{}`))
	if res.Get("resultType").String() != "input_required" || !res.Get("inputRequests.confirm").Exists() || res.Get("requestState").String() == "" {
		t.Fatalf("want an input_required result asking for confirm, with a requestState, got %s", res.Raw)
	}
	return res.Get("requestState").String()
}

// bareServer declares no capability at all.
func bareServer(t testing.TB) *mcptest.Server { return mcptest.NewServer(t) }

// What the client does before it breaks the rule.
var (
	ruleFresh        = func(t testing.TB, c *rawClient) {}
	ruleHandshaken   = func(t testing.TB, c *rawClient) { c.handshake(t, "2025-11-25") }
	ruleDiscovered   = func(t testing.TB, c *rawClient) { c.discover(t, `"discover"`) }
	ruleInitializing = func(t testing.TB, c *rawClient) { c.initialize(t, "2025-11-25") } // no notifications/initialized
)

// wantReply is how the mock must answer the offending frame.
type wantReply struct {
	kind  mcptest.Kind // KindResult, KindError, or KindInvalid for no reply at all
	code  int          // the error code, for KindError
	id    string       // the JSON text of the reply's id
	batch bool         // the reply comes as the only response of a batch
}

func wantNoReply() wantReply            { return wantReply{kind: mcptest.KindInvalid} }
func wantBatchOf(r wantReply) wantReply { r.batch = true; return r }
func wantResult(id string) wantReply    { return wantReply{kind: mcptest.KindResult, id: id} }
func wantError(code int, id string) wantReply {
	return wantReply{kind: mcptest.KindError, code: code, id: id}
}

// ruleCase is a client that breaks exactly one rule with one frame.
type ruleCase struct {
	name   string
	rule   mcptest.RuleID
	server func(testing.TB) *mcptest.Server // nil: ruleServer
	before func(testing.TB, *rawClient)     // nil: handshaken
	frame  string                           // the offending frame
	// makeFrame builds the frame from what the client learnt in before,
	// when frame cannot be written in advance.
	makeFrame func(testing.TB, *rawClient) string
	kind      mcptest.Kind // how the journal classifies the frame
	reply     wantReply
	severity  mcptest.Severity // of the violation: an error unless said
}

// typedToolServer has a tool whose inputSchema wants an integer age.
func typedToolServer(t testing.TB) *mcptest.Server {
	return ruleServer(t).WithTools(mcptest.NewTool("typed").
		WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"}},"required":["age"]}`).ReturnsText("typed"))
}

// elicitServer has a tool that asks the user to confirm, with a field
// that has a default (SEP-1034).
func elicitServer(t testing.TB) *mcptest.Server {
	return ruleServer(t).WithTools(mcptest.NewTool("confirm").
		RequiresInput(mcptest.ElicitInput("ok", "Sure?", `{"type":"object","properties":{"ok":{"type":"boolean"},"note":{"type":"string","default":"none"}},"required":["ok"]}`)).
		ReturnsText("confirmed"))
}

// elicitHandshake is a handshake declaring the elicitation capability.
func elicitHandshake(t testing.TB, c *rawClient) {
	c.result(t, rawInitID, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"rawclient","version":"1.0.0"}}`)
	c.notify("notifications/initialized", "")
}

// elicitAnswer calls the confirm tool (id 130), reads the mock's
// elicitation/create and returns the client's answer with result.
func elicitAnswer(result string) func(testing.TB, *rawClient) string {
	return func(t testing.TB, c *rawClient) string {
		c.send(rawRequest("130", "tools/call", `{"name":"confirm","arguments":{}}`))
		req := c.recvJSON(t)
		if req.Get("method").String() != "elicitation/create" {
			t.Fatalf("want elicitation/create from the mock, got %s", req.Raw)
		}
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.Get("id").Raw, result)
	}
}

// initRequest is an initialize request (id "init") with the given params.
func initRequest(params string) string { return rawRequest(rawInitID, "initialize", params) }

var ruleCases = []ruleCase{
	// jsonrpc/parse-error: -32700 with id null.
	{name: "truncated object", rule: "jsonrpc/parse-error",
		frame: `{"jsonrpc":"2.0","id":1,"method":"ping"`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeParseError, "null")},
	{name: "plain text", rule: "jsonrpc/parse-error", before: ruleFresh,
		frame: `hello, server`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeParseError, "null")},
	{name: "two messages on one line", rule: "jsonrpc/parse-error",
		frame: `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeParseError, "null")},
	{name: "single quotes", rule: "jsonrpc/parse-error",
		frame: `{'jsonrpc':'2.0','id':1,'method':'ping'}`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeParseError, "null")},

	// jsonrpc/invalid-request: -32600, with the id when it can be read.
	{name: "batch", rule: "jsonrpc/invalid-request",
		frame: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "empty batch", rule: "jsonrpc/invalid-request",
		frame: `[]`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "number", rule: "jsonrpc/invalid-request", before: ruleFresh,
		frame: `42`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "string", rule: "jsonrpc/invalid-request",
		frame: `"ping"`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "null", rule: "jsonrpc/invalid-request",
		frame: `null`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "empty object", rule: "jsonrpc/invalid-request",
		frame: `{}`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "method is not a string", rule: "jsonrpc/invalid-request",
		frame: `{"jsonrpc":"2.0","id":3,"method":42}`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "3")},
	{name: "method is not a string and id is null", rule: "jsonrpc/invalid-request",
		frame: `{"jsonrpc":"2.0","id":null,"method":["ping"]}`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "neither request nor response", rule: "jsonrpc/invalid-request",
		frame: `{"jsonrpc":"2.0","id":"four"}`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, `"four"`)},
	{name: "response with result and error", rule: "jsonrpc/invalid-request",
		frame: `{"jsonrpc":"2.0","id":5,"result":{},"error":{"code":-32603,"message":"both"}}`, kind: mcptest.KindInvalid, reply: wantError(spec.CodeInvalidRequest, "5")},

	// jsonrpc/version: a request is refused with -32600; a notification is
	// handled anyway.
	{name: "request without jsonrpc", rule: "jsonrpc/version",
		frame: `{"id":6,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "6")},
	{name: "jsonrpc 1.0", rule: "jsonrpc/version",
		frame: `{"jsonrpc":"1.0","id":7,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "7")},
	{name: "jsonrpc as a number", rule: "jsonrpc/version", before: ruleFresh,
		frame: `{"jsonrpc":2.0,"id":8,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "8")},
	{name: "request without jsonrpc and with a null id", rule: "jsonrpc/version",
		frame: `{"id":null,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "notification without jsonrpc", rule: "jsonrpc/version",
		frame: `{"method":"notifications/roots/list_changed"}`, kind: mcptest.KindNotification, reply: wantNoReply()},

	// jsonrpc/id-type: -32600 with id null.
	{name: "null id", rule: "jsonrpc/id-type",
		frame: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "fractional id", rule: "jsonrpc/id-type",
		frame: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "boolean id", rule: "jsonrpc/id-type", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","id":true,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "object id", rule: "jsonrpc/id-type",
		frame: `{"jsonrpc":"2.0","id":{"n":1},"method":"tools/list"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "null")},
	{name: "array id", rule: "jsonrpc/id-type",
		frame: `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidRequest, "null")},

	// jsonrpc/id-unique: the request is still answered.
	{name: "id of an earlier request", rule: "jsonrpc/id-unique",
		before: func(t testing.TB, c *rawClient) { ruleHandshaken(t, c); c.ping(t, "20") },
		frame:  `{"jsonrpc":"2.0","id":20,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantResult("20")},
	{name: "id of the initialize request", rule: "jsonrpc/id-unique",
		frame: `{"jsonrpc":"2.0","id":"init","method":"tools/list"}`, kind: mcptest.KindRequest, reply: wantResult(`"init"`)},

	// jsonrpc/id-precision (a warning): answered, with the id as sent.
	{name: "id beyond 2^53", rule: "jsonrpc/id-precision", severity: mcptest.SeverityWarning,
		frame: `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantResult("9007199254740993")},
	{name: "id below -(2^53)", rule: "jsonrpc/id-precision", severity: mcptest.SeverityWarning,
		frame: `{"jsonrpc":"2.0","id":-123456789012345678901,"method":"ping"}`, kind: mcptest.KindRequest, reply: wantResult("-123456789012345678901")},

	// params/progress-token-type: the request is still served.
	{name: "progressToken a fraction", rule: "params/progress-token-type",
		frame: rawRequest("110", "tools/call", `{"name":"echo","arguments":{},"_meta":{"progressToken":1.5}}`), kind: mcptest.KindRequest, reply: wantResult("110")},
	{name: "progressToken an object", rule: "params/progress-token-type",
		frame: rawRequest("111", "tools/list", `{"_meta":{"progressToken":{"t":1}}}`), kind: mcptest.KindRequest, reply: wantResult("111")},

	// params/cancel-request-id-type: no reply.
	{name: "requestId an object", rule: "params/cancel-request-id-type",
		frame: rawNotification("notifications/cancelled", `{"requestId":{"id":1}}`), kind: mcptest.KindNotification, reply: wantNoReply()},
	{name: "requestId null", rule: "params/cancel-request-id-type",
		frame: rawNotification("notifications/cancelled", `{"requestId":null}`), kind: mcptest.KindNotification, reply: wantNoReply()},

	// tools/arguments-schema (a warning): the tool still answers.
	{name: "arguments of the wrong type", rule: "tools/arguments-schema", severity: mcptest.SeverityWarning, server: typedToolServer,
		frame: rawRequest("120", "tools/call", `{"name":"typed","arguments":{"age":"old"}}`), kind: mcptest.KindRequest, reply: wantResult("120")},
	{name: "a required argument missing", rule: "tools/arguments-schema", severity: mcptest.SeverityWarning, server: typedToolServer,
		frame: rawRequest("121", "tools/call", `{"name":"typed"}`), kind: mcptest.KindRequest, reply: wantResult("121")},

	// elicitation/content-schema and elicitation/defaults-applied (a
	// warning): the tool call is still answered.
	{name: "accepted content of the wrong type", rule: "elicitation/content-schema", severity: mcptest.SeverityWarning, server: elicitServer, before: elicitHandshake,
		makeFrame: elicitAnswer(`{"action":"accept","content":{"ok":"yes"}}`), kind: mcptest.KindResult, reply: wantResult("130")},
	{name: "accepted content without a required field", rule: "elicitation/content-schema", severity: mcptest.SeverityWarning, server: elicitServer, before: elicitHandshake,
		makeFrame: elicitAnswer(`{"action":"accept","content":{}}`), kind: mcptest.KindResult, reply: wantResult("130")},
	{name: "stateless retry with content of the wrong type", rule: "elicitation/content-schema", severity: mcptest.SeverityWarning, server: elicitServer, before: ruleDiscovered,
		makeFrame: func(t testing.TB, c *rawClient) string {
			res := c.result(t, `"c1"`, "tools/call", modernParams(`"name":"confirm","arguments":{}`))
			if res.Get("resultType").String() != "input_required" {
				t.Fatalf("want input_required, got %s", res.Raw)
			}
			return rawRequest(`"c2"`, "tools/call", modernParams(`"name":"confirm","arguments":{},"inputResponses":{"ok":{"action":"accept","content":{"ok":"yes"}}},"requestState":`+res.Get("requestState").Raw))
		},
		kind: mcptest.KindRequest, reply: wantResult(`"c2"`)},
	{name: "defaults not applied", rule: "elicitation/defaults-applied", severity: mcptest.SeverityWarning, server: elicitServer, before: elicitHandshake,
		makeFrame: elicitAnswer(`{"action":"accept","content":{"ok":true}}`), kind: mcptest.KindResult, reply: wantResult("130")},

	// jsonrpc/method-not-found: -32601.
	{name: "unknown method", rule: "jsonrpc/method-not-found",
		frame: `{"jsonrpc":"2.0","id":30,"method":"tools/frobnicate"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeMethodNotFound, "30")},
	{name: "a method of the client sent to the server", rule: "jsonrpc/method-not-found",
		frame: `{"jsonrpc":"2.0","id":31,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeMethodNotFound, "31")},
	{name: "method names are case-sensitive", rule: "jsonrpc/method-not-found",
		frame: `{"jsonrpc":"2.0","id":"P","method":"Ping"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeMethodNotFound, `"P"`)},

	// jsonrpc/invalid-params: -32602 for requests; notifications get no reply.
	{name: "params is an array", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":40,"method":"tools/list","params":[]}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "40")},
	{name: "params is a string", rule: "jsonrpc/invalid-params", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","id":41,"method":"ping","params":"now"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "41")},
	{name: "tools/call without name", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":{}}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "42")},
	{name: "tools/call arguments not an object", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"name":"echo","arguments":["x"]}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "43")},
	{name: "resources/read without uri", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":44,"method":"resources/read","params":{}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "44")},
	{name: "resources/subscribe uri not a string", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":45,"method":"resources/subscribe","params":{"uri":7}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "45")},
	{name: "prompts/get without name", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":46,"method":"prompts/get","params":{"arguments":{"name":"x"}}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "46")},
	{name: "prompts/get arguments not an object", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":47,"method":"prompts/get","params":{"name":"greet","arguments":"x"}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "47")},
	{name: "logging/setLevel unknown level", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":48,"method":"logging/setLevel","params":{"level":"verbose"}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "48")},
	{name: "completion/complete without ref", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","id":49,"method":"completion/complete","params":{"argument":{"name":"name","value":"a"}}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "49")},
	{name: "notifications/cancelled without requestId", rule: "jsonrpc/invalid-params",
		frame: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"bored"}}`, kind: mcptest.KindNotification, reply: wantNoReply()},

	// jsonrpc/unexpected-response: no reply.
	{name: "result for no request", rule: "jsonrpc/unexpected-response",
		frame: `{"jsonrpc":"2.0","id":50,"result":{}}`, kind: mcptest.KindResult, reply: wantNoReply()},
	{name: "error for no request", rule: "jsonrpc/unexpected-response", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","id":"s1","error":{"code":-32601,"message":"Method not found"}}`, kind: mcptest.KindError, reply: wantNoReply()},

	// lifecycle/initialize-first: requests are still answered.
	{name: "request before initialize", rule: "lifecycle/initialize-first", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","id":60,"method":"tools/list"}`, kind: mcptest.KindRequest, reply: wantResult("60")},
	{name: "tools/call before initialize", rule: "lifecycle/initialize-first", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","id":61,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, kind: mcptest.KindRequest, reply: wantResult("61")},
	{name: "notifications/initialized before initialize", rule: "lifecycle/initialize-first", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, kind: mcptest.KindNotification, reply: wantNoReply()},
	{name: "other notification before initialize", rule: "lifecycle/initialize-first", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, kind: mcptest.KindNotification, reply: wantNoReply()},

	// lifecycle/initialize-params: without a string protocolVersion the
	// mock refuses with -32602; otherwise it answers.
	{name: "protocolVersion missing", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(`{"capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, rawInitID)},
	{name: "protocolVersion a number", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":20251125,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, rawInitID)},
	{name: "no params at all", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(""), kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, rawInitID)},
	{name: "capabilities missing", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":"2025-11-25","clientInfo":{"name":"c","version":"1"}}`), kind: mcptest.KindRequest, reply: wantResult(rawInitID)},
	{name: "capabilities an array", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":"2025-11-25","capabilities":[],"clientInfo":{"name":"c","version":"1"}}`), kind: mcptest.KindRequest, reply: wantResult(rawInitID)},
	{name: "clientInfo missing", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":"2025-06-18","capabilities":{}}`), kind: mcptest.KindRequest, reply: wantResult(rawInitID)},
	{name: "clientInfo.version missing", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c"}}`), kind: mcptest.KindRequest, reply: wantResult(rawInitID)},
	{name: "clientInfo.name a number", rule: "lifecycle/initialize-params", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":1,"version":"1"}}`), kind: mcptest.KindRequest, reply: wantResult(rawInitID)},

	// lifecycle/initialize-once: the second initialize is still answered.
	{name: "initialize after the handshake", rule: "lifecycle/initialize-once",
		frame: rawRequest(`"again"`, "initialize", initializeParams("2025-11-25")), kind: mcptest.KindRequest, reply: wantResult(`"again"`)},
	{name: "initialize before notifications/initialized", rule: "lifecycle/initialize-once", before: ruleInitializing,
		frame: rawRequest(`"again"`, "initialize", initializeParams("2025-06-18")), kind: mcptest.KindRequest, reply: wantResult(`"again"`)},

	// lifecycle/initialized-before-requests: requests are still answered.
	{name: "tools/list before notifications/initialized", rule: "lifecycle/initialized-before-requests", before: ruleInitializing,
		frame: `{"jsonrpc":"2.0","id":70,"method":"tools/list"}`, kind: mcptest.KindRequest, reply: wantResult("70")},
	{name: "resources/read before notifications/initialized", rule: "lifecycle/initialized-before-requests", before: ruleInitializing,
		frame: `{"jsonrpc":"2.0","id":71,"method":"resources/read","params":{"uri":"file:///notes.txt"}}`, kind: mcptest.KindRequest, reply: wantResult("71")},

	// lifecycle/initialize-not-batched: in a version with batches, the
	// batch is answered anyway.
	{name: "initialize in a batch", rule: "lifecycle/initialize-not-batched", before: ruleFresh,
		frame: "[" + rawRequest(rawInitID, "initialize", initializeParams("2025-03-26")) + "]", kind: mcptest.KindBatch,
		reply: wantBatchOf(wantResult(rawInitID))},

	// lifecycle/protocol-version-format: answered with the newest version.
	{name: "empty protocolVersion", rule: "lifecycle/protocol-version-format", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":"","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), kind: mcptest.KindRequest, reply: wantResult(rawInitID)},
	{name: "protocolVersion not a date", rule: "lifecycle/protocol-version-format", before: ruleFresh,
		frame: initRequest(`{"protocolVersion":"latest","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), kind: mcptest.KindRequest, reply: wantResult(rawInitID)},

	// lifecycle/unoffered-version-accepted (a warning): answered.
	{name: "requests after a version no handshake has", rule: "lifecycle/unoffered-version-accepted", severity: mcptest.SeverityWarning,
		server: func(t testing.TB) *mcptest.Server {
			return ruleServer(t).WithFaults(fault.RespondProtocolVersion("1999-01-01"))
		}, before: ruleFresh,
		makeFrame: func(t testing.TB, c *rawClient) string {
			if got := c.result(t, rawInitID, "initialize", initializeParams("2025-11-25")).Get("protocolVersion").String(); got != "1999-01-01" {
				t.Fatalf("want initialize answered with 1999-01-01, got %q", got)
			}
			c.notify("notifications/initialized", "")
			return rawRequest("1", "tools/list", "")
		},
		kind: mcptest.KindRequest, reply: wantResult("1")},

	// lifecycle/initialize-not-cancelled: no reply.
	{name: "cancel initialize after the handshake", rule: "lifecycle/initialize-not-cancelled",
		frame: rawNotification("notifications/cancelled", `{"requestId":"init","reason":"too slow"}`), kind: mcptest.KindNotification, reply: wantNoReply()},
	{name: "cancel initialize before notifications/initialized", rule: "lifecycle/initialize-not-cancelled", before: ruleInitializing,
		frame: rawNotification("notifications/cancelled", `{"requestId":"init"}`), kind: mcptest.KindNotification, reply: wantNoReply()},

	// capabilities/undeclared-method: the call is still answered.
	{name: "tools/list without tools", rule: "capabilities/undeclared-method", server: bareServer,
		frame: `{"jsonrpc":"2.0","id":80,"method":"tools/list"}`, kind: mcptest.KindRequest, reply: wantResult("80")},
	{name: "prompts/list without prompts", rule: "capabilities/undeclared-method", server: bareServer,
		frame: `{"jsonrpc":"2.0","id":81,"method":"prompts/list"}`, kind: mcptest.KindRequest, reply: wantResult("81")},
	{name: "resources/templates/list without resources", rule: "capabilities/undeclared-method", server: bareServer,
		frame: `{"jsonrpc":"2.0","id":82,"method":"resources/templates/list"}`, kind: mcptest.KindRequest, reply: wantResult("82")},
	{name: "logging/setLevel without logging", rule: "capabilities/undeclared-method", server: bareServer,
		frame: `{"jsonrpc":"2.0","id":83,"method":"logging/setLevel","params":{"level":"info"}}`, kind: mcptest.KindRequest, reply: wantResult("83")},
	{name: "completion/complete without completions", rule: "capabilities/undeclared-method", server: bareServer,
		frame: `{"jsonrpc":"2.0","id":84,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"a"}}}`,
		kind:  mcptest.KindRequest, reply: wantResult("84")},
	{name: "resources/subscribe without resources.subscribe", rule: "capabilities/undeclared-method",
		server: func(t testing.TB) *mcptest.Server {
			return mcptest.NewServer(t).
				WithResources(mcptest.NewResource("file:///notes.txt", "notes").ReturnsText("x")).
				WithCapabilities(`{"resources":{"listChanged":true}}`)
		},
		frame: `{"jsonrpc":"2.0","id":85,"method":"resources/subscribe","params":{"uri":"file:///notes.txt"}}`, kind: mcptest.KindRequest, reply: wantResult("85")},
	{name: "tools/call with tools declared false", rule: "capabilities/undeclared-method",
		server: func(t testing.TB) *mcptest.Server {
			return mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("x")).WithCapabilities(`{"tools":false}`)
		},
		frame: `{"jsonrpc":"2.0","id":86,"method":"tools/call","params":{"name":"echo"}}`, kind: mcptest.KindRequest, reply: wantResult("86")},

	// pagination/invalid-cursor: -32602.
	{name: "made-up cursor", rule: "pagination/invalid-cursor",
		frame: `{"jsonrpc":"2.0","id":90,"method":"tools/list","params":{"cursor":"page-2"}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "90")},
	{name: "cursor is a number", rule: "pagination/invalid-cursor",
		frame: `{"jsonrpc":"2.0","id":91,"method":"resources/list","params":{"cursor":2}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "91")},
	{name: "empty cursor", rule: "pagination/invalid-cursor",
		frame: `{"jsonrpc":"2.0","id":92,"method":"prompts/list","params":{"cursor":""}}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "92")},
	{name: "cursor of another list", rule: "pagination/invalid-cursor",
		makeFrame: func(t testing.TB, c *rawClient) string {
			cursor := c.result(t, "93", "tools/list", "").Get("nextCursor")
			if cursor.Type != gjson.String {
				t.Fatalf("want a nextCursor in the first page of tools/list, got %s", cursor.Raw)
			}
			return rawRequest("94", "prompts/list", `{"cursor":`+cursor.Raw+`}`)
		},
		kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "94")},

	// params/arguments-null (a warning): null is taken as no arguments.
	{name: "tools/call arguments null", rule: "params/arguments-null", severity: mcptest.SeverityWarning,
		frame: `{"jsonrpc":"2.0","id":100,"method":"tools/call","params":{"name":"echo","arguments":null}}`, kind: mcptest.KindRequest, reply: wantResult("100")},
	{name: "prompts/get arguments null", rule: "params/arguments-null", severity: mcptest.SeverityWarning,
		frame: `{"jsonrpc":"2.0","id":101,"method":"prompts/get","params":{"name":"plain","arguments":null}}`, kind: mcptest.KindRequest,
		reply: wantResult("101")},

	// stateless/meta-required: -32602.
	{name: "server/discover without _meta", rule: "stateless/meta-required", before: ruleFresh,
		frame: `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "1")},
	{name: "clientCapabilities missing", rule: "stateless/meta-required", before: ruleDiscovered,
		frame: rawRequest("2", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"rawclient","version":"1.0.0"}}}`),
		kind:  mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "2")},
	{name: "protocolVersion not a string", rule: "stateless/meta-required", before: ruleDiscovered,
		frame: rawRequest("3", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"rawclient","version":"1.0.0"}}}`),
		kind:  mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, "3")},

	// stateless/client-info (a warning): answered.
	{name: "no clientInfo", rule: "stateless/client-info", severity: mcptest.SeverityWarning, before: ruleFresh,
		frame: rawRequest("1", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`),
		kind:  mcptest.KindRequest, reply: wantResult("1")},

	// stateless/removed-method: -32601.
	{name: "ping with _meta", rule: "stateless/removed-method", before: ruleDiscovered,
		frame: rawRequest("1", "ping", modernParams("")), kind: mcptest.KindRequest, reply: wantError(spec.CodeMethodNotFound, "1")},
	{name: "ping in a stateless session", rule: "stateless/removed-method", before: ruleDiscovered,
		frame: rawRequest("2", "ping", ""), kind: mcptest.KindRequest, reply: wantError(spec.CodeMethodNotFound, "2")},
	{name: "logging/setLevel", rule: "stateless/removed-method", before: ruleDiscovered,
		frame: rawRequest("3", "logging/setLevel", modernParams(`"level":"info"`)), kind: mcptest.KindRequest, reply: wantError(spec.CodeMethodNotFound, "3")},
	{name: "resources/subscribe", rule: "stateless/removed-method", before: ruleDiscovered,
		frame: rawRequest("4", "resources/subscribe", modernParams(`"uri":"file:///notes.txt"`)), kind: mcptest.KindRequest, reply: wantError(spec.CodeMethodNotFound, "4")},

	// stateless/retry-supported-version: -32022 again.
	{name: "retry with another unsupported version", rule: "stateless/retry-supported-version", severity: mcptest.SeverityWarning, before: ruleDiscovered,
		makeFrame: func(t testing.TB, c *rawClient) string {
			meta := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"%s","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"rawclient","version":"1.0.0"}}}`
			first := c.call(t, "1", "tools/list", fmt.Sprintf(meta, "2030-01-01"))
			if first.Get("error.code").Int() != spec.CodeUnsupportedProtocolVersion || !strings.Contains(first.Get("error.data.supported").Raw, statelessVersion) {
				t.Fatalf("want -32022 listing the supported versions for 2030-01-01, got %s", first.Raw)
			}
			return rawRequest("2", "tools/list", fmt.Sprintf(meta, "2031-01-01"))
		},
		kind: mcptest.KindRequest, reply: wantError(spec.CodeUnsupportedProtocolVersion, "2")},

	// stateless/no-initialize-after-discover: refused with -32602.
	{name: "initialize after discover, modern-only server", rule: "stateless/no-initialize-after-discover", severity: mcptest.SeverityWarning, server: modernOnlyServer, before: ruleDiscovered,
		frame: rawRequest(rawInitID, "initialize", initializeParams("2025-11-25")), kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, rawInitID)},

	// stateless/discover-first (a warning): answered.
	{name: "tools/list before server/discover", rule: "stateless/discover-first", severity: mcptest.SeverityWarning, before: ruleFresh,
		frame: rawRequest("1", "tools/list", modernParams("")), kind: mcptest.KindRequest, reply: wantResult("1")},

	// mrtr/request-state-unchanged: a changed or invented requestState
	// fails verification and is rejected with -32602; a dropped one is
	// answered.
	{name: "requestState changed", rule: "mrtr/request-state-unchanged", server: mrtrServer, before: ruleDiscovered,
		makeFrame: func(t testing.TB, c *rawClient) string {
			state := bookFirstRound(t, c)
			return rawRequest(`"b2"`, "tools/call", modernParams(`"name":"book","arguments":{},"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},"requestState":`+strconv.Quote(state+"-edited")))
		},
		kind: mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, `"b2"`)},
	{name: "requestState dropped", rule: "mrtr/request-state-unchanged", server: mrtrServer, before: ruleDiscovered,
		makeFrame: func(t testing.TB, c *rawClient) string {
			bookFirstRound(t, c)
			return rawRequest(`"b2"`, "tools/call", modernParams(`"name":"book","arguments":{},"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}`))
		},
		kind: mcptest.KindRequest, reply: wantResult(`"b2"`)},
	{name: "requestState invented", rule: "mrtr/request-state-unchanged", server: mrtrServer, before: ruleDiscovered,
		frame: rawRequest(`"e1"`, "tools/call", modernParams(`"name":"echo","arguments":{},"requestState":"made-up"`)),
		kind:  mcptest.KindRequest, reply: wantError(spec.CodeInvalidParams, `"e1"`)},

	// mrtr/responses-complete: answered with input_required again.
	{name: "retry without the response", rule: "mrtr/responses-complete", server: mrtrServer, before: ruleDiscovered,
		makeFrame: func(t testing.TB, c *rawClient) string {
			state := bookFirstRound(t, c)
			return rawRequest(`"b2"`, "tools/call", modernParams(`"name":"book","arguments":{},"inputResponses":{},"requestState":`+strconv.Quote(state)))
		},
		kind: mcptest.KindRequest, reply: wantResult(`"b2"`)},

	// mrtr/new-id: the retry is still answered.
	{name: "retry reuses the id", rule: "mrtr/new-id", server: mrtrServer, before: ruleDiscovered,
		makeFrame: func(t testing.TB, c *rawClient) string {
			state := bookFirstRound(t, c)
			return rawRequest(`"b1"`, "tools/call", modernParams(`"name":"book","arguments":{},"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},"requestState":`+strconv.Quote(state)))
		},
		kind: mcptest.KindRequest, reply: wantResult(`"b1"`)},
}

// TestRuleCases runs a client that breaks exactly one rule with one frame,
// for every case of ruleCases, and checks the whole contract: the
// violation names the rule and carries the frame, the reply is the one the
// spec asks for, the frame is journaled, and the session keeps serving.
func TestRuleCases(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(string(tc.rule)+"/"+tc.name, func(t *testing.T) {
			newServer := tc.server
			if newServer == nil {
				newServer = ruleServer
			}
			srv := newServer(t).ExpectViolation(tc.rule)
			c := dialRaw(t, srv)
			before := tc.before
			if before == nil {
				before = ruleHandshaken
			}
			before(t, c)
			frame := tc.frame
			if tc.makeFrame != nil {
				frame = tc.makeFrame(t, c)
			}
			if vs := srv.Violations(); len(vs) > 0 {
				t.Fatalf("want no violation before the offending frame, got %v", vs)
			}
			c.send(frame)

			// (b) the reply the spec asks for, or none.
			switch {
			case tc.reply.batch:
				replies := c.recvBatch(t)
				if len(replies) != 1 {
					t.Fatalf("want a batch of one response, got %d", len(replies))
				}
				checkReply(t, replies[0], tc.reply)
			case tc.reply.kind != mcptest.KindInvalid:
				checkReply(t, c.recvJSON(t), tc.reply)
			}
			// (d) the session keeps serving; as the probe's answer is the
			// next line, the mock also sent nothing else.
			stillServing(t, srv, c)
			if sessionEnded(srv.Session(1)) {
				t.Errorf("want session 1 open after the offending frame, it is closed")
			}

			// (c) the frame is journaled as it was sent.
			var offending mcptest.Message
			for _, m := range srv.Journal().All() {
				if m.Direction == mcptest.FromClient && m.Raw() == frame {
					offending = m
				}
			}
			if offending.Seq == 0 {
				t.Fatalf("want the frame %s in the journal, got:\n%s", frame, srv.Transcript())
			}
			if offending.Kind != tc.kind {
				t.Errorf("want the frame journaled as %v, got %v (%s)", tc.kind, offending.Kind, offending)
			}
			if tc.kind == mcptest.KindInvalid && offending.Problem == "" {
				t.Errorf("want an invalid frame journaled with its Problem, got none: %s", offending)
			}
			if tc.reply.kind != mcptest.KindInvalid {
				checkReplyJournaled(t, srv, offending, tc.reply)
			}

			// (a) the violation names the rule and carries the frame, and
			// no other rule was broken.
			vs := srv.Violations()
			if len(vs) == 0 {
				t.Fatalf("want a %s violation, got none; journal:\n%s", tc.rule, srv.Transcript())
			}
			for _, v := range vs {
				if v.Rule != tc.rule {
					t.Errorf("want only %s violations, got %s", tc.rule, v)
					continue
				}
				checkViolation(t, v, offending)
				if v.Severity != tc.severity {
					t.Errorf("want severity %v, got %v", tc.severity, v.Severity)
				}
			}
		})
	}
}

// stillServing checks that session 1 answers a request, asked the way its
// era asks: ping in the handshake era, server/discover in the stateless era.
func stillServing(t *testing.T, srv *mcptest.Server, c *rawClient) {
	t.Helper()
	if srv.Session(1).Era() == mcptest.EraStateless {
		c.discover(t, `"still-serving"`)
		return
	}
	c.ping(t, `"still-serving"`)
}

// checkReply checks the mock's answer to the offending frame.
func checkReply(t *testing.T, reply gjson.Result, want wantReply) {
	t.Helper()
	if got := reply.Get("id").Raw; got != want.id {
		t.Errorf("want a reply with id %s, got %s", want.id, reply.Raw)
	}
	switch want.kind {
	case mcptest.KindError:
		if got := reply.Get("error.code").Int(); got != int64(want.code) {
			t.Errorf("want error code %d, got %s", want.code, reply.Raw)
		}
		if reply.Get("error.message").String() == "" {
			t.Errorf("want an error message, got %s", reply.Raw)
		}
		if reply.Get("result").Exists() {
			t.Errorf("want no result beside the error, got %s", reply.Raw)
		}
	case mcptest.KindResult:
		if !reply.Get("result").IsObject() || reply.Get("error").Exists() {
			t.Errorf("want a result object and no error, got %s", reply.Raw)
		}
	}
}

// checkReplyJournaled checks that the reply to offending is journaled after it.
func checkReplyJournaled(t *testing.T, srv *mcptest.Server, offending mcptest.Message, want wantReply) {
	t.Helper()
	for _, m := range srv.Journal().All() {
		if m.Seq > offending.Seq && m.Direction == mcptest.FromServer && m.ID == want.id && m.Kind == want.kind {
			if want.kind == mcptest.KindError && m.ErrorCode != want.code {
				t.Errorf("want the reply journaled with ErrorCode %d, got %s", want.code, m)
			}
			if offending.Kind == mcptest.KindRequest && m.Method != offending.Method {
				t.Errorf("want the reply journaled with the request's method %q, got %s", offending.Method, m)
			}
			return
		}
	}
	t.Errorf("want the reply (%v, id %s) journaled after #%d, got:\n%s", want.kind, want.id, offending.Seq, srv.Transcript())
}

var specVersion = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// checkViolation checks the fields of a violation caused by offending.
func checkViolation(t *testing.T, v mcptest.Violation, offending mcptest.Message) {
	t.Helper()
	if v.Message.Raw() != offending.Raw() || v.Message.Seq != offending.Seq {
		t.Errorf("want the violation to carry the offending frame #%d %s, got #%d %s", offending.Seq, offending.Raw(), v.Message.Seq, v.Message.Raw())
	}
	if v.Message.Direction != mcptest.FromClient {
		t.Errorf("want the offending message from the client, got %v", v.Message.Direction)
	}
	if v.Detail == "" || v.Section == "" {
		t.Errorf("want a Detail and a spec Section, got %+v", v)
	}
	if !specVersion.MatchString(v.Spec) {
		t.Errorf("want Spec to be a protocol version (YYYY-MM-DD), got %q", v.Spec)
	}
	if r, ok := mcptest.LookupRule(v.Rule); !ok || v.URL() != r.Spec || !strings.HasPrefix(v.URL(), "https://") || strings.Contains(v.URL(), " ") {
		t.Errorf("want URL() to be the rule's Spec, an address without spaces, got %q (rule %+v)", v.URL(), r)
	}
	if r, _ := mcptest.LookupRule(v.Rule); !slices.Contains(r.Versions, v.Spec) {
		t.Errorf("want Spec to be one of the rule's versions %v, got %q", r.Versions, v.Spec)
	}
	if s := v.String(); !strings.Contains(s, string(v.Rule)) || !strings.Contains(s, v.Detail) {
		t.Errorf("want String() to name the rule and the detail, got %q", s)
	}
}

// TestEveryRuleHasACase fails when a rule is added without a client that
// breaks it (wrongClients: the pipe, stateless and HTTP cases; package
// oauth checks the authorization rules), or a case names a rule that does
// not exist.
func TestEveryRuleHasACase(t *testing.T) {
	covered := map[mcptest.RuleID]int{}
	for r, tests := range wrongClients() {
		covered[r] = len(tests)
	}
	var rules []mcptest.RuleID
	for _, r := range mcptest.Rules() {
		rules = append(rules, r.ID)
	}
	if len(rules) == 0 {
		t.Fatal("want Rules() to list the rules, got none")
	}
	if !slices.IsSorted(rules) {
		t.Errorf("want Rules() sorted, got %v", rules)
	}
	for _, r := range rules {
		if covered[r] == 0 && !strings.HasPrefix(string(r), "auth/") { // oauth's TestEveryAuthRuleHasACase checks those
			t.Errorf("rule %s has no wrong client: add a client that breaks it to ruleCases (pipe), slCases (stateless era) or httpRuleCases (HTTP); an auth/ rule to package oauth's authRuleCases", r)
		}
	}
	for r := range covered {
		if !slices.Contains(rules, r) {
			t.Errorf("a case names %q, which Rules() does not list", r)
		}
	}
	names := map[string]bool{}
	for _, tc := range ruleCases {
		key := string(tc.rule) + "/" + tc.name
		if names[key] {
			t.Errorf("two cases are named %s", key)
		}
		names[key] = true
	}
}

// TestCorrectRawSession runs a client that does everything by the book, in
// each handshake version, and checks that no rule fires.
func TestCorrectRawSession(t *testing.T) {
	for _, version := range mcptest.HandshakeVersions() {
		t.Run(version, func(t *testing.T) {
			srv := ruleServer(t)
			c := dialRaw(t, srv)

			// A client pinned to a handshake version does not probe; a ping
			// may come before initialize.
			c.ping(t, "1")
			c.ping(t, "2")
			initRes := c.handshake(t, version)
			caps := []string{"tools", "resources", "prompts", "logging", "completions"}
			if version == "2024-11-05" {
				caps = caps[:4] // the completions capability came with 2025-03-26
				if initRes.Get("capabilities.completions").Exists() {
					t.Errorf("initialize 2024-11-05: want no completions capability (it does not exist in that version), got %s", initRes.Get("capabilities").Raw)
				}
			}
			for _, capName := range caps {
				if !initRes.Get("capabilities." + capName).Exists() {
					t.Errorf("initialize: want the %s capability declared, got %s", capName, initRes.Get("capabilities").Raw)
				}
			}

			page1 := c.result(t, "3", "tools/list", "")
			if page1.Get("tools.#").Int() != 1 || page1.Get("nextCursor").Type != gjson.String {
				t.Fatalf("tools/list: want one tool and a nextCursor (page size 1), got %s", page1.Raw)
			}
			page2 := c.result(t, "4", "tools/list", `{"cursor":`+page1.Get("nextCursor").Raw+`}`)
			if page2.Get("tools.0.name").String() != "add" || page2.Get("nextCursor").Exists() {
				t.Errorf("tools/list page 2: want tool add and no nextCursor, got %s", page2.Raw)
			}
			call := c.result(t, "5", "tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{"progressToken":"p1"}}`)
			if call.Get("content.0.text").String() != "echoed" {
				t.Errorf("tools/call: want text echoed, got %s", call.Raw)
			}
			c.ping(t, `"six"`)
			c.result(t, "7", "resources/list", "")
			c.result(t, "8", "resources/templates/list", "")
			read := c.result(t, "9", "resources/read", `{"uri":"file:///notes.txt"}`)
			if read.Get("contents.0.text").String() != "remember the milk" {
				t.Errorf("resources/read: want the notes, got %s", read.Raw)
			}
			c.result(t, "10", "resources/read", `{"uri":"file:///users/42"}`)
			c.result(t, "11", "resources/subscribe", `{"uri":"file:///notes.txt"}`)
			c.result(t, "12", "resources/unsubscribe", `{"uri":"file:///notes.txt"}`)
			c.result(t, "13", "prompts/list", "")
			prompt := c.result(t, "14", "prompts/get", `{"name":"greet","arguments":{"name":"Ada"}}`)
			if prompt.Get("messages.0.content.text").String() != "Hello!" {
				t.Errorf("prompts/get: want Hello!, got %s", prompt.Raw)
			}
			c.result(t, "15", "logging/setLevel", `{"level":"warning"}`)
			comp := c.result(t, "16", "completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"a"}}`)
			if got := comp.Get("completion.values").Raw; got != `["alice"]` {
				t.Errorf("completion/complete: want [\"alice\"], got %s", got)
			}
			// Notifications a client may send at any time after the handshake.
			c.notify("notifications/roots/list_changed", "")
			c.notify("notifications/cancelled", `{"requestId":16,"reason":"already answered: ignored"}`)
			c.notify("notifications/progress", `{"progressToken":"p1","progress":1}`)
			// Ids of different JSON types are different ids.
			c.ping(t, `"2"`)
			// The client answers a request of the server.
			answerServerPing(t, srv, c)
			c.ping(t, "17")

			if got := srv.Session(1).LogLevel(); got != "warning" {
				t.Errorf("want log level warning kept for the session, got %q", got)
			}
			if vs := srv.Violations(); len(vs) != 0 {
				t.Errorf("want no violation from a correct client, got:\n%v", vs)
			}
			srv.AssertNoViolations(t)
			srv.AssertHandshakeCompleted(t)
			srv.AssertNegotiatedVersion(t, version)
		})
	}
}

// TestCorrectStatelessSession runs a client that does everything by the
// book in the stateless era, including a multi-round-trip tools/call, and
// checks that no rule fires.
func TestCorrectStatelessSession(t *testing.T) {
	srv := ruleServer(t).WithTools(mcptest.NewTool("book").
		RequiresInput(mcptest.ElicitInput("confirm", "Book it?", `{"type":"object"}`)).
		ReturnsText("booked"))
	c := dialRaw(t, srv)
	disc := c.discover(t, "1")
	if !disc.Get("capabilities.tools").Exists() {
		t.Errorf("server/discover: want the tools capability, got %s", disc.Raw)
	}
	page1 := c.result(t, "2", "tools/list", modernParams(""))
	if page1.Get("resultType").String() != "complete" || page1.Get("nextCursor").Type != gjson.String {
		t.Fatalf("tools/list: want a complete first page with a nextCursor, got %s", page1.Raw)
	}
	c.result(t, "3", "tools/list", modernParams(`"cursor":`+page1.Get("nextCursor").Raw))
	if got := c.result(t, "4", "tools/call", modernParams(`"name":"echo","arguments":{"text":"hi"}`)).Get("content.0.text").String(); got != "echoed" {
		t.Errorf("tools/call: want echoed, got %q", got)
	}
	if got := c.result(t, "5", "resources/read", modernParams(`"uri":"file:///notes.txt"`)).Get("contents.0.text").String(); got != "remember the milk" {
		t.Errorf("resources/read: want the notes, got %q", got)
	}
	c.result(t, "6", "prompts/get", modernParams(`"name":"greet","arguments":{"name":"Ada"}`))
	c.result(t, "7", "completion/complete", modernParams(`"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"b"}`))
	// The multi-round-trip pattern: input_required, then a retry with a new
	// id, the requestState echoed and every input answered.
	round := c.result(t, "8", "tools/call", modernParams(`"name":"book","arguments":{}`))
	state := round.Get("requestState")
	if round.Get("resultType").String() != "input_required" || state.Type != gjson.String {
		t.Fatalf("tools/call book: want input_required with a requestState, got %s", round.Raw)
	}
	done := c.result(t, "9", "tools/call", modernParams(`"name":"book","arguments":{},"inputResponses":{"confirm":{"action":"accept","content":{}}},"requestState":`+state.Raw))
	if done.Get("content.0.text").String() != "booked" {
		t.Errorf("tools/call book retry: want booked, got %s", done.Raw)
	}
	if srv.Session(1).Era() != mcptest.EraStateless {
		t.Errorf("want session 1 in the stateless era, got %q", srv.Session(1).Era())
	}
	if vs := srv.Violations(); len(vs) != 0 {
		t.Errorf("want no violation from a correct stateless client, got:\n%v", vs)
	}
}

// answerServerPing has the server ping the client and the client answer it.
func answerServerPing(t *testing.T, srv *mcptest.Server, c *rawClient) {
	t.Helper()
	type answer struct {
		m   mcptest.Message
		err error
	}
	got := make(chan answer, 1)
	ctx, cancel := context.WithTimeout(context.Background(), rawReadTimeout)
	defer cancel()
	go func() {
		m, err := srv.SendRequest(ctx, "ping", nil)
		got <- answer{m, err}
	}()
	req := c.recvJSON(t)
	if req.Get("method").String() != "ping" || !req.Get("id").Exists() {
		t.Fatalf("want a ping request from the server, got %s", req.Raw)
	}
	c.send(`{"jsonrpc":"2.0","id":` + req.Get("id").Raw + `,"result":{}}`)
	a := <-got
	if a.err != nil || a.m.Kind != mcptest.KindResult || a.m.Method != "ping" {
		t.Fatalf("Server.SendRequest: want the client's ping result journaled with Method ping, got %v, %v", a.m, a.err)
	}
}

// TestAnswerTwice: a second answer to the same server request is a
// response to no pending request.
func TestAnswerTwice(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("jsonrpc/unexpected-response")
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	answerServerPing(t, srv, c)
	again := `{"jsonrpc":"2.0","id":1,"result":{}}`
	c.send(again)
	c.ping(t, "2")
	vs := srv.Violations()
	if len(vs) != 1 || vs[0].Rule != "jsonrpc/unexpected-response" || vs[0].Message.Raw() != again {
		t.Fatalf("want one %s violation for %s, got %v", "jsonrpc/unexpected-response", again, vs)
	}
}

// TestLateAnswerToCancelledRequest: the server gives up on its request and
// sends notifications/cancelled, but the client's answer was already on the
// wire. The spec says the sender of the cancellation ignores such an
// answer; it is not the client's fault.
func TestLateAnswerToCancelledRequest(t *testing.T) {
	srv := ruleServer(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := srv.SendRequest(ctx, "roots/list", nil)
		done <- err
	}()
	req := c.recvJSON(t)
	cancel()
	if err := <-done; err == nil {
		t.Fatalf("Server.SendRequest: want the context's error once cancelled, got nil")
	}
	// The client answers without having read the cancellation yet.
	c.send(`{"jsonrpc":"2.0","id":` + req.Get("id").Raw + `,"result":{"roots":[]}}`)
	if got := c.recvJSON(t).Get("method").String(); got != "notifications/cancelled" {
		t.Fatalf("want notifications/cancelled from the server, got %s", got)
	}
	c.ping(t, "1")
	if vs := srv.Violations(); len(vs) != 0 {
		t.Errorf("want no violation for an answer that crossed the cancellation, got %v", vs)
	}
}

// TestHandleInitializeKeepsLifecycle: a test that takes over initialize
// with Handle still gets a session that leaves the handshake phase.
func TestHandleInitializeKeepsLifecycle(t *testing.T) {
	srv := ruleServer(t).Handle("initialize", func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
		return mcptest.Result(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"custom","version":"1"}}`)
	})
	c := dialRaw(t, srv)
	c.handshake(t, "2025-06-18")
	c.result(t, "1", "tools/list", "")
	if vs := srv.Violations(); len(vs) != 0 {
		t.Errorf("want no violation for a correct client of a custom initialize, got %v", vs)
	}
}

// TestMissingRequiredPromptArgument: prompts/get without a required
// argument is answered -32602, and like every other -32602 it is a
// jsonrpc/invalid-params violation.
func TestMissingRequiredPromptArgument(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("jsonrpc/invalid-params")
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	reply := c.call(t, "1", "prompts/get", `{"name":"greet","arguments":{}}`)
	if reply.Get("error.code").Int() != spec.CodeInvalidParams {
		t.Errorf("want -32602, got %s", reply.Raw)
	}
}

// TestNotificationParamsNotAnObject: MCP params are objects, in
// notifications as in requests.
func TestNotificationParamsNotAnObject(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("jsonrpc/invalid-params")
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.notify("notifications/progress", `["t",1]`)
	c.ping(t, "1")
}

// TestCloseCutsAFrame: when the server closes while a frame is half read,
// the half is not the client's mistake.
func TestCloseCutsAFrame(t *testing.T) {
	fake := faketb.New(t)
	srv := ruleServer(fake)
	c := dialRaw(t, srv)
	// One write: a whole ping, then the start of a second request; the
	// mock reads both at once, answers the ping, and waits for the rest.
	if err := c.w.Write(rawRequest("1", "ping", "") + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/li`); err != nil {
		t.Fatal(err)
	}
	c.recvJSON(t)
	srv.Close()
	fake.Finish()
	if vs := srv.Violations(); len(vs) != 0 || fake.Failed() {
		t.Fatalf("want no violation for a frame the server's Close cut, got %v; %s", vs, fake.Report())
	}
}

// TestBadInputNeverCrashes throws frames no client should send at the mock,
// each followed by a ping: every ping is answered, nothing but error
// replies comes before it, and the session stays open.
func TestBadInputNeverCrashes(t *testing.T) {
	srv := ruleServer(t).IgnoreViolations()
	c := dialRaw(t, srv)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	frames := []string{
		"\x00\x01\x02",
		"\xff\xfe{}",
		`{"jsonrpc":"2.0","id":1,"method":"\xff"}`,
		deep,
		strings.Repeat("{", 100000),
		`{"jsonrpc":"2.0","id":1e999,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":` + deep + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":["x"],"capabilities":1,"clientInfo":"me"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":{"page":2}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"completion/complete","params":{"ref":{"type":"ref/resource"},"argument":{"name":"id"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":null}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":[1]}}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":"x"}}`,
		`{"jsonrpc":"2.0","id":8,"error":null}`,
		`{"jsonrpc":"2.0","id":9,"result":null}`,
		`{"jsonrpc":"2.0","id":10,"method":"","params":{}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"}\r",
		"\r",
		`{"jsonrpc":"2.0","id":"` + strings.Repeat("x", 1<<20) + `","method":"ping"}`,
	}
	for i, f := range frames {
		c.send(f)
		pingID := fmt.Sprintf(`"ping-%d"`, i)
		c.send(rawRequest(pingID, "ping", ""))
		for {
			reply := c.recvJSON(t)
			if reply.Get("id").Raw == pingID {
				if reply.Get("result").Raw != "{}" {
					t.Errorf("frame %d: want ping answered with {}, got %s", i, shortLine(reply.Raw))
				}
				break
			}
			if reply.Get("method").Exists() {
				t.Errorf("frame %d: want only replies from the mock, got %s", i, shortLine(reply.Raw))
			}
		}
	}
	if sessionEnded(srv.Session(1)) {
		t.Fatalf("want the session open after bad input, it is closed")
	}
	if len(srv.Violations()) == 0 {
		t.Errorf("want violations recorded for bad input, got none")
	}
}

func shortLine(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// mockMaxFrame is the longest line the mock reads (session.go).
const mockMaxFrame = 64 << 20

// TestOversizedFrame: a frame longer than the mock reads is discarded,
// journaled as invalid without its bytes, answered -32600 with id null,
// and the session keeps serving.
func TestOversizedFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB frame")
	}
	srv := ruleServer(t).ExpectViolation("jsonrpc/invalid-request")
	c := dialRaw(t, srv)
	c.timeout = time.Minute // the race detector makes reading 64 MiB slow
	c.handshake(t, "2025-11-25")
	c.send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"blob":"` + strings.Repeat("a", mockMaxFrame+128<<10) + `"}}`)
	checkReply(t, c.recvJSON(t), wantError(spec.CodeInvalidRequest, "null"))
	c.ping(t, "2")
	inv := srv.Journal().All().Invalid()
	if len(inv) != 1 || !strings.Contains(inv[0].Problem, "longer than") || inv[0].Raw() != "" {
		t.Fatalf("want one invalid message for the long frame, with a Problem and no bytes kept, got %v", inv)
	}
	vs := srv.Violations()
	if len(vs) != 1 || vs[0].Rule != "jsonrpc/invalid-request" || vs[0].Message.Seq != inv[0].Seq {
		t.Fatalf("want one %s violation for the long frame, got %v", "jsonrpc/invalid-request", vs)
	}
}

// TestFrameJustOverTheLimit: a frame a few bytes longer than the limit is
// refused like any longer one.
func TestFrameJustOverTheLimit(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("jsonrpc/invalid-request")
	c := dialRaw(t, srv)
	c.timeout = time.Minute
	prefix, suffix := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"blob":"`, `"}}`
	c.send(prefix + strings.Repeat("a", mockMaxFrame-len(prefix)-len(suffix)+100) + suffix)
	checkReply(t, c.recvJSON(t), wantError(spec.CodeInvalidRequest, "null"))
}

// mockMaxDepth is how deeply the mock lets a frame nest (wire.go).
const mockMaxDepth = 1000

// TestDeepFrames: nesting past the mock's limit is refused without
// parsing — 6 MiB of "[" once killed the test binary with a stack overflow
// no recover can catch — journaled byte for byte, answered -32600 naming
// the limit, and the session keeps serving; a request nested exactly to
// the limit is served.
func TestDeepFrames(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("jsonrpc/invalid-request")
	c := dialRaw(t, srv)
	c.timeout = time.Minute // the race detector makes reading 6 MiB slow
	c.handshake(t, "2025-11-25")
	nested := func(levels int) string { // a tools/call whose arguments nest to levels in all
		return rawRequest("7", "tools/call", `{"name":"echo","arguments":`+strings.Repeat(`{"a":`, levels-2)+"1"+strings.Repeat("}", levels-2)+"}")
	}
	deep := []string{
		strings.Repeat("[", 6<<20),
		strings.Repeat("[", mockMaxDepth+1) + strings.Repeat("]", mockMaxDepth+1),
		nested(mockMaxDepth + 1),
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"` + strings.Repeat("[", 5000) + `"},"x":` + strings.Repeat("[", mockMaxDepth) + strings.Repeat("]", mockMaxDepth) + `}`,
	}
	for i, frame := range deep {
		c.send(frame)
		reply := c.recvJSON(t)
		checkReply(t, reply, wantError(spec.CodeInvalidRequest, "null"))
		if msg := reply.Get("error.message").String(); !strings.Contains(msg, "deeper than 1000 levels") {
			t.Errorf("frame %d: want the error to name the limit, got %q", i, msg)
		}
		c.ping(t, strconv.Itoa(100+i))
	}
	// Brackets inside strings do not count, and the limit itself is fine.
	c.send(`{"jsonrpc":"2.0","id":8,"method":"ping","params":{"s":"` + strings.Repeat("[", 5000) + `"}}`)
	checkReply(t, c.recvJSON(t), wantResult("8"))
	c.send(nested(mockMaxDepth))
	checkReply(t, c.recvJSON(t), wantResult("7"))

	inv := srv.Journal().All().Invalid()
	if len(inv) != len(deep) {
		t.Fatalf("want %d invalid frames, got %d: %v", len(deep), len(inv), inv)
	}
	for i, m := range inv {
		if m.Raw() != deep[i] || !strings.Contains(m.Problem, "deeper than 1000 levels") {
			t.Errorf("frame %d: want it journaled as sent with a Problem naming the limit, got %d bytes, %q", i, len(m.Raw()), m.Problem)
		}
	}
	if vs := srv.Violations(); len(vs) != len(deep) {
		t.Errorf("want one %s violation per deep frame, got %v", "jsonrpc/invalid-request", vs)
	}
}

// TestBlankLinesAreIgnored: empty and whitespace-only lines between frames
// are not messages; CRLF framing is accepted.
func TestBlankLinesAreIgnored(t *testing.T) {
	srv := ruleServer(t)
	c := dialRaw(t, srv)
	c.send("")
	c.send("   \t")
	c.handshake(t, "2025-11-25")
	c.send(rawRequest("1", "ping", "") + "\r")
	if got := c.recvJSON(t).Get("id").Raw; got != "1" {
		t.Fatalf("want the CRLF-framed ping answered, got id %s", got)
	}
	for _, m := range srv.Journal().All() {
		if strings.TrimSpace(m.Raw()) == "" || strings.HasSuffix(m.Raw(), "\r") {
			t.Errorf("want no blank frame and no trailing CR in the journal, got %q (%s)", m.Raw(), m)
		}
	}
	srv.AssertNoViolations(t)
}

// TestViolationsOfEverySession: violations carry their session; a client
// that misbehaves on one connection does not taint another.
func TestViolationsOfEverySession(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("lifecycle/initialize-first")
	good, bad := dialRaw(t, srv), dialRaw(t, srv)
	good.handshake(t, "2025-11-25")
	bad.result(t, "1", "tools/list", "")
	good.result(t, "1", "tools/list", "")
	vs := srv.Violations()
	if len(vs) != 1 || vs[0].Message.SessionNumber != 2 {
		t.Fatalf("want one violation, of session 2, got %v", vs)
	}
	if got := srv.Session(1).ProtocolVersion(); got != "2025-11-25" {
		t.Errorf("want session 1 at 2025-11-25, got %q", got)
	}
	if got := srv.Session(2).ProtocolVersion(); got != "" {
		t.Errorf("want session 2 without a version, got %q", got)
	}
}

// The verdict at the end of a test, seen through a fake TB.

// brokenRuleClient breaks lifecycle/initialize-first once on srv.
func brokenRuleClient(t *testing.T, srv *mcptest.Server) string {
	c := dialRaw(t, srv)
	frame := rawRequest("1", "tools/list", "")
	c.send(frame)
	c.recvJSON(t)
	return frame
}

func TestUnexpectedViolationFailsAtCleanup(t *testing.T) {
	t.Setenv("MCPTEST_TRANSCRIPT", "")
	fake := faketb.New(t)
	srv := ruleServer(fake)
	frame := brokenRuleClient(t, srv)
	if fake.Failed() {
		t.Fatalf("want the verdict at cleanup, not before; got %s", fake.Report())
	}
	fake.Finish()
	errs := fake.Errors()
	if len(errs) != 1 {
		t.Fatalf("want one error at cleanup, got %s", fake.Report())
	}
	for _, want := range []string{"lifecycle/initialize-first", frame, "ExpectViolation", "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle"} {
		if !strings.Contains(errs[0], want) {
			t.Errorf("want the failure to name %q, got:\n%s", want, errs[0])
		}
	}
	// (h) the transcript is logged because the test failed.
	if logs := fake.LogOutput(); !strings.Contains(logs, "mcptest transcript:") || !strings.Contains(logs, frame) {
		t.Errorf("want the transcript with the offending frame logged when the test failed, got logs:\n%s", logs)
	}
}

func TestUnmetExpectationFailsAtCleanup(t *testing.T) {
	fake := faketb.New(t)
	srv := ruleServer(fake).ExpectViolation("jsonrpc/id-unique", "jsonrpc/id-unique")
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.ping(t, "1")
	fake.Finish()
	errs := fake.Errors()
	if len(errs) != 1 || !strings.Contains(errs[0], `ExpectViolation("jsonrpc/id-unique")`) || !strings.Contains(errs[0], "never broke it") {
		t.Fatalf(`want one failure naming ExpectViolation("jsonrpc/id-unique") as never broken, got %s`, fake.Report())
	}
}

func TestExpectedViolationPasses(t *testing.T) {
	t.Setenv("MCPTEST_TRANSCRIPT", "")
	fake := faketb.New(t)
	srv := ruleServer(fake).ExpectViolation("lifecycle/initialize-first")
	brokenRuleClient(t, srv)
	fake.Finish()
	if fake.Failed() {
		t.Fatalf("want an expected violation to pass, got %s", fake.Report())
	}
	if strings.Contains(fake.LogOutput(), "mcptest transcript:") {
		t.Errorf("want no transcript logged for a passing test, got:\n%s", fake.LogOutput())
	}
}

func TestWarningDoesNotFail(t *testing.T) {
	fake := faketb.New(t)
	srv := ruleServer(fake)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.result(t, "1", "tools/call", `{"name":"echo","arguments":null}`)
	fake.Finish()
	if fake.Failed() {
		t.Fatalf("want a warning reported but not failing the test, got %s", fake.Report())
	}
	if vs := srv.Violations(); len(vs) != 1 || vs[0].Severity != mcptest.SeverityWarning || vs[0].Severity.String() != "warning" {
		t.Errorf("want one warning recorded, got %v", vs)
	}
}

func TestIgnoreViolations(t *testing.T) {
	fake := faketb.New(t)
	srv := ruleServer(fake).IgnoreViolations().ExpectViolation("jsonrpc/id-unique")
	brokenRuleClient(t, srv)
	fake.Finish()
	if fake.Failed() {
		t.Fatalf("want IgnoreViolations to keep the test passing, got %s", fake.Report())
	}
	if vs := srv.Violations(); len(vs) != 1 || vs[0].Rule != "lifecycle/initialize-first" {
		t.Errorf("want the violation still recorded under IgnoreViolations, got %v", vs)
	}
}

func TestAssertNoViolationsFails(t *testing.T) {
	fake := faketb.New(t)
	srv := ruleServer(fake).IgnoreViolations()
	frame := brokenRuleClient(t, srv)
	if srv.AssertNoViolations(fake) {
		t.Errorf("AssertNoViolations: want false after a violation")
	}
	if errs := fake.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "lifecycle/initialize-first") || !strings.Contains(errs[0], frame) {
		t.Errorf("want AssertNoViolations to name the rule and the frame, got %s", fake.Report())
	}
	fake.Finish()
}

func TestTranscriptOnRequest(t *testing.T) {
	t.Setenv("MCPTEST_TRANSCRIPT", "1")
	fake := faketb.New(t)
	srv := ruleServer(fake)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	fake.Finish()
	if fake.Failed() || !strings.Contains(fake.LogOutput(), "mcptest transcript:") || !strings.Contains(fake.LogOutput(), `"method":"initialize"`) {
		t.Fatalf("want a passing test to log its transcript when MCPTEST_TRANSCRIPT is set, got %s", fake.Report())
	}
}

// TestViolationsAreACopy: changing what Violations returns changes nothing.
func TestViolationsAreACopy(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("lifecycle/initialize-first")
	brokenRuleClient(t, srv)
	vs := srv.Violations()
	vs[0].Rule = "changed"
	_ = append(vs, mcptest.Violation{Rule: "added"})
	if got := srv.Violations(); len(got) != 1 || got[0].Rule != "lifecycle/initialize-first" {
		t.Fatalf("want Violations() to return a copy, got %v", got)
	}
}

// waitClosed waits for a session to end, failing after rawReadTimeout.
func waitClosed(t *testing.T, s *mcptest.Session) {
	t.Helper()
	select {
	case <-s.Done():
	case <-time.After(rawReadTimeout):
		t.Fatalf("want session %d ended within %v", s.Number(), rawReadTimeout)
	}
}

// TestClientCloseEndsSession: closing the client's end ends the session
// without any violation.
func TestClientCloseEndsSession(t *testing.T) {
	srv := ruleServer(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.send(rawRequest("1", "ping", "")) // unread answer: closing must not block on it
	c.close()
	waitClosed(t, srv.Session(1))
	srv.AssertNoViolations(t)
}

// TestServerRequestUnanswered: a request of the server the client never
// answers is a violation, carrying the server's request: when the
// deadline of Session.SendRequest passes, and when the session ends first
// (here the client leaves). A request the test gives up on by cancelling
// is not the client's fault.
func TestServerRequestUnanswered(t *testing.T) {
	srv := ruleServer(t).ExpectViolation("jsonrpc/server-request-unanswered")
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	sess := srv.Session(1)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond) // never answered: no race
	defer cancel()
	if _, err := sess.SendRequest(ctx, "ping", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the unanswered ping to end at its deadline, got %v", err)
	}
	gone, stop := context.WithCancel(context.Background())
	stop()
	if _, err := sess.SendRequest(gone, "ping", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("want the cancelled ping to end, got %v", err)
	}
	asked := make(chan error, 1)
	go func() {
		_, err := sess.SendRequest(context.Background(), "roots/list", nil)
		asked <- err
	}()
	srv.WaitFor(t, mcptest.ServerSent("roots/list"))
	c.close()
	if err := await(t, asked, "roots/list to end with the session"); !errors.Is(err, mcptest.ErrSessionClosed) {
		t.Fatalf("want ErrSessionClosed, got %v", err)
	}
	<-sess.Done()

	var got []string
	for _, v := range srv.Violations() {
		if v.Rule != "jsonrpc/server-request-unanswered" || v.Message.Direction != mcptest.FromServer || v.Message.Kind != mcptest.KindRequest {
			t.Errorf("want violations carrying the server's request, got %s", v)
		}
		got = append(got, v.Message.Method+": "+v.Detail)
	}
	if len(got) != 2 || !strings.Contains(got[0], "ping") || !strings.Contains(got[0], "deadline") ||
		!strings.Contains(got[1], "roots/list") || !strings.Contains(got[1], "session ended") {
		t.Errorf("want the ping (deadline) and roots/list (session ended) reported, got %q", got)
	}
}

// TestGivingUpOnAStringID: with StringRequestIDs the mock's request went
// out as "mcptest-1"; giving up on it cancels that id and reports it once,
// not the number it had before the fault.
func TestGivingUpOnAStringID(t *testing.T) {
	srv := ruleServer(t).WithFaults(fault.StringRequestIDs()).ExpectViolation("jsonrpc/server-request-unanswered")
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond) // never answered: no race
	defer cancel()
	if _, err := srv.Session(1).SendRequest(ctx, "ping", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the ping to end at its deadline, got %v", err)
	}
	if got := c.recvJSON(t).Get("id").Raw; got != `"mcptest-1"` {
		t.Fatalf("want the ping sent with id \"mcptest-1\", got %s", got)
	}
	if got := c.recvJSON(t); got.Get("method").String() != "notifications/cancelled" || got.Get("params.requestId").Raw != `"mcptest-1"` {
		t.Fatalf("want notifications/cancelled naming \"mcptest-1\", got %s", got.Raw)
	}
	c.close()
	<-srv.Session(1).Done()
	vs := srv.Violations()
	if len(vs) != 1 || vs[0].Message.ID != `"mcptest-1"` {
		t.Errorf("want one violation, for the request as sent, got %v", vs)
	}
}
