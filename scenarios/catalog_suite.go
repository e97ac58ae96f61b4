package scenarios

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/tidwall/gjson"
)

// This file holds the client scenarios of the official conformance suite
// (@modelcontextprotocol/conformance, pinned in
// testdata/official-suite.txt) that are not authorization ones, under the
// suite's names: each serves what the suite's scenario server serves (its
// tools, by the suite's names, beside the app's own), and judges what the
// spec asks of the client, phrased over whatever the client does, so that
// an app that lists the tools and calls its own tool is judged too.
// docs/conformance.md says where the catalog's check differs from the
// suite's, and why.

// Suite returns the suite's non-authorization client scenarios, under
// their official names.
func Suite() []Scenario {
	return withBases([]Scenario{
		suiteInitialize(),
		suiteToolsCall(),
		suiteElicitationDefaults(),
		suiteSSERetry(),
		suiteRequestMetadata(),
		suiteRequestState(),
		suiteStandardHeaders(),
		suiteCustomHeaders(),
		suiteInvalidToolHeaders(),
		suiteRefNoDeref(),
		suiteSchemaPreservation(),
	})
}

// ---- initialize, tools_call ----

func suiteInitialize() Scenario {
	return Scenario{
		Name: "initialize",
		Mistake: "The official suite's initialize: the server makes no mistake; it speaks only the handshake era (2025-06-18 and 2025-11-25 in the suite; here every handshake version) and checks the client's initialize request. " +
			"It catches clients whose initialize lacks the protocol version, the capabilities or clientInfo's name and version, or that ask for a version that does not exist.",
		Spec:   spec(latestHandshake, "basic/lifecycle#initialization"),
		Server: legacy,
		Expect: Expectation{
			Description:   "initialize carries protocolVersion (a version it supports), capabilities and clientInfo with name and version; the handshake completes with notifications/initialized",
			DecisionPoint: "the client sent initialize",
			Reached:       serverSentAnyClient("initialize"),
			Check: func(o Outcome) error {
				init := requests(o, "initialize")[0]
				var problems []string
				// The client sends a version it supports, the latest
				// (2025-11-25 lifecycle: "This SHOULD be the latest version
				// supported by the client"): 2026-07-28 from a dual-era
				// client is right, and the server answers with its own.
				if v := init.Get("params.protocolVersion"); v.Type != gjson.String || !versionForm.MatchString(v.Str) {
					problems = append(problems, fmt.Sprintf("protocolVersion %s, not a version (YYYY-MM-DD)", orNone(v.Raw)))
				}
				if !init.Get("params.capabilities").IsObject() {
					problems = append(problems, "no capabilities object")
				}
				for _, f := range []string{"name", "version"} {
					if init.Get("params.clientInfo."+f).String() == "" {
						problems = append(problems, "no clientInfo."+f)
					}
				}
				if len(problems) > 0 {
					return gotf("initialize (id %s) has %s", init.ID, strings.Join(problems, ", "))
				}
				if !handshakeDone(o) {
					return gotf("initialize was answered, but the client never sent notifications/initialized; it sent %s", methods(fromClient(o)))
				}
				return nil
			},
		},
	}
}

// versionForm is the form of a protocol version.
var versionForm = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// addNumbersSchema is the input schema of the suite's add_numbers.
const addNumbersSchema = `{"type":"object","properties":{"a":{"type":"number","description":"First number"},"b":{"type":"number","description":"Second number"}},"required":["a","b"]}`

func addNumbers() *mcptest.Tool {
	return mcptest.NewTool("add_numbers").WithDescription("Add two numbers together").WithInputSchema(addNumbersSchema).
		HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
			a, b := req.Arguments().Get("a"), req.Arguments().Get("b")
			if a.Type != gjson.Number || b.Type != gjson.Number {
				return mcptest.ToolErrorResult("a and b must be numbers")
			}
			return mcptest.TextResult(fmt.Sprintf("The sum of %v and %v is %v", a.Num, b.Num, a.Num+b.Num))
		})
}

func suiteToolsCall() Scenario {
	return Scenario{
		Name: "tools_call",
		Mistake: "The official suite's tools_call: the server makes no mistake; beside the app's tools it serves add_numbers {a: number, b: number}, which answers their sum. " +
			"It catches clients whose tools/call does not reach a result: arguments of the wrong type for the tool's inputSchema, a call the server cannot answer.",
		Spec: spec(latestHandshake, "server/tools#calling-tools"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return base.WithTools(addNumbers())
		},
		Expect: Expectation{
			Description:   "every tools/call names a tool of the list with arguments its inputSchema accepts (add_numbers: a and b numbers), and gets a result",
			DecisionPoint: "the client called a tool",
			Reached:       calledTool,
			Check: func(o Outcome) error {
				for _, v := range o.Violations {
					if v.Rule == "tools/arguments-schema" {
						return gotf("tools/call id %s: %s", v.Message.ID, v.Detail)
					}
				}
				for _, c := range requests(o, "tools/call") {
					if c.Get("params.name").String() == "add_numbers" {
						if a, b := c.Get("params.arguments.a"), c.Get("params.arguments.b"); a.Type != gjson.Number || b.Type != gjson.Number {
							return gotf("add_numbers was called with a %s and b %s, not two numbers", a.Raw, b.Raw)
						}
					}
					res, ok := responseTo(o, c)
					if ok && res.Kind == mcptest.KindResult && !res.Get("result.isError").Bool() && res.Get("result.resultType").String() != "input_required" {
						return nil
					}
				}
				return gotf("no tools/call got a result; the client sent %s; connect returned %s", methods(fromClient(o)), errText(o.Err))
			},
		},
	}
}

