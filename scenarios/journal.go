package scenarios

import (
	"fmt"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
)

// This file reads an Outcome's journal for the checks of the catalog.

// metaVersionPath is the gjson path of a stateless-era request's protocol version.
var metaVersionPath = `params._meta.io\.modelcontextprotocol/protocolVersion`

// The queries below are mcptest.Messages queries of the client's side of
// the journal (or of the server's, for serverSent), named for the checks.

// fromClient returns the messages the client sent, in wire order.
func fromClient(o Outcome) mcptest.Messages { return o.Journal.From(mcptest.FromClient) }

// requests returns the client's requests of method ("" for all).
func requests(o Outcome, method string) mcptest.Messages {
	return o.Journal.From(mcptest.FromClient).Requests(method)
}

// notifications returns the client's notifications of method.
func notifications(o Outcome, method string) mcptest.Messages {
	return o.Journal.From(mcptest.FromClient).Notifications(method)
}

// serverSent returns the notifications and requests the server sent with method.
func serverSent(o Outcome, method string) mcptest.Messages {
	return o.Journal.From(mcptest.FromServer).Filter(func(m mcptest.Message) bool {
		return (m.IsNotification() || m.IsRequest()) && m.Method == method
	})
}

// responseTo returns the server's response to the client's request req.
func responseTo(o Outcome, req mcptest.Message) (mcptest.Message, bool) {
	return o.Journal.ResponseTo(req)
}

// answered reports whether some request of method got a result (not an error).
func answered(o Outcome, method string) bool {
	for _, r := range requests(o, method) {
		if res, ok := responseTo(o, r); ok && res.Kind == mcptest.KindResult {
			return true
		}
	}
	return false
}

// after returns the messages with a Seq greater than seq.
func after(msgs mcptest.Messages, seq int) mcptest.Messages { return msgs.After(seq) }

// initializeResult returns the server's result to initialize, if any.
func initializeResult(o Outcome) (mcptest.Message, bool) {
	for _, m := range o.Journal.From(mcptest.FromServer).Responses("initialize") {
		if m.Kind == mcptest.KindResult {
			return m, true
		}
	}
	return mcptest.Message{}, false
}

// handshakeDone reports whether initialize was answered with a result and
// the client then sent notifications/initialized.
func handshakeDone(o Outcome) bool {
	res, ok := initializeResult(o)
	return ok && len(after(notifications(o, "notifications/initialized"), res.Seq)) > 0
}

// stateless reports whether a request is of the stateless era (it carries
// the per-request protocol version).
func stateless(m mcptest.Message) bool { return m.Get(metaVersionPath).Exists() }

// errorViolations returns the violations of severity error.
func errorViolations(o Outcome) []mcptest.Violation {
	var out []mcptest.Violation
	for _, v := range o.Violations {
		if v.Severity == mcptest.SeverityError {
			out = append(out, v)
		}
	}
	return out
}

// methods lists the methods of msgs in order, runs of one method
// collapsed: "initialize, notifications/initialized, tools/list ×3".
// Responses are named "reply to <method>"; messages that are not valid JSON-RPC "invalid message".
func methods(msgs []mcptest.Message) string {
	var parts []string
	last, n := "", 0
	flush := func() {
		switch {
		case n == 1:
			parts = append(parts, last)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%s ×%d", last, n))
		}
	}
	for _, m := range msgs {
		name := m.Method
		switch {
		case m.Kind == mcptest.KindInvalid:
			name = "invalid message"
		case m.IsResponse():
			name = "reply to " + m.Method
			if m.Kind == mcptest.KindError {
				name = fmt.Sprintf("error %d to %s", m.ErrorCode, m.Method)
			}
		}
		if name == last {
			n++
			continue
		}
		flush()
		last, n = name, 1
	}
	flush()
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// errText renders what connect returned.
func errText(err error) string {
	if err == nil {
		return "nil"
	}
	return fmt.Sprintf("error %q", cut(err.Error(), 200))
}

// summary says what the client did: what connect returned, when, what it
// sent, and the rules it broke.
func summary(o Outcome) string {
	s := fmt.Sprintf("connect returned %s after %v; the client sent %s", errText(o.Err), o.Elapsed.Round(1e6), methods(fromClient(o)))
	if vs := errorViolations(o); len(vs) > 0 {
		s += "; it broke " + violationList(vs)
	}
	return s
}

// violationList renders violations as "rule (detail), …".
func violationList(vs []mcptest.Violation) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("%s (%s)", v.Rule, v.Detail))
	}
	return strings.Join(parts, ", ")
}

// ids renders the ids of messages.
func ids(msgs []mcptest.Message) string {
	var parts []string
	for _, m := range msgs {
		parts = append(parts, m.ID)
	}
	return strings.Join(parts, ", ")
}
