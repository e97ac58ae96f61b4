package scenarios

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/tidwall/gjson"
)

// ---- framing and failures in the middle of a call ----

func stdoutBanner() Scenario {
	return Scenario{
		Name: "stdout-banner",
		Mistake: "The server prints a banner line that is not JSON, naming itself (GiftGen's: \"gift-genius-backend 0.2.0 listening on stdio\"), on stdout before its first message (fault Banner). " +
			"It catches clients that drop the connection on one bad line instead of skipping it.",
		Spec: spec(latestHandshake, "basic/transports#stdio"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			name, version := base.ServerInfo()
			return faulty(base, fault.Banner(strings.TrimSpace(name+" "+version)+" listening on stdio"))
		},
		Expect: Expectation{
			Description:   "the client skips the non-JSON line and the session proceeds: its work gets results and connect returns nil",
			DecisionPoint: "the banner and the server's first message reached the client (it sent a request)",
			Reached:       sentRequest,
			Check:         sessionProceeds,
		},
	}
}

func wrongIDType() Scenario {
	return Scenario{
		Name: "wrong-id-type",
		Mistake: "The server answers tools/call with the right id in the wrong type (the string \"3\" for the integer 3, or the reverse), which JSON-RPC does not treat as the same id (fault FlipIDType). " +
			"It catches clients that a reply they cannot match crashes, or leaves waiting forever. A client may take the stray reply for its call's (the TypeScript, Python and Rust SDKs do, on purpose) or ignore it and give up at its deadline: no sentence of the spec tells a client which, so both pass.",
		Spec: spec(latestHandshake, "basic#responses"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.FlipIDType("tools/call"))
		},
		Expect: Expectation{
			Description:   "the client survives the reply with the mistyped id: it takes it for its call's reply, or ignores it and gives up on the call at its deadline; either way connect returns by its deadline, with no rule broken",
			DecisionPoint: "the client called a tool and got the reply with the mistyped id",
			Reached:       calledTool,
			// A hang or a panic fails every scenario (judge); here the
			// client's rules, and what it did, for the record.
			Check: func(o Outcome) error {
				if vs := errorViolations(o); len(vs) > 0 {
					return gotf("after the reply with the mistyped id the client broke %s; connect returned %s", violationList(vs), errText(o.Err))
				}
				return nil
			},
		},
		Deadline: time.Second,
	}
}

func disconnectMidCall() Scenario {
	return Scenario{
		Name: "disconnect-mid-call",
		Mistake: "The server closes the connection when tools/call arrives, without answering: a crash in the middle of a call (fault CloseBefore). " +
			"It catches clients whose pending call never notices the closed connection and waits for a reply until its own timeout, or forever.",
		Spec: spec(latestHandshake, "basic/lifecycle#shutdown"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.CloseBefore("tools/call"))
		},
		Expect: Expectation{
			Description:   "the pending call fails at once with an error (end of file), and connect returns without waiting out its deadline (half of it gone, a quarter of it since its last request)",
			DecisionPoint: "the client called a tool and the connection closed under the call",
			Reached:       calledTool,
			Check: func(o Outcome) error {
				if o.Err == nil {
					return gotf("connect returned nil although the connection closed in the middle of the call")
				}
				if o.WaitedOut() {
					return gotf("connect returned %s only after %v, with a deadline of %v, %v of it after its last request: the client waited for its timeout instead of noticing the closed connection", errText(o.Err), o.Elapsed.Round(time.Millisecond), o.Deadline, o.Idle().Round(time.Millisecond))
				}
				return nil
			},
		},
		Deadline: 4 * time.Second,
	}
}