// ---- elicitation-sep1034-client-defaults ----

// defaultsSchema is the requestedSchema of the suite's elicitation with
// defaults: one property of each primitive type, none required.
const defaultsSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"User name","default":"John Doe"},` +
	`"age":{"type":"integer","description":"User age","default":30},` +
	`"score":{"type":"number","description":"User score","default":95.5},` +
	`"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},` +
	`"verified":{"type":"boolean","description":"Verification status","default":true}},"required":[]}`

const defaultsMessage = "Test client default value handling - please accept with defaults"

func suiteElicitationDefaults() Scenario {
	return Scenario{
		Name: "elicitation-sep1034-client-defaults",
		Mistake: "The official suite's elicitation-sep1034-client-defaults: the server makes no mistake; every tool call (the suite's test_client_elicitation_defaults and the app's own) first asks the user, with a form whose five fields (string, integer, number, enum, boolean) all have a default and none is required: elicitation/create in the handshake era, an input_required result in the stateless era. " +
			"It catches clients that accept the form without the defaults the fields carry (SEP-1034).",
		Spec: spec(latestHandshake, "client/elicitation#requested-schema"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			base.WithTools(mcptest.NewTool("test_client_elicitation_defaults").
				WithDescription("Tests that client applies defaults for omitted elicitation fields").
				WithInputSchema(`{"type":"object","properties":{},"required":[]}`).ReturnsText("Elicitation completed"))
			return base.Handle("tools/call", askFirst(base, "defaults", defaultsMessage, defaultsSchema))
		},
		Expect: Expectation{
			Description:   "the accepted content carries a value for each of the five fields, the default where the user gave none (a declined or cancelled form shows nothing about defaults)",
			DecisionPoint: "the client accepted the form (its elicitation/create reply or input response has action accept)",
			NotApplicable: noElicitation,
			Reached: func(o Outcome) error {
				if len(accepted(o, "defaults")) == 0 {
					return notReachedf("the client never accepted the form with defaults (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				for _, content := range accepted(o, "defaults") {
					var missing []string
					for _, f := range []string{"name", "age", "score", "status", "verified"} {
						if !content.Get(f).Exists() {
							missing = append(missing, f)
						}
					}
					if len(missing) > 0 {
						return gotf("the accepted content %s lacks %s, whose defaults the form gave", cut(content.Raw, 120), strings.Join(missing, ", "))
					}
				}
				return nil
			},
		},
	}
}

// askFirst answers every tools/call once the user answered a form: in the
// stateless era with an input_required result (key, message, schema) whose
// retry is answered, in the handshake era with elicitation/create first. A
// client without the elicitation capability gets -32021 (-32603 in the
// handshake era).
func askFirst(srv *mcptest.Server, key, message, schema string) mcptest.Handler {
	missing := func(statelessEra bool) mcptest.Reply {
		data := json.RawMessage(`{"requiredCapabilities":{"elicitation":{}}}`)
		code := -32603
		if statelessEra {
			code = -32021
		}
		return mcptest.JSONRPCError(code, "Missing required client capability: elicitation", data)
	}
	answer := func(name string, resp gjson.Result) mcptest.Reply {
		if resp.Get("action").String() != "accept" {
			return mcptest.ToolErrorResult("the form was not accepted")
		}
		return mcptest.TextResult(fmt.Sprintf("%s: elicitation completed: %s", name, resp.Get("content").Raw))
	}
	return func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
		name := req.Message.Get("params.name").String()
		if stateless(req.Message) {
			if r := req.InputResponse(key); r.Exists() {
				return answer(name, r)
			}
			if !req.Message.Get(metaCapsPath + ".elicitation").Exists() {
				return missing(true)
			}
			return mcptest.InputRequired(key+"-"+req.Message.ID, mcptest.ElicitInput(key, message, schema))
		}
		if !initCaps(srv, req.Session).Get("elicitation").Exists() {
			return missing(false)
		}
		reply, err := req.Session.SendRequest(ctx, "elicitation/create", map[string]any{"message": message, "requestedSchema": json.RawMessage(schema)})
		if err != nil {
			return mcptest.JSONRPCError(-32603, "asking the client: "+err.Error(), nil)
		}
		if reply.Kind == mcptest.KindError {
			return mcptest.JSONRPCError(-32603, "the client answered elicitation/create with an error", nil)
		}
		return answer(name, reply.Get("result"))
	}
}

// accepted returns the content of every form of askFirst's key the client
// accepted: elicitation/create replies (handshake era) and input responses
// of retries (stateless era).
func accepted(o Outcome, key string) []gjson.Result {
	var out []gjson.Result
	for _, m := range o.Journal {
		if m.Direction != mcptest.FromClient {
			continue
		}
		switch {
		case m.IsResponse() && m.Method == "elicitation/create" && m.Get("result.action").String() == "accept":
			out = append(out, m.Get("result.content"))
		case m.IsRequest() && m.Method == "tools/call":
			r := m.Get("params.inputResponses." + gjson.Escape(key))
			if r.Get("action").String() == "accept" {
				out = append(out, r.Get("content"))
			}
		}
	}
	return out
}

