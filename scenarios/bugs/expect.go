package bugs

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// This file holds what a fixed client does, as the expectations of the
// recipes of faults: each phrased over the wire (the journal) and what the
// client's connect returned, with the point the client must have reached
// for the check to be evidence.

// lifecycle are the requests that are not the app's work.
var lifecycle = map[string]bool{"initialize": true, "server/discover": true, "ping": true}

// acted is reached once every fault of the recipe acted at least once.
func acted(o scenarios.Outcome) error {
	var idle []string
	for _, h := range o.Faults {
		if h.Hits() == 0 {
			idle = append(idle, h.Fault().String())
		}
	}
	if len(idle) > 0 {
		return fmt.Errorf("the recipe's %s never acted: the client never sent what triggers it (it sent %s)", strings.Join(idle, ", "), sent(o))
	}
	return nil
}

// sent lists the methods the client sent, for a verdict.
func sent(o scenarios.Outcome) string {
	var parts []string
	for _, m := range o.Journal.From(mcptest.FromClient) {
		switch {
		case m.IsResponse():
			parts = append(parts, "reply to "+m.Method)
		case m.Method != "":
			parts = append(parts, m.Method)
		default:
			parts = append(parts, "invalid message")
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

func errText(err error) string {
	if err == nil {
		return "nil"
	}
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return fmt.Sprintf("error %q", s)
}

// workAnswered reports whether a request of the app's work (beyond the
// lifecycle) got a result, after the journal's message seq.
func workAnswered(o scenarios.Outcome, seq int) bool {
	for _, r := range o.Journal.From(mcptest.FromClient).Requests("").After(seq) {
		if lifecycle[r.Method] {
			continue
		}
		if res, ok := o.Journal.ResponseTo(r); ok && res.Kind == mcptest.KindResult {
			return true
		}
	}
	return false
}

// firstRequest returns the client's first request of method.
func firstRequest(o scenarios.Outcome, method string) (mcptest.Message, bool) {
	reqs := o.Journal.From(mcptest.FromClient).Requests(method)
	if len(reqs) == 0 {
		return mcptest.Message{}, false
	}
	return reqs[0], true
}

// Proceeds is what a fixed client does when the server's output is odd
// but readable (a long line, a log line, bytes that are not UTF-8, an
// unusual schema): it reads past it, its work gets results, and connect
// returns nil. Reached once every fault of the recipe acted.
func Proceeds(what string) scenarios.Expectation {
	return scenarios.Expectation{
		Description:   fmt.Sprintf("the client reads past %s: its work (a list, a call) gets results and connect returns nil", what),
		DecisionPoint: "every fault of the recipe acted (the client sent what triggers it)",
		Reached:       acted,
		Check: func(o scenarios.Outcome) error {
			var problems []string
			if o.Err != nil {
				problems = append(problems, "connect returned "+errText(o.Err))
			}
			if !workAnswered(o, 0) {
				problems = append(problems, "no request of the app's work (a list, a call) got a result")
			}
			if len(problems) > 0 {
				return fmt.Errorf("%s; the client sent %s", strings.Join(problems, "; "), sent(o))
			}
			return nil
		},
	}
}

// FailsFast is what a fixed client does when the server dies under a
// request: the request fails with an error at once, and connect returns
// it without waiting out its deadline (Outcome.WaitedOut).
func FailsFast() scenarios.Expectation {
	return scenarios.Expectation{
		Description:   "the pending request fails at once (end of file or a closed stream) and connect returns an error without waiting out its deadline (half of it gone, a quarter of it since its last request)",
		DecisionPoint: "every fault of the recipe acted (the server died under the client's request)",
		Reached:       acted,
		Check: func(o scenarios.Outcome) error {
			switch {
			case o.Err == nil:
				return fmt.Errorf("connect returned nil: the app was not told its request failed; the client sent %s", sent(o))
			case o.WaitedOut():
				return fmt.Errorf("connect returned %s only after %v of its %v deadline, %v of it after its last request: the client waited for a reply from a server that was gone", errText(o.Err), o.Elapsed.Round(1e6), o.Deadline, o.Idle().Round(1e6))
			}
			return nil
		},
	}
}

// GivesUp is what a fixed client does when a reply never comes (or comes
// with an id that matches nothing): it stops waiting when its deadline
// ends, and connect returns an error instead of hanging.
func GivesUp() scenarios.Expectation {
	return scenarios.Expectation{
		Description:   "the client stops waiting when its deadline ends: the request fails with a timeout error and connect returns it",
		DecisionPoint: "every fault of the recipe acted (the reply to the client's request never came as it should)",
		Reached:       acted,
		Check: func(o scenarios.Outcome) error {
			if o.Err == nil {
				return fmt.Errorf("connect returned nil although the reply never came as it should: the client took something else for it; the client sent %s", sent(o))
			}
			return nil
		},
	}
}

// AnswersRequest is what a fixed client does with a request of method
// from the server (a ping, roots/list) whatever its id: it answers with
// the same id, exactly as sent (type and digits), and goes on. A client
// that answers from a goroutine of its own gets a second to do it after
// its connect returned.
func AnswersRequest(method string) scenarios.Expectation {
	return scenarios.Expectation{
		After: &scenarios.Reaction{
			Event: mcptest.ServerSent(method),
			Then: func(req mcptest.Message) mcptest.Matcher {
				return mcptest.Matcher{Description: "the client's answer to " + method, Match: func(m mcptest.Message) bool {
					return m.Direction == mcptest.FromClient && m.IsResponse() && m.Get("id").Raw == req.Get("id").Raw
				}}
			},
			Window: time.Second,
		},
		Description:   fmt.Sprintf("the client answers the server's %s with the same id, exactly as sent (type and every digit), and connect returns nil", method),
		DecisionPoint: fmt.Sprintf("the server sent %s to the client", method),
		Reached: func(o scenarios.Outcome) error {
			if len(o.Journal.From(mcptest.FromServer).Requests(method)) == 0 {
				return fmt.Errorf("the server never sent %s (the client sent %s)", method, sent(o))
			}
			return nil
		},
		Check: func(o scenarios.Outcome) error {
			for _, req := range o.Journal.From(mcptest.FromServer).Requests(method) {
				found := false
				for _, r := range o.Journal.From(mcptest.FromClient) {
					if r.IsResponse() && r.Get("id").Raw == req.Get("id").Raw {
						if r.Kind == mcptest.KindError && r.Get("error.code").Int() == -32601 {
							return fmt.Errorf("the client answered %s id %s with -32601 (method not found)", method, req.Get("id").Raw)
						}
						found = true
					}
				}
				if !found {
					return fmt.Errorf("the client never answered %s id %s with that id; it sent %s", method, req.Get("id").Raw, sent(o))
				}
			}
			if o.Err != nil {
				return fmt.Errorf("connect returned %s", errText(o.Err))
			}
			return nil
		},
	}
}

// PagesToEnd is what a fixed client does with a paginated list: it asks
// for every page, following each nextCursor (the empty string too) until
// a page has none.
func PagesToEnd(method string) scenarios.Expectation {
	return scenarios.Expectation{
		Description:   fmt.Sprintf("the client follows every nextCursor of %s (the empty string is a cursor too) until a page has none", method),
		DecisionPoint: fmt.Sprintf("the server answered %s with a page that has a nextCursor", method),
		Reached: func(o scenarios.Outcome) error {
			for _, r := range o.Journal.From(mcptest.FromServer).Responses(method) {
				if r.Get("result.nextCursor").Exists() {
					return nil
				}
			}
			return fmt.Errorf("no %s result had a nextCursor (the client sent %s)", method, sent(o))
		},
		Check: func(o scenarios.Outcome) error {
			asked := map[string]bool{}
			for _, q := range o.Journal.From(mcptest.FromClient).Requests(method) {
				if c := q.Get("params.cursor"); c.Exists() {
					asked[c.String()] = true
				}
			}
			for _, r := range o.Journal.From(mcptest.FromServer).Responses(method) {
				if c := r.Get("result.nextCursor"); c.Exists() && !asked[c.String()] {
					return fmt.Errorf("the page answered at message %d has nextCursor %s, which the client never asked for: it missed the pages after it", r.Seq, c.Raw)
				}
			}
			return nil
		},
	}
}

// SendsVersion is what a fixed client sends in initialize: the latest
// protocol version it supports, a version of the spec (YYYY-MM-DD).
func SendsVersion() scenarios.Expectation {
	return scenarios.Expectation{
		Description:   "initialize carries protocolVersion, a released version of the spec (" + strings.Join(mcptest.HandshakeVersions(), ", ") + ")",
		DecisionPoint: "the client sent initialize",
		Reached: func(o scenarios.Outcome) error {
			if _, ok := firstRequest(o, "initialize"); !ok {
				return fmt.Errorf("the client never sent initialize (it sent %s)", sent(o))
			}
			return nil
		},
		Check: func(o scenarios.Outcome) error {
			req, _ := firstRequest(o, "initialize")
			v := req.Get("params.protocolVersion")
			if !v.Exists() {
				return errors.New("initialize has no protocolVersion: the server picks a version for the client")
			}
			for _, known := range mcptest.HandshakeVersions() {
				if v.Type.String() == "String" && v.String() == known {
					return nil
				}
			}
			return fmt.Errorf("initialize asks for protocolVersion %s, which is no version of the spec", v.Raw)
		},
	}
}

// AcceptsVersion is what a fixed client does when the server answers
// initialize with version v, which the client supports: it completes the
// handshake in it and goes on.
func AcceptsVersion(v string) scenarios.Expectation {
	return scenarios.Expectation{
		Description:   fmt.Sprintf("the client accepts %s (a version it supports), sends notifications/initialized, its work gets results, and connect returns nil", v),
		DecisionPoint: fmt.Sprintf("the server answered initialize with %s", v),
		Reached:       acted,
		Check: func(o scenarios.Outcome) error {
			if len(o.Journal.From(mcptest.FromClient).Notifications("notifications/initialized")) == 0 {
				return fmt.Errorf("the client rejected %s: no notifications/initialized; connect returned %s; it sent %s", v, errText(o.Err), sent(o))
			}
			return Proceeds("the version").Check(o)
		},
	}
}

// CallsTool is what a fixed client does with a tool the server listed
// that some client rejects or filters (a long name, an odd schema, one
// tool too many): it keeps it, so the app can call it.
func CallsTool(name, why string) scenarios.Expectation {
	return scenarios.Expectation{
		Description:   fmt.Sprintf("the client keeps the tool %s (%s) and the app calls it: a tools/call names it and gets a result", name, why),
		DecisionPoint: fmt.Sprintf("the server listed %s", name),
		Reached: func(o scenarios.Outcome) error {
			for _, r := range o.Journal.From(mcptest.FromServer).Responses("tools/list") {
				for _, tool := range r.Get("result.tools.#.name").Array() {
					if tool.String() == name {
						return nil
					}
				}
			}
			return fmt.Errorf("no tools/list result listed %s (the client sent %s)", name, sent(o))
		},
		Check: func(o scenarios.Outcome) error {
			for _, c := range o.Journal.From(mcptest.FromClient).Requests("tools/call") {
				if c.Get("params.name").String() == name {
					if res, ok := o.Journal.ResponseTo(c); ok && res.Kind == mcptest.KindResult {
						if o.Err != nil {
							return fmt.Errorf("the client called %s and got its result, but connect returned %s", name, errText(o.Err))
						}
						return nil
					}
				}
			}
			return fmt.Errorf("the client never called %s, which the server listed, and got a result; connect returned %s; it sent %s", name, errText(o.Err), sent(o))
		},
	}
}

// AnswersElicitation is what a fixed client answers to an elicitation
// whose schema requires fields: accept with content that has them, or
// decline; never accept with content the schema rejects.
func AnswersElicitation() scenarios.Expectation {
	return scenarios.Expectation{
		Description:   "the client answers elicitation/create with accept and content the requested schema accepts (every required field), or with decline or cancel; never accept with content that breaks the schema",
		DecisionPoint: "the server sent elicitation/create",
		Reached: func(o scenarios.Outcome) error {
			if len(o.Journal.From(mcptest.FromServer).Requests("elicitation/create")) == 0 {
				return fmt.Errorf("the server never sent elicitation/create (the client sent %s; it must declare the elicitation capability and call the tool)", sent(o))
			}
			return nil
		},
		Check: func(o scenarios.Outcome) error {
			for _, v := range o.Violations {
				if strings.HasPrefix(string(v.Rule), "elicitation/") {
					return fmt.Errorf("the client broke %s: %s", v.Rule, v.Detail)
				}
			}
			if len(o.Journal.From(mcptest.FromClient).Responses("elicitation/create")) == 0 {
				return fmt.Errorf("the client never answered elicitation/create; it sent %s", sent(o))
			}
			return nil
		},
	}
}

// CarriesProgressToken is what a fixed client does with a call that may
// run long: it asks for progress (params._meta.progressToken), so that the
// server's notifications/progress keep its timeout from firing while work
// goes on.
func CarriesProgressToken() scenarios.Expectation {
	return scenarios.Expectation{
		Description:   "the client's tools/call carries params._meta.progressToken, the progress it gets is for that token, and the call gets its result",
		DecisionPoint: "the client called a tool",
		Reached: func(o scenarios.Outcome) error {
			if len(o.Journal.From(mcptest.FromClient).Requests("tools/call")) == 0 {
				return fmt.Errorf("the client never called a tool (it sent %s)", sent(o))
			}
			return nil
		},
		Check: func(o scenarios.Outcome) error {
			for _, c := range o.Journal.From(mcptest.FromClient).Requests("tools/call") {
				if !c.Get(`params._meta.progressToken`).Exists() {
					return fmt.Errorf("tools/call id %s carries no params._meta.progressToken: the server cannot report progress, and a long call runs into the client's timeout", c.ID)
				}
			}
			return Proceeds("the progress").Check(o)
		},
	}
}

// ReturnsPromptly is what a fixed client does when the server ends its
// session (404 for its session id): it does not wait on a session that is
// gone; it starts a new one or ends with an error, and connect returns
// without waiting out its deadline (Outcome.WaitedOut).
func ReturnsPromptly() scenarios.Expectation {
	return scenarios.Expectation{
		Description:   "after the server ended the session (404), connect returns without waiting out its deadline (half of it gone, a quarter of it since its last request): the client started a new session or ended with an error, and did not wait on the dead one",
		DecisionPoint: "every fault of the recipe acted (the server ended the client's session)",
		Reached:       acted,
		Check: func(o scenarios.Outcome) error {
			if o.WaitedOut() {
				return fmt.Errorf("connect returned %s only after %v of its %v deadline, %v of it after its last request: the client waited on a session the server had ended", errText(o.Err), o.Elapsed.Round(1e6), o.Deadline, o.Idle().Round(1e6))
			}
			return nil
		},
	}
}

// KeepsRule is what a fixed client does about the protocol rule the bug
// broke: it never breaks it, once its work has started (a request beyond
// the handshake, after an initialize result).
func KeepsRule(rule mcptest.RuleID, what string) scenarios.Expectation {
	return scenarios.Expectation{
		Description:   fmt.Sprintf("%s: the client never breaks %s", what, rule),
		DecisionPoint: "the client got an initialize result and sent a request of its work after it",
		Reached: func(o scenarios.Outcome) error {
			for _, r := range o.Journal.From(mcptest.FromServer).Responses("initialize") {
				if r.Kind != mcptest.KindResult {
					continue
				}
				for _, q := range o.Journal.From(mcptest.FromClient).Requests("").After(r.Seq) {
					if !lifecycle[q.Method] && q.Method != "notifications/initialized" {
						return nil
					}
				}
			}
			return fmt.Errorf("the client never sent a request of its work after an initialize result (it sent %s)", sent(o))
		},
		Check: func(o scenarios.Outcome) error {
			for _, v := range o.Violations {
				if v.Rule == rule {
					return fmt.Errorf("the client broke %s at message %d: %s", rule, v.Message.Seq, v.Detail)
				}
			}
			return nil
		},
	}
}