func slowToolTimeout() Scenario {
	return Scenario{
		Name: "slow-tool-timeout",
		Mistake: "The server takes an hour to answer tools/call, far longer than the client is willing to wait (fault Delay). " +
			"It catches clients that give up without telling the server (no notifications/cancelled), leaving it to work for nothing, and clients that never give up.",
		Spec: spec(latestHandshake, "basic/utilities/cancellation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.Delay("tools/call", time.Hour))
		},
		Expect: Expectation{
			Description:   "when its deadline ends the client gives up on the call, sends notifications/cancelled with the call's requestId before its session ends (Play waits up to 1s after connect returned, for clients that send it from their own goroutine), or, in the stateless era over Streamable HTTP, closes the call's response, which is the cancellation there; and connect returns an error",
			DecisionPoint: "the client called a tool (the call never ends)",
			Reached:       calledTool,
			After: &Reaction{ // a client may send the cancellation from a goroutine of its own
				Event: mcptest.ClientSent("tools/call"),
				Then: func(call mcptest.Message) mcptest.Matcher {
					return mcptest.Matcher{Description: "the client cancels tools/call id " + call.ID, Match: func(m mcptest.Message) bool {
						return m.Direction == mcptest.FromClient && m.IsNotification() && m.Method == "notifications/cancelled" &&
							m.Get("params.requestId").Raw == call.ID
					}}
				},
				Window: time.Second,
			},
			Check: func(o Outcome) error {
				cancelled := map[string]bool{}
				for _, n := range notifications(o, "notifications/cancelled") {
					cancelled[n.Get("params.requestId").Raw] = true
				}
				var problems []string
				for _, c := range requests(o, "tools/call") {
					if c.HTTP != nil && c.HTTP.Cancelled {
						continue // 2026-07-28 over HTTP: "Closing the SSE response stream is the cancellation signal"
					}
					if !cancelled[c.ID] {
						problem := fmt.Sprintf("no notifications/cancelled for tools/call id %s", c.ID)
						if closed := closedEarly(o, c); closed != "" {
							problem += " (" + closed + ": a notifications/cancelled sent from a goroutine of the client's own races that close)"
						}
						problems = append(problems, problem)
					}
				}
				if o.Err == nil {
					problems = append(problems, "connect returned nil")
				}
				if len(problems) > 0 {
					return gotf("%s; the client sent %s", strings.Join(problems, "; "), methods(fromClient(o)))
				}
				return nil
			},
		},
		Deadline: time.Second,
	}
}