// noElicitation returns why an elicitation scenario does not apply: the
// client's calls got -32021 or -32603 for lacking the capability.
func noElicitation(o Outcome) string {
	for _, c := range requests(o, "tools/call") {
		if res, ok := responseTo(o, c); ok && missingCapability(res) && len(serverSent(o, "elicitation/create")) == 0 {
			if len(accepted(o, "defaults")) == 0 && len(accepted(o, "confirm")) == 0 {
				return "the client declares no elicitation capability: its calls were answered that it lacks it, so no form was ever shown"
			}
		}
	}
	return ""
}

// ---- sse-retry ----

// sseRetry is the retry field the sse-retry server sends, as the suite's.
const sseRetry = 500 * time.Millisecond

// earlyTolerance is how much earlier than sseRetry a resumption may come
// (the suite's EARLY_TOLERANCE): the mock measures from the tools/call
// request, which precedes the cut, so a correct client is never early.
const earlyTolerance = 50 * time.Millisecond

func suiteSSERetry() Scenario {
	return Scenario{
		Name: "sse-retry",
		Mistake: "The official suite's sse-retry: the server answers tools/call with an SSE stream whose priming event carries an id and retry: 500, then closes the connection before the reply, as the spec allows a server to do, with HTTPOptions.SSERetry (fault DropStream). " +
			"It catches clients that do not reconnect with GET and Last-Event-ID, or that reconnect before the retry time the server gave.",
		Spec: spec(latestHandshake, "basic/transports#sending-messages-to-the-server"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base).WithHTTP(mcptest.HTTPOptions{SSERetry: sseRetry}), fault.DropStream("tools/call", 0, true))
		},
		Expect: Expectation{
			Description:   fmt.Sprintf("the client waits the %v of the retry field, resumes with GET and Last-Event-ID, and gets the reply", sseRetry),
			DecisionPoint: "the stream of a tools/call of the client was closed before its reply",
			NotApplicable: overDial,
			Reached: func(o Outcome) error {
				if faultsActed(o) {
					return nil
				}
				return notReachedf("the client never called a tool over HTTP (%s)", sentWhat(o))
			},
			Check: func(o Outcome) error {
				for _, r := range o.Journal.From(mcptest.FromServer).Responses("tools/call") {
					if r.HTTP == nil || r.HTTP.Method != http.MethodGet {
						continue
					}
					call, ok := requestOf(o, r)
					if ok && r.Time.Sub(call.Time) < sseRetry-earlyTolerance {
						return gotf("the client resumed %v after its tools/call, before the retry field's %v", roundDuration(r.Time.Sub(call.Time)), sseRetry)
					}
					return nil
				}
				return gotf("the client never resumed the closed stream with GET and Last-Event-ID, so the reply was never delivered; connect returned %s", errText(o.Err))
			},
		},
		Deadline: 4 * time.Second,
	}
}

// requestOf returns the client's request a server response answers.
func requestOf(o Outcome, res mcptest.Message) (mcptest.Message, bool) {
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromClient && m.IsRequest() && m.ID == res.ID && m.SessionNumber == res.SessionNumber && m.Seq < res.Seq {
			return m, true
		}
	}
	return mcptest.Message{}, false
}

// ---- request-metadata, sep-2322-client-request-state ----

func suiteRequestMetadata() Scenario {
	return Scenario{
		Name: "request-metadata",
		Mistake: "The official suite's request-metadata (SEP-2575): the server makes no mistake; it speaks both eras and checks the _meta of every stateless request and, over Streamable HTTP, its MCP-Protocol-Version header. " +
			"It catches stateless clients that leave protocolVersion or clientCapabilities out of a request's _meta, declare a capability that is not an object, or send a header that disagrees with _meta.",
		Spec:   spec(latestStateless, "basic/index#meta"),
		Server: func(base *mcptest.Server) *mcptest.Server { return base },
		Expect: Expectation{
			Description:   "every stateless request carries protocolVersion and clientCapabilities in _meta (roots, sampling, elicitation, when declared, are objects); over HTTP its MCP-Protocol-Version header is the _meta version",
			DecisionPoint: "the client sent a stateless request; not applicable to a client that speaks only the handshake era",
			NotApplicable: handshakeOnly,
			Reached:       sentStateless,
			Check: func(o Outcome) error {
				if vs := rulesBroken(o, "stateless/meta-required", "http/stateless-headers"); len(vs) > 0 {
					return gotf("the client broke %s", violationList(vs))
				}
				for _, m := range requests(o, "") {
					if !stateless(m) {
						continue
					}
					for _, c := range []string{"roots", "sampling", "elicitation"} {
						if v := m.Get(metaCapsPath + "." + c); v.Exists() && !v.IsObject() {
							return gotf("%s id %s declares the %s capability as %s, not an object", m.Method, m.ID, c, v.Raw)
						}
					}
				}
				return nil
			},
		},
	}
}

