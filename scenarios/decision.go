package scenarios

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
)

// This file holds the decision points and applicability tests the
// catalog's scenarios share: what a client must have reached for a check
// to be evidence, phrased over whatever the client sent.

// metaCapsPath is the gjson path of a stateless-era request's client capabilities.
var metaCapsPath = `params._meta.io\.modelcontextprotocol/clientCapabilities`

// lifecycleMethods are the requests that are not the app's work.
var lifecycleMethods = map[string]bool{"initialize": true, "server/discover": true, "ping": true}

// sentRequest is reached once the client sent a request.
func sentRequest(o Outcome) error {
	if len(requests(o, "")) == 0 {
		return notReachedf("the client sent no request (%s)", sentWhat(o))
	}
	return nil
}

// sentWhat says what the client sent, for the do-nothing case.
func sentWhat(o Outcome) string {
	if o.Sessions == 0 {
		return "it never opened a session"
	}
	return "it sent " + methods(fromClient(o))
}

func notReachedf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// capabilitiesSeen is reached once the server sent its capabilities: an
// initialize or server/discover result.
func capabilitiesSeen(o Outcome) error {
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromServer && m.Kind == mcptest.KindResult && (m.Method == "initialize" || m.Method == "server/discover") {
			return nil
		}
	}
	return notReachedf("the server never sent its capabilities: no initialize or server/discover was answered with a result (%s)", sentWhat(o))
}

// initializeAnswered is reached once the server answered initialize.
func initializeAnswered(o Outcome) error {
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromServer && m.IsResponse() && m.Method == "initialize" {
			return nil
		}
	}
	return notReachedf("the client never sent initialize, so it never read the server's initialize result (%s)", sentWhat(o))
}

// serverSentAny is reached once the server sent a message with method.
func serverSentAny(method, missing string) func(o Outcome) error {
	return func(o Outcome) error {
		if len(serverSent(o, method)) == 0 {
			return notReachedf("%s (%s)", missing, sentWhat(o))
		}
		return nil
	}
}

// calledTool is reached once the client called a tool.
func calledTool(o Outcome) error {
	if len(requests(o, "tools/call")) == 0 {
		return notReachedf("the client never called a tool (%s)", sentWhat(o))
	}
	return nil
}

// handshakeOnly returns why an era-detection scenario does not apply to a
// client that speaks only the handshake era: its first request was
// initialize, and none of its requests was stateless. "" otherwise.
func handshakeOnly(o Outcome) string {
	reqs := requests(o, "")
	if len(reqs) == 0 || reqs[0].Method != "initialize" {
		return ""
	}
	for _, m := range reqs {
		if m.Method == "server/discover" || stateless(m) {
			return ""
		}
	}
	return "the client speaks only the handshake era: its first request was initialize, with no server/discover probe and no stateless request, so it never meets this server's stateless side"
}

// workAnswered reports whether one of the client's requests beyond the
// lifecycle (the app's work: a list, a call, a read) got a result.
func workAnswered(o Outcome) bool {
	for _, r := range requests(o, "") {
		if lifecycleMethods[r.Method] {
			continue
		}
		if res, ok := responseTo(o, r); ok && res.Kind == mcptest.KindResult {
			return true
		}
	}
	return false
}

// sessionProceeds checks that connect returned nil, that a request of the
// app's work (tools/list, a call, a read…) was answered with a result,
// and that the client broke no rule.
func sessionProceeds(o Outcome) error {
	var problems []string
	if o.Err != nil {
		problems = append(problems, "connect returned "+errText(o.Err))
	}
	if !workAnswered(o) {
		problems = append(problems, "no request beyond the lifecycle (a list, a call) was answered with a result")
	}
	if vs := errorViolations(o); len(vs) > 0 {
		problems = append(problems, "the client broke "+violationList(vs))
	}
	if len(problems) > 0 {
		return gotf("%s; the client sent %s", strings.Join(problems, "; "), methods(fromClient(o)))
	}
	return nil
}

// handshakeProceeds is sessionProceeds after a completed handshake.
func handshakeProceeds(o Outcome) error {
	if !handshakeDone(o) {
		if _, ok := initializeResult(o); ok {
			return gotf("the client did not send notifications/initialized after the initialize result; connect returned %s; the client sent %s", errText(o.Err), methods(fromClient(o)))
		}
		return gotf("no handshake: initialize was never answered with a result; connect returned %s; the client sent %s", errText(o.Err), methods(fromClient(o)))
	}
	return sessionProceeds(o)
}

// rejectsInitializeResult checks that connect failed and the client sent
// nothing after the initialize result. mention, if not empty, is a word
// one of which the error must contain.
func rejectsInitializeResult(o Outcome, mention ...string) error {
	res, ok := initializeResult(o)
	if !ok {
		return gotf("the client never got an initialize result (it sent %s); connect returned %s", methods(fromClient(o)), errText(o.Err))
	}
	var problems []string
	if later := after(fromClient(o), res.Seq); len(later) > 0 {
		problems = append(problems, "after the initialize result the client sent "+methods(later))
	}
	switch {
	case o.Err == nil:
		problems = append(problems, "connect returned nil")
	case len(mention) > 0 && !containsAny(strings.ToLower(o.Err.Error()), mention):
		problems = append(problems, fmt.Sprintf("connect returned %s, which does not mention %s", errText(o.Err), strings.Join(mention, " or ")))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// gotf is the error a check returns: what the client did instead.
func gotf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// closedEarly says, when the client itself closed the session of event
// (a message the client must react to) without sending anything on that
// session after it, how long after event it did so: e.g. "the client
// closed session 1, 3ms after notifications/tools/list_changed, without
// sending anything after it". Such a client never showed whether it
// would react: an app that reacts from a goroutine of its own lost the
// race with its own close. "" otherwise (the session was left open, the
// client sent something after the event, or the session was not one of
// Endpoint.Open).
func closedEarly(o Outcome, event mcptest.Message) string {
	at, ok := o.clientClosed[event.SessionNumber]
	if !ok {
		return ""
	}
	for _, m := range after(fromClient(o), event.Seq) {
		if m.SessionNumber == event.SessionNumber {
			return ""
		}
	}
	what := event.Method
	if event.Direction == mcptest.FromClient && event.IsRequest() {
		what += " id " + event.ID
	}
	return fmt.Sprintf("the client closed session %d, %s after %s, without sending anything after it", event.SessionNumber, roundDuration(at.Sub(event.Time)), what)
}

// roundDuration renders d to the millisecond, or to the microsecond below
// a millisecond.
func roundDuration(d time.Duration) string {
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}