// confirmSchema is what elicitation-round-trip asks the user for.
const confirmSchema = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`

func elicitationRoundTrip() Scenario {
	return Scenario{
		Name: "elicitation-round-trip",
		Mistake: "Every tool needs the user to confirm before it answers: in the stateless era the first call gets an input_required result with an elicitation and a requestState; in the handshake era the server sends elicitation/create in the middle of the call. " +
			"It catches clients that mishandle the multi-round-trip retry (same id, requestState changed or dropped, an input left unanswered) or never finish the call.",
		Spec: spec(latestStateless, "basic/patterns/mrtr"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return base.Handle("tools/call", confirmFirst(base))
		},
		Expect: Expectation{
			Description:   "the client answers the elicitation and the call completes: in the stateless era it retries with a new id, requestState echoed unchanged and a response for every input (handshake era: it answers elicitation/create); a client without the elicitation capability gets -32021 (-32603 in the handshake era, which has no such code) and reports it",
			DecisionPoint: "the client called a tool and was asked for input (input_required, elicitation/create, or -32021 / -32603 for lacking the capability)",
			Reached:       calledTool,
			Check: func(o Outcome) error {
				var mrtr []mcptest.Violation
				for _, v := range o.Violations {
					if strings.HasPrefix(string(v.Rule), "mrtr/") || v.Rule == "jsonrpc/id-unique" {
						mrtr = append(mrtr, v)
					}
				}
				if len(mrtr) > 0 {
					return gotf("the retry broke %s", violationList(mrtr))
				}
				for _, c := range requests(o, "tools/call") {
					res, ok := responseTo(o, c)
					switch {
					case !ok:
					case res.Kind == mcptest.KindResult && res.Get("result.resultType").String() != "input_required":
						return nil
					case missingCapability(res):
						if o.Err == nil {
							return gotf("the call got %d (the client lacks the elicitation capability), but connect returned nil", res.ErrorCode)
						}
						return nil
					}
				}
				for _, r := range serverSent(o, "elicitation/create") {
					for _, m := range o.Journal {
						if m.Direction == mcptest.FromClient && m.IsResponse() && m.ID == r.ID && m.Kind == mcptest.KindError {
							return gotf("the client answered elicitation/create with error %d %q", m.ErrorCode, m.Get("error.message").String())
						}
					}
				}
				return gotf("the tool call never completed; the client sent %s; connect returned %s", methods(fromClient(o)), errText(o.Err))
			},
		},
	}
}

// missingCapability reports whether res is the answer to a client that
// lacks the elicitation capability: -32021, or in the handshake era -32603
// with data.requiredCapabilities.
func missingCapability(res mcptest.Message) bool {
	return res.ErrorCode == -32021 ||
		res.ErrorCode == -32603 && res.Get("error.data.requiredCapabilities").IsObject()
}

// confirmFirst answers every tools/call after the user confirmed, whatever
// the tool: a stateless-era call gets input_required with an elicitation
// (the retry is answered), a handshake-era call sends elicitation/create
// first. A client that did not declare elicitation gets -32021 (-32603 in
// the handshake era).
func confirmFirst(srv *mcptest.Server) mcptest.Handler {
	// missing is the answer to a client that did not declare elicitation:
	// -32021 with data.requiredCapabilities in the stateless era; the
	// handshake era has no such code, so -32603 (internal error) with the
	// same data, as mcptest answers a RequiresInput tool. data is JSON
	// text, so a json.RawMessage: a Go string would be a JSON string.
	missing := func(statelessEra bool) mcptest.Reply {
		data := json.RawMessage(`{"requiredCapabilities":{"elicitation":{}}}`)
		if statelessEra {
			return mcptest.JSONRPCError(-32021, "Missing required client capability: elicitation", data)
		}
		return mcptest.JSONRPCError(-32603, "Missing required client capability: elicitation", data)
	}
	answer := func(name string, resp gjson.Result) mcptest.Reply {
		if resp.Get("action").String() != "accept" {
			return mcptest.ToolErrorResult("not confirmed")
		}
		return mcptest.TextResult(name + ": done, as confirmed")
	}
	return func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
		name := req.Message.Get("params.name").String()
		if stateless(req.Message) {
			if r := req.InputResponse("confirm"); r.Exists() {
				return answer(name, r)
			}
			if !req.Message.Get(metaCapsPath + ".elicitation").Exists() {
				return missing(true)
			}
			return mcptest.InputRequired("confirm-"+req.Message.ID, confirmInput())
		}
		if !initCaps(srv, req.Session).Get("elicitation").Exists() {
			return missing(false)
		}
		reply, err := req.Session.SendRequest(ctx, "elicitation/create", map[string]any{
			"message": "Please confirm the call of " + name, "requestedSchema": json.RawMessage(confirmSchema)})
		if err != nil {
			return mcptest.JSONRPCError(-32603, "asking the client to confirm: "+err.Error(), nil)
		}
		if reply.Kind == mcptest.KindError {
			return mcptest.JSONRPCError(-32603, "the client answered elicitation/create with an error", nil)
		}
		return answer(name, reply.Get("result"))
	}
}

func confirmInput() mcptest.InputRequest {
	return mcptest.ElicitInput("confirm", "Please confirm the call", confirmSchema)
}

// initCaps returns the capabilities the client declared in the
// session's initialize.
func initCaps(srv *mcptest.Server, sess *mcptest.Session) gjson.Result {
	for _, m := range srv.Journal().All().InSession(sess.Number()) {
		if m.Direction == mcptest.FromClient && m.IsRequest() && m.Method == "initialize" {
			return m.Get("params.capabilities")
		}
	}
	return gjson.Result{}
}

// maxPages is how many requests of one list a correct client sends
// against a looping cursor.
const maxPages = 10

func loopingCursor() Scenario {
	return Scenario{
		Name: "looping-cursor",
		Mistake: "The server's paginated lists loop: every page of tools/list and resources/list has a nextCursor pointing back at the first page (fault LoopingCursor). " +
			"It catches clients that follow nextCursor blindly and page forever (auto-paging iterators included).",
		Spec: spec(latestHandshake, "server/utilities/pagination"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.LoopingCursor("tools/list"), fault.LoopingCursor("resources/list"))
		},
		Expect: Expectation{
			Description:   fmt.Sprintf("the client notices the repeated cursor and stops paging (at most %d requests of each list), and connect returns before its deadline", maxPages),
			DecisionPoint: "the client followed a nextCursor: it asked for a page after the first (a client that reads one page never meets the loop)",
			Reached: func(o Outcome) error {
				for _, method := range []string{"tools/list", "resources/list"} {
					for _, r := range requests(o, method) {
						if r.Get("params.cursor").Exists() {
							return nil
						}
					}
				}
				return notReachedf("the client never asked for a second page (%s)", sentWhat(o))
			},
			Check: func(o Outcome) error {
				for _, method := range []string{"tools/list", "resources/list"} {
					if n := len(requests(o, method)); n > maxPages {
						return gotf("the client sent %s %d times in %v, following the looping cursor", method, n, o.Elapsed.Round(time.Millisecond))
					}
				}
				if o.Elapsed >= o.Deadline {
					return gotf("connect returned %s only when its deadline ended (after %v)", errText(o.Err), o.Elapsed.Round(time.Millisecond))
				}
				return nil
			},
		},
	}
}