// sentStateless is reached once the client sent a stateless request.
func sentStateless(o Outcome) error {
	for _, m := range requests(o, "") {
		if stateless(m) {
			return nil
		}
	}
	return notReachedf("the client sent no stateless request (%s)", sentWhat(o))
}

// rulesBroken returns the violations of the given rules.
func rulesBroken(o Outcome, rules ...string) []mcptest.Violation {
	var out []mcptest.Violation
	for _, v := range o.Violations {
		if slices.Contains(rules, string(v.Rule)) {
			out = append(out, v)
		}
	}
	return out
}

// mrtrConfirmSchema is the form of the suite's sep-2322-client-request-state
// elicitations: one optional boolean, so an app that accepts with empty
// content answers it.
const mrtrConfirmSchema = `{"type":"object","properties":{"confirmed":{"type":"boolean","description":"Confirm?"}}}`

// The suite's tools of sep-2322-client-request-state.
var mrtrTools = []struct{ name, description string }{
	{"test_mrtr_echo_state", "Test tool: triggers MRTR flow with requestState. Client must echo state back unchanged."},
	{"test_mrtr_no_state", "Test tool: triggers MRTR flow WITHOUT requestState. Client must NOT include requestState in retry."},
	{"test_mrtr_unrelated", "Test tool: simple tool called between MRTR rounds. Must NOT carry inputResponses or requestState from another tool."},
	{"test_mrtr_no_result_type", "Test tool: returns a result without resultType. Client must treat it as complete (default)."},
}

func suiteRequestState() Scenario {
	return Scenario{
		Name: "sep-2322-client-request-state",
		Mistake: "The official suite's sep-2322-client-request-state: the server makes no mistake; in the stateless era every tool call (the app's, and the suite's test_mrtr_echo_state) gets an input_required result with an elicitation and a requestState; test_mrtr_no_state's has no requestState; test_mrtr_unrelated and test_mrtr_no_result_type answer at once. " +
			"It catches clients that change, drop or invent requestState in the retry, reuse the id, or carry one flow's requestState or inputResponses into another request.",
		Spec: spec(latestStateless, "basic/patterns/mrtr#client-requirements-basic-workflow"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			for _, t := range mrtrTools {
				base.WithTools(mcptest.NewTool(t.name).WithDescription(t.description).WithInputSchema(`{"type":"object","properties":{},"required":[]}`).ReturnsText(t.name + " ok"))
			}
			flows := askFirst(base, "confirm", "Please confirm to continue", mrtrConfirmSchema)
			return base.Handle("tools/call", func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
				switch name := req.Message.Get("params.name").String(); {
				case !stateless(req.Message) || name == "test_mrtr_unrelated":
					return mcptest.TextResult(name + " ok")
				case name == "test_mrtr_no_result_type":
					return mcptest.TextResult("no-result-type-ok")
				case name == "test_mrtr_no_state":
					if req.InputResponse("confirm").Exists() {
						return mcptest.TextResult("no-state-ok")
					}
					if !req.Message.Get(metaCapsPath + ".elicitation").Exists() {
						return flows(ctx, req) // -32021
					}
					return mcptest.InputRequired("", mcptest.ElicitInput("confirm", "Please confirm to continue (no state test)", mrtrConfirmSchema))
				}
				return flows(ctx, req)
			})
		},
		Expect: Expectation{
			Description:   "each retry has a new id and echoes the requestState of its input_required result exactly (none when there was none); no other request carries a flow's requestState or inputResponses",
			DecisionPoint: "the client retried a call after an input_required result; not applicable to a handshake-only client or one without the elicitation capability",
			NotApplicable: func(o Outcome) string {
				if why := handshakeOnly(o); why != "" {
					return why
				}
				for _, c := range requests(o, "tools/call") {
					if res, ok := responseTo(o, c); ok && res.ErrorCode == -32021 && len(retries(o)) == 0 {
						return "the client declares no elicitation capability (its call got -32021), so it was never asked for input and never retried"
					}
				}
				return ""
			},
			Reached: func(o Outcome) error {
				if len(retries(o)) == 0 {
					return notReachedf("the client never retried a call after an input_required result (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				if vs := rulesBroken(o, "mrtr/request-state-unchanged", "mrtr/new-id"); len(vs) > 0 {
					return gotf("the retry broke %s", violationList(vs))
				}
				for _, c := range requests(o, "tools/call") {
					name := c.Get("params.name").String()
					if (name == "test_mrtr_unrelated" || name == "test_mrtr_no_result_type") && (c.Get("params.inputResponses").Exists() || c.Get("params.requestState").Exists()) {
						return gotf("%s id %s carries the inputResponses or requestState of another call's flow", name, c.ID)
					}
				}
				return nil
			},
		},
	}
}

// retries returns the client's tools/call requests that answer an
// input_required result (they carry inputResponses).
func retries(o Outcome) mcptest.Messages {
	return requests(o, "tools/call").Filter(func(m mcptest.Message) bool { return m.Get("params.inputResponses").Exists() })
}

// ---- the request headers of Streamable HTTP in 2026-07-28 ----

// overStatelessHTTP returns why a 2026-07-28 HTTP scenario does not
// apply: the client does not use Streamable HTTP, or speaks only the
// handshake era.
func overStatelessHTTP(o Outcome) string {
	if why := overDial(o); why != "" {
		return why
	}
	return handshakeOnly(o)
}

// statelessHTTP returns the client's stateless requests over HTTP of method ("" for any).
func statelessHTTP(o Outcome, method string) mcptest.Messages {
	return requests(o, method).Filter(func(m mcptest.Message) bool { return m.HTTP != nil && stateless(m) })
}

func suiteStandardHeaders() Scenario {
	return Scenario{
		Name: "http-standard-headers",
		Mistake: "The official suite's http-standard-headers (SEP-2243): the server makes no mistake; beside the app's tools, resources and prompts it serves the tools test_headers and my-hyphenated-tool, the resources file:///path/to/file%20name.txt and https://example.com/resource?id=123, and the prompt test_prompt, and checks the Mcp-Method and Mcp-Name headers of each stateless request. " +
			"It catches clients that leave the headers out, or send values that disagree with the body.",
		Spec: spec(latestStateless, "basic/transports/streamable-http#standard-request-headers"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			empty := `{"type":"object","properties":{},"required":[]}`
			return base.WithTools(
				mcptest.NewTool("test_headers").WithDescription("A simple tool used to test that HTTP headers are sent correctly").WithInputSchema(empty).ReturnsText("Headers test completed"),
				mcptest.NewTool("my-hyphenated-tool").WithDescription("Tool with hyphen in name to test special chars in Mcp-Name header").WithInputSchema(empty).ReturnsText("Headers test completed"),
			).WithResources(
				mcptest.NewResource("file:///path/to/file%20name.txt", "File with spaces").WithDescription("Resource URI with percent-encoded spaces").ReturnsText(""),
				mcptest.NewResource("https://example.com/resource?id=123", "Resource with query string").WithDescription("Resource URI with query string").ReturnsText(""),
			).WithPrompts(mcptest.NewPrompt("test_prompt").WithDescription("A simple prompt for header testing").ReturnsText("test"))
		},
		Expect: Expectation{
			Description:   "every stateless POST carries MCP-Protocol-Version and Mcp-Method, and tools/call, resources/read and prompts/get carry Mcp-Name, each agreeing with the body (Base64-encoded where the value needs it)",
			DecisionPoint: "the client sent a stateless request that needs Mcp-Name (tools/call, resources/read or prompts/get) over HTTP; not applicable to a stdio or handshake-only client",
			NotApplicable: overStatelessHTTP,
			Reached: func(o Outcome) error {
				for _, m := range statelessHTTP(o, "") {
					if m.Method == "tools/call" || m.Method == "resources/read" || m.Method == "prompts/get" {
						return nil
					}
				}
				return notReachedf("the client sent no stateless tools/call, resources/read or prompts/get over HTTP (%s)", sentWhat(o))
			},
			Check: func(o Outcome) error {
				if vs := rulesBroken(o, "http/stateless-headers", "http/header-encoding"); len(vs) > 0 {
					return gotf("the client broke %s", violationList(vs))
				}
				return nil
			},
		},
	}
}

// customHeadersSchema is the suite's test_custom_headers schema: every
// kind of value an x-mcp-header may mirror, and two unannotated ones.
const customHeadersSchema = `{"type":"object","properties":{` +
	`"region":{"type":"string","description":"Plain ASCII string value","x-mcp-header":"Region"},` +
	`"priority":{"type":"integer","description":"Integer numeric value","x-mcp-header":"Priority"},` +
	`"verbose":{"type":"boolean","description":"Boolean false value","x-mcp-header":"Verbose"},` +
	`"debug":{"type":"boolean","description":"Boolean true value","x-mcp-header":"Debug"},` +
	`"empty_val":{"type":"string","description":"Empty string value","x-mcp-header":"EmptyVal"},` +
	`"method_val":{"type":"string","description":"Value whose header name shadows Mcp-Method","x-mcp-header":"Method"},` +
	`"float_val":{"type":"number","description":"Unannotated number - should not be mirrored"},` +
	`"non_ascii_val":{"type":"string","description":"Non-ASCII string value - requires Base64 encoding","x-mcp-header":"NonAscii"},` +
	`"whitespace_val":{"type":"string","description":"String with leading/trailing whitespace - requires Base64 encoding","x-mcp-header":"Whitespace"},` +
	`"leading_space_val":{"type":"string","description":"String with leading space only - requires Base64 encoding","x-mcp-header":"LeadingSpace"},` +
	`"trailing_space_val":{"type":"string","description":"String with trailing space only - requires Base64 encoding","x-mcp-header":"TrailingSpace"},` +
	`"internal_space_val":{"type":"string","description":"String with internal spaces only - plain ASCII, no Base64","x-mcp-header":"InternalSpace"},` +
	`"control_char_val":{"type":"string","description":"String with control characters - requires Base64 encoding","x-mcp-header":"ControlChar"},` +
	`"crlf_val":{"type":"string","description":"String with carriage return and line feed - requires Base64 encoding","x-mcp-header":"CrLf"},` +
	`"tab_val":{"type":"string","description":"String with leading tab - requires Base64 encoding","x-mcp-header":"Tab"},` +
	`"query":{"type":"string","description":"No x-mcp-header annotation - should not be mirrored"}},` +
	`"required":["region","priority","query"]}`

// customHeadersNullSchema is the suite's test_custom_headers_null schema.
const customHeadersNullSchema = `{"type":"object","properties":{` +
	`"region":{"type":"string","description":"Plain ASCII string value","x-mcp-header":"Region"},` +
	`"priority":{"type":"integer","description":"Integer numeric value","x-mcp-header":"Priority"},` +
	`"verbose":{"type":"boolean","description":"Boolean value - will be null to test omission","x-mcp-header":"Verbose"},` +
	`"query":{"type":"string","description":"No x-mcp-header annotation"}},` +
	`"required":["region","priority","query"]}`

// annotatedAgeSchema is suggest_gifts' input schema with its age mirrored
// into Mcp-Param-Age.
const annotatedAgeSchema = `{"type":"object","properties":{"age":{"type":"integer","x-mcp-header":"Age"}},"required":["age"]}`

func suiteCustomHeaders() Scenario {
	return Scenario{
		Name: "http-custom-headers",
		Mistake: "The official suite's http-custom-headers (SEP-2243): the server makes no mistake; its tools annotate parameters with x-mcp-header: GiftGen's suggest_gifts its age (Age), the suite's test_custom_headers every kind of value (plain, integer, boolean, empty, non-ASCII, padded, control characters), test_custom_headers_null one that is left null. The app's own tools are replaced by these. " +
			"It catches clients that do not mirror an annotated argument into its Mcp-Param-{name} header, send a value that disagrees with the body, do not Base64-encode one that needs it, or send the header for a null argument.",
		Spec: spec(latestStateless, "basic/transports/streamable-http#custom-headers-from-tool-parameters"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			base.SetTools(mcptest.Quietly,
				mcptest.NewTool("suggest_gifts").WithDescription("Suggests gift ideas for a recipient").WithInputSchema(annotatedAgeSchema).ReturnsText("a board game"),
				mcptest.NewTool("test_custom_headers").WithDescription("A tool with x-mcp-header annotated parameters of every kind").WithInputSchema(customHeadersSchema).ReturnsText("Custom headers test completed"),
				mcptest.NewTool("test_custom_headers_null").WithDescription("A tool for testing null/omitted x-mcp-header parameter handling").WithInputSchema(customHeadersNullSchema).ReturnsText("Custom headers test completed"),
			)
			return base
		},
		Expect: Expectation{
			Description:   "each stateless tools/call over HTTP carries Mcp-Param-{name} for every annotated argument that has a value, agreeing with the body (integers in decimal, booleans true or false, Base64 where the value is not plain header-safe ASCII), and none for a null or absent one",
			DecisionPoint: "the client called a tool with an annotated argument, stateless, over HTTP; not applicable to a stdio or handshake-only client",
			NotApplicable: overStatelessHTTP,
			Reached: func(o Outcome) error {
				if len(statelessHTTP(o, "tools/call")) == 0 {
					return notReachedf("the client called no tool, stateless, over HTTP (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				if vs := rulesBroken(o, "http/param-headers", "http/header-encoding"); len(vs) > 0 {
					return gotf("the client broke %s", violationList(vs))
				}
				return nil
			},
		},
	}
}

// invalidHeaderTools are the suite's tools whose x-mcp-header
// annotations break the spec's constraints, by name.
var invalidHeaderTools = map[string]string{
	"invalid_empty_header":        `{"type":"object","properties":{"value":{"type":"string","x-mcp-header":""}},"required":["value"]}`,
	"invalid_object_header":       `{"type":"object","properties":{"data":{"type":"object","x-mcp-header":"Data"}},"required":["data"]}`,
	"invalid_array_header":        `{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"},"x-mcp-header":"Items"}},"required":["items"]}`,
	"invalid_null_header":         `{"type":"object","properties":{"nil":{"type":"null","x-mcp-header":"Nil"}},"required":["nil"]}`,
	"invalid_number_header":       `{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}},"required":["score"]}`,
	"invalid_duplicate_same_case": `{"type":"object","properties":{"field1":{"type":"string","x-mcp-header":"Region"},"field2":{"type":"string","x-mcp-header":"Region"}},"required":["field1","field2"]}`,
	"invalid_duplicate_diff_case": `{"type":"object","properties":{"field1":{"type":"string","x-mcp-header":"MyField"},"field2":{"type":"string","x-mcp-header":"myfield"}},"required":["field1","field2"]}`,
	"invalid_space_in_name":       `{"type":"object","properties":{"value":{"type":"string","x-mcp-header":"My Region"}},"required":["value"]}`,
	"invalid_colon_in_name":       `{"type":"object","properties":{"value":{"type":"string","x-mcp-header":"Region:Primary"}},"required":["value"]}`,
	"invalid_non_ascii_name":      `{"type":"object","properties":{"value":{"type":"string","x-mcp-header":"Région"}},"required":["value"]}`,
	"invalid_control_char_name":   `{"type":"object","properties":{"value":{"type":"string","x-mcp-header":"Region\t1"}},"required":["value"]}`,
}

func suiteInvalidToolHeaders() Scenario {
	return Scenario{
		Name: "http-invalid-tool-headers",
		Mistake: "The official suite's http-invalid-tool-headers (SEP-2243): beside the app's tools and valid_tool (Region, well formed), the server lists eleven tools whose x-mcp-header annotations break the spec's constraints: empty, on an object, array, null or number, duplicated (same case and not), with a space, a colon, non-ASCII or a control character. " +
			"It catches clients that keep such a tool and call it, and clients that drop the whole list for one bad tool.",
		Spec: spec(latestStateless, "basic/transports/streamable-http#custom-headers-from-tool-parameters"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			base.WithTools(mcptest.NewTool("valid_tool").WithDescription("A valid tool with correct x-mcp-header").
				WithInputSchema(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}},"required":["region"]}`).ReturnsText("Tool call received"))
			names := make([]string, 0, len(invalidHeaderTools))
			for n := range invalidHeaderTools {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				base.WithTools(mcptest.NewTool(n).WithDescription("An invalid x-mcp-header annotation: the client MUST exclude this tool").WithInputSchema(invalidHeaderTools[n]).ReturnsText("Tool call received"))
			}
			return base
		},
		Expect: Expectation{
			Description:   "the client never calls a tool with an invalid x-mcp-header annotation, and still calls a valid one",
			DecisionPoint: "the client listed the tools, stateless, over HTTP, and then called a tool; not applicable to a stdio or handshake-only client",
			NotApplicable: overStatelessHTTP,
			Reached: func(o Outcome) error {
				list := statelessHTTP(o, "tools/list")
				if len(list) == 0 || len(after(statelessHTTP(o, "tools/call"), list[0].Seq)) == 0 {
					return notReachedf("the client did not list the tools and then call one, stateless, over HTTP (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				var bad []string
				valid := false
				for _, c := range requests(o, "tools/call") {
					name := c.Get("params.name").String()
					if _, ok := invalidHeaderTools[name]; ok {
						bad = append(bad, fmt.Sprintf("%s (id %s)", name, c.ID))
					} else {
						valid = true
					}
				}
				switch {
				case len(bad) > 0:
					return gotf("the client called %s, whose x-mcp-header annotations are invalid", strings.Join(bad, ", "))
				case !valid:
					return gotf("the client called no valid tool")
				}
				return nil
			},
		},
	}
}

// ---- JSON Schema: json-schema-ref-no-deref, json-schema-2020-12-preservation ----

// canaryPath is where the canary listener serves the schema that a
// network $ref points at (the suite's path).
const canaryPath = "/canary/profile-schema.json"

// noCanary is the canary URL of a server built without a play (mcpmock
// serve): a loopback port nothing listens on.
const noCanary = "http://127.0.0.1:9" + canaryPath

// lookupUser returns the suite's lookup_user, whose inputSchema holds a
// same-document $ref and a network $ref to canary.
func lookupUser(canary string) *mcptest.Tool {
	schema := fmt.Sprintf(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",`+
		`"$defs":{"userId":{"type":"string","pattern":"^[a-z0-9-]+$"}},`+
		`"properties":{"id":{"$ref":"#/$defs/userId"},"profile":{"$ref":%q}},"required":["id"]}`, canary)
	return mcptest.NewTool("lookup_user").WithDescription("Look up a user profile by id").WithInputSchema(schema).ReturnsText("a user")
}

func suiteRefNoDeref() Scenario {
	return Scenario{
		Name: "json-schema-ref-no-deref",
		Mistake: "The official suite's json-schema-ref-no-deref (SEP-2106): the server lists lookup_user, whose inputSchema holds a same-document $ref (#/$defs/userId) and a $ref to a network URI, a canary URL the mock serves on a loopback listener of its own and notes every fetch of. " +
			"It catches clients (or their JSON Schema validators) that dereference a network $ref on their own: a server could make them fetch any URL.",
		Spec: spec(latestStateless, "basic/index#ref-resolution"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return base.WithTools(lookupUser(noCanary))
		},
		canary: func(base *mcptest.Server, url string) *mcptest.Server {
			return base.WithTools(lookupUser(url))
		},
		Expect: Expectation{
			Description:   "the client lists the tools (and may validate arguments against the schema) but never fetches the canary URL",
			DecisionPoint: "the server answered the client's tools/list with lookup_user; not applicable to a client of the handshake era only, whose versions have no such sentence",
			// The sentence is 2026-07-28's (SEP-2106); the suite's scenario
			// is of that version only.
			NotApplicable: handshakeOnly,
			Reached: func(o Outcome) error {
				for _, r := range o.Journal.From(mcptest.FromServer).Responses("tools/list") {
					if r.Kind == mcptest.KindResult {
						return nil
					}
				}
				return notReachedf("the client never listed the tools (%s)", sentWhat(o))
			},
			Check: func(o Outcome) error {
				if len(o.canaryHits) > 0 {
					return gotf("the client fetched the network $ref's URL %d times (%s): it dereferenced it on its own", len(o.canaryHits), strings.Join(o.canaryHits, "; "))
				}
				return nil
			},
		},
	}
}

// canaryListener serves canaryPath on a loopback port and notes every
// request to it (any path): the fetches of a network $ref.
type canaryListener struct {
	srv  *http.Server
	url  string
	mu   sync.Mutex
	hits []string
	done chan struct{}
}

// startCanary starts a canary listener.
func startCanary() (*canaryListener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("scenarios: the canary listener: %w", err)
	}
	c := &canaryListener{url: "http://" + ln.Addr().String() + canaryPath, done: make(chan struct{})}
	c.srv = &http.Server{ReadHeaderTimeout: time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.hits = append(c.hits, fmt.Sprintf("%s %s at %s (User-Agent %q)", r.Method, r.URL.Path, time.Now().UTC().Format("15:04:05.000"), r.UserAgent()))
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/schema+json")
		fmt.Fprint(w, `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"displayName":{"type":"string"}}}`)
	})}
	go func() {
		defer close(c.done)
		_ = c.srv.Serve(ln)
	}()
	return c, nil
}

// close stops the listener and returns its hits.
func (c *canaryListener) close() []string {
	_ = c.srv.Close()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.hits)
}

// The suite's json-schema-2020-12-preservation tools.
const (
	focalTool = "json_schema_2020_12_tool"
	echoTool  = "json_schema_echo"
	// focalSchema carries the 2020-12 keywords the suite checks: $schema,
	// $defs with an $anchor, additionalProperties, allOf with a nested
	// anyOf, and if/then/else.
	focalSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
		`"$defs":{"address":{"$anchor":"address","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
		`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"kind":{"type":"string"}},` +
		`"allOf":[{"anyOf":[{"required":["name"]},{"required":["address"]}]}],` +
		`"if":{"properties":{"kind":{"const":"business"}}},"then":{"required":["address"]},"else":{"required":["name"]},` +
		`"additionalProperties":false}`
	echoSchema = `{"type":"object","properties":{"schema":{"type":"object","description":"The inputSchema the client observed for ` + focalTool + `, passed back verbatim."}},"required":["schema"]}`
)

// preservedKeywords are the keywords of focalSchema an echo must keep,
// each a gjson path and what it must hold.
var preservedKeywords = []struct{ path, want string }{
	{gjson.Escape("$schema"), `"https://json-schema.org/draft/2020-12/schema"`},
	{gjson.Escape("$defs") + ".address." + gjson.Escape("$anchor"), `"address"`},
	{"additionalProperties", "false"},
	{"allOf.0.anyOf.#", "2"},
	{"if.properties.kind.const", `"business"`},
	{"then.required.0", `"address"`},
	{"else.required.0", `"name"`},
}

func suiteSchemaPreservation() Scenario {
	return Scenario{
		Name: "json-schema-2020-12-preservation",
		Mistake: "The official suite's json-schema-2020-12-preservation (SEP-1613, SEP-2106): the server makes no mistake; it lists json_schema_2020_12_tool, whose inputSchema uses $schema, $defs with $anchor, additionalProperties, allOf/anyOf and if/then/else, and json_schema_echo, which takes a schema back. " +
			"It catches clients that strip or alter JSON Schema 2020-12 keywords they parse; only a client that echoes the schema it holds (the suite's client programs do) shows it.",
		Spec: spec(latestHandshake, "basic/index#json-schema-usage"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return base.WithTools(
				mcptest.NewTool(focalTool).WithDescription("Tool with JSON Schema 2020-12 features").WithInputSchema(focalSchema).ReturnsText("ok"),
				mcptest.NewTool(echoTool).WithDescription("Echoes back an arbitrary JSON Schema object so the harness can observe what the client preserved.").WithInputSchema(echoSchema).ReturnsText("echoed"),
			)
		},
		Expect: Expectation{
			Description:   "the schema the client echoes keeps every 2020-12 keyword of json_schema_2020_12_tool's inputSchema",
			DecisionPoint: "the client called json_schema_echo with a schema object; not applicable to an app that lists the tools but echoes nothing (the mock cannot see what it kept)",
			NotApplicable: func(o Outcome) string {
				if len(echoes(o)) == 0 && len(requests(o, "tools/list")) > 0 {
					return "the client listed the tools but never called " + echoTool + " with a schema: what it keeps of an inputSchema shows only in an echo, which a client program made for this scenario sends"
				}
				return ""
			},
			Reached: func(o Outcome) error {
				if len(echoes(o)) == 0 {
					return notReachedf("the client never called %s with a schema object (%s)", echoTool, sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				for _, e := range echoes(o) {
					var lost []string
					for _, k := range preservedKeywords {
						if got := e.Get(k.path); got.Raw != k.want {
							lost = append(lost, fmt.Sprintf("%s (want %s, got %s)", k.path, k.want, orNone(got.Raw)))
						}
					}
					if len(lost) > 0 {
						return gotf("the echoed schema lost or altered %s", strings.Join(lost, ", "))
					}
				}
				return nil
			},
		},
	}
}

// echoes returns the schemas the client passed to json_schema_echo.
func echoes(o Outcome) []gjson.Result {
	var out []gjson.Result
	for _, c := range requests(o, "tools/call") {
		if s := c.Get("params.arguments.schema"); c.Get("params.name").String() == echoTool && s.IsObject() {
			out = append(out, s)
		}
	}
	return out
}

func orNone(raw string) string {
	if raw == "" {
		return "none"
	}
	return raw
}
