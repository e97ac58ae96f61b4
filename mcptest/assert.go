package mcptest

import (
	"context"
	"fmt"
	"strings"

	"github.com/stretchr/testify/assert"
	"github.com/tidwall/gjson"
)

// Matcher selects journal messages for WaitFor; its Description says what
// was waited for when it fails. Match is called in the waiting goroutine,
// once per message, in wire order.
type Matcher struct {
	Description string
	Match       func(Message) bool

	// wake, when set, is a quick pure prefilter of Match that the recording
	// goroutine runs on each new message, so that a waiter is woken only by
	// a message that may match (nil: by every message).
	wake func(Message) bool
}

// Method matches a request or notification the client sent with method.
func Method(method string) Matcher {
	match := func(m Message) bool {
		return m.Direction == FromClient && (m.IsRequest() || m.IsNotification()) && m.Method == method
	}
	return Matcher{Description: "the client sends " + method, Match: match, wake: match}
}

// ServerSent matches a request or notification the mock sent with method,
// e.g. ServerSent("notifications/subscriptions/acknowledged").
func ServerSent(method string) Matcher {
	match := func(m Message) bool {
		return m.Direction == FromServer && (m.IsRequest() || m.IsNotification()) && m.Method == method
	}
	return Matcher{Description: "the server sends " + method, Match: match, wake: match}
}

// ToolCall matches a tools/call of the named tool whose arguments contain
// argsSubset (a JSON object text or Go value; nil for any arguments).
func ToolCall(name string, argsSubset any) Matcher {
	desc := fmt.Sprintf("the client calls tool %q", name)
	var want any
	if argsSubset != nil {
		b, err := toJSONObject(argsSubset)
		if err != nil {
			return Matcher{Description: desc + " (invalid argsSubset: " + err.Error() + ")", Match: func(Message) bool { return false }}
		}
		want, _ = parseJSONValue(b)
		desc += " with arguments containing " + string(b)
	}
	wake := func(m Message) bool { return m.Direction == FromClient && isToolCall(m, name) }
	return Matcher{Description: desc, wake: wake, Match: func(m Message) bool {
		if !wake(m) {
			return false
		}
		if want == nil {
			return true
		}
		got, _ := parseJSONValue([]byte(m.Get("params.arguments").Raw))
		if got == nil {
			got = map[string]any{}
		}
		ok, _ := subsetDiff(want, got, "", false)
		return ok
	}}
}

// MatchFunc makes a Matcher from a description and a predicate.
func MatchFunc(description string, match func(Message) bool) Matcher {
	return Matcher{Description: description, Match: match}
}

// waitUntil re-evaluates cond over the journal (read in place) after every
// new message until it holds, the server's wait timeout passes, or the
// server closes. It never sleeps.
func (s *Server) waitUntil(cond func([]Message) bool) ([]Message, bool) {
	ctx, cancel := context.WithTimeout(s.ctx, s.waitTimeout)
	defer cancel()
	return s.journalWait(ctx, cond)
}

func (s *Server) journalWait(ctx context.Context, cond func([]Message) bool) ([]Message, bool) {
	return s.journal.waitView(ctx, nil, func(msgs Messages) bool { return cond(msgs) })
}

// waitMatch waits up to the server's wait timeout for a message matching
// m, looking at each message once (Journal.watch).
func (s *Server) waitMatch(m Matcher) (Message, bool) {
	ctx, cancel := context.WithTimeout(s.ctx, s.waitTimeout)
	defer cancel()
	return s.journal.watch(ctx, m.wake, m.Match)
}

// Await is WaitFor without a test to fail: it returns the first message
// matching m, or an error when ctx ends or the server closes first. It is
// safe in any goroutine, e.g. to act when the client does something.
func (s *Server) Await(ctx context.Context, m Matcher) (Message, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	found, ok := s.journal.watch(ctx, m.wake, m.Match)
	if !ok {
		if s.ctx.Err() != nil {
			return Message{}, fmt.Errorf("mcptest: Await(%s): the server closed first", m.Description)
		}
		return Message{}, fmt.Errorf("mcptest: Await(%s): %w", m.Description, ctx.Err())
	}
	return found, nil
}

// fail reports an assertion failure in the one format of the library:
// the call, what was wanted, what happened, and the tail of the journal.
func (s *Server) fail(t TB, call, want, got string, msgs []Message) bool {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  want: %s\n  got:  %s\n", call, want, got)
	b.WriteString(journalTail(msgs, 20))
	return assert.Fail(t, "mcptest: "+call+" failed", b.String())
}

func journalTail(msgs []Message, n int) string {
	var b strings.Builder
	if len(msgs) == 0 {
		return "journal: empty (no client connected or nothing was sent)\n"
	}
	start := max(0, len(msgs)-n)
	fmt.Fprintf(&b, "journal (messages %d to %d of %d):\n", start+1, len(msgs), len(msgs))
	for _, m := range msgs[start:] {
		fmt.Fprintf(&b, "  %s  %s\n", m, shorten(m.raw, 160))
	}
	return b.String()
}

// WaitFor blocks until a message matching m is in the journal (it may
// already be there) and returns it. After the server's wait timeout
// (WithWaitTimeout) it fails the test and returns the zero Message.
func (s *Server) WaitFor(t TB, m Matcher) Message {
	t.Helper()
	found, ok := s.waitMatch(m)
	if !ok {
		s.fail(t, "WaitFor", m.Description, fmt.Sprintf("no such message within %v", s.waitTimeout), s.journal.view())
	}
	return found
}

// handshakes returns, per session, the version initialize was answered with
// and whether notifications/initialized followed.
func handshakes(msgs []Message) (versions map[int]string, ready map[int]bool) {
	versions, ready = map[int]string{}, map[int]bool{}
	for _, m := range msgs {
		switch {
		case m.Direction == FromServer && m.Kind == KindResult && m.Method == "initialize":
			versions[m.Session] = m.Get("result.protocolVersion").String()
		case m.Direction == FromClient && m.IsNotification() && m.Method == "notifications/initialized":
			if _, ok := versions[m.Session]; ok {
				ready[m.Session] = true
			}
		}
	}
	return versions, ready
}

// AssertHandshakeCompleted checks that a client completed the handshake:
// initialize answered with a result, then notifications/initialized. With a
// version, that session must have negotiated it. It waits for the
// handshake up to the wait timeout, so it can follow the client's Connect
// directly.
func (s *Server) AssertHandshakeCompleted(t TB, version ...string) bool {
	t.Helper()
	want := "initialize answered, then notifications/initialized"
	if len(version) > 0 {
		want += " in protocol version " + version[0]
	}
	msgs, ok := s.waitUntil(func(msgs []Message) bool {
		versions, ready := handshakes(msgs)
		for n := range ready {
			if len(version) == 0 || versions[n] == version[0] {
				return true
			}
		}
		return false
	})
	if ok {
		return true
	}
	versions, ready := handshakes(msgs)
	eras := erasOf(msgs)
	var got []string
	for _, n := range sessionsOf(msgs) {
		if e := eras[n]; e.era == EraStateless {
			got = append(got, fmt.Sprintf("session %d is in the stateless era (protocol %s), which has no handshake; pin the client to a handshake version or the server with WithProtocolVersions(HandshakeVersions...), or use AssertEra", n, e.version))
			continue
		}
		switch v, answered := versions[n]; {
		case ready[n]:
			got = append(got, fmt.Sprintf("session %d completed it in %s", n, v))
		case answered:
			got = append(got, fmt.Sprintf("session %d: initialize answered (%s), no notifications/initialized", n, v))
		default:
			got = append(got, fmt.Sprintf("session %d: no successful initialize", n))
		}
	}
	if len(got) == 0 {
		got = append(got, "no session")
	}
	return s.fail(t, "AssertHandshakeCompleted", want, strings.Join(got, "; "), msgs)
}

// eraInfo is where a session ended up, read from the journal.
type eraInfo struct{ era, version string }

// erasOf reads each session's era and version from the journal: the
// handshake era when initialize was answered with a result (its version),
// the stateless era when a request carrying the per-request _meta got a
// result (the version of the latest one).
func erasOf(msgs []Message) map[int]eraInfo {
	out := map[int]eraInfo{}
	type sessionID struct {
		session int
		id      string
	}
	asked := map[sessionID]string{} // (session, id) → _meta protocolVersion of a client request
	key := func(m Message) sessionID { return sessionID{m.Session, m.ID} }
	for _, m := range msgs {
		switch {
		case m.Direction == FromClient && m.IsRequest():
			if v := m.Get("params." + pathProtocolVersion); v.Type == gjson.String {
				asked[key(m)] = v.Str
			}
		case m.Direction == FromServer && m.Kind == KindResult && m.Method == "initialize":
			out[m.Session] = eraInfo{EraHandshake, m.Get("result.protocolVersion").String()}
		case m.Direction == FromServer && m.Kind == KindResult && m.Get("result.resultType").Exists():
			if v, ok := asked[key(m)]; ok && out[m.Session].era != EraHandshake {
				out[m.Session] = eraInfo{EraStateless, v}
			}
		}
	}
	return out
}

// AssertEra checks that a session ended up in era (EraHandshake or
// EraStateless), and with a version, in that protocol version too: the one
// initialize was answered with, or the one of the stateless requests the
// mock accepted. It waits up to the wait timeout.
func (s *Server) AssertEra(t TB, era string, version ...string) bool {
	t.Helper()
	want := "a session in the " + era + " era"
	if len(version) > 0 {
		want += ", protocol " + version[0]
	}
	msgs, ok := s.waitUntil(func(msgs []Message) bool {
		for _, e := range erasOf(msgs) {
			if e.era == era && (len(version) == 0 || e.version == version[0]) {
				return true
			}
		}
		return false
	})
	if ok {
		return true
	}
	return s.fail(t, fmt.Sprintf("AssertEra(%q)", era), want, describeEras(msgs), msgs)
}

// AssertNegotiatedVersion checks that a session, in either era, settled on
// version; it waits up to the wait timeout.
func (s *Server) AssertNegotiatedVersion(t TB, version string) bool {
	t.Helper()
	msgs, ok := s.waitUntil(func(msgs []Message) bool {
		for _, e := range erasOf(msgs) {
			if e.version == version {
				return true
			}
		}
		return false
	})
	if ok {
		return true
	}
	return s.fail(t, fmt.Sprintf("AssertNegotiatedVersion(%q)", version), "a session in protocol "+version, describeEras(msgs), msgs)
}

func describeEras(msgs []Message) string {
	eras := erasOf(msgs)
	var got []string
	for _, n := range sessionsOf(msgs) {
		if e, ok := eras[n]; ok {
			got = append(got, fmt.Sprintf("session %d: %s era, protocol %s", n, e.era, e.version))
		} else {
			got = append(got, fmt.Sprintf("session %d: no era settled (no initialize result, no accepted stateless request)", n))
		}
	}
	if len(got) == 0 {
		return "no session"
	}
	return strings.Join(got, "; ")
}

func countClient(msgs []Message, method string) int {
	n := 0
	for _, m := range msgs {
		if m.Direction == FromClient && (m.IsRequest() || m.IsNotification()) && m.Method == method {
			n++
		}
	}
	return n
}

// AssertCalled checks that the client sent method (a request or a
// notification), waiting for it up to the wait timeout.
func (s *Server) AssertCalled(t TB, method string) bool {
	t.Helper()
	if _, ok := s.waitMatch(Method(method)); !ok {
		return s.fail(t, fmt.Sprintf("AssertCalled(%q)", method), "the client sends "+method, "it never did", s.journal.view())
	}
	return true
}

// AssertNotCalled checks that the client has not sent method so far. It
// does not wait.
func (s *Server) AssertNotCalled(t TB, method string) bool {
	t.Helper()
	msgs := s.journal.view()
	if n := countClient(msgs, method); n > 0 {
		return s.fail(t, fmt.Sprintf("AssertNotCalled(%q)", method), method+" never sent", fmt.Sprintf("sent %d time(s)", n), msgs)
	}
	return true
}

// AssertCalledTimes checks that the client sent method exactly n times,
// waiting up to the wait timeout for the count to reach n.
func (s *Server) AssertCalledTimes(t TB, method string, n int) bool {
	t.Helper()
	sent := Method(method)
	count := 0
	ctx, cancel := context.WithTimeout(s.ctx, s.waitTimeout)
	defer cancel()
	if n > 0 {
		s.journal.watch(ctx, sent.wake, func(m Message) bool {
			if sent.Match(m) {
				count++
			}
			return count >= n
		})
	}
	msgs := s.journal.view() // more may have come since: the count is of the journal as it is now
	if got := countClient(msgs, method); got != n {
		return s.fail(t, fmt.Sprintf("AssertCalledTimes(%q, %d)", method, n), fmt.Sprintf("%d time(s)", n), fmt.Sprintf("%d time(s)", got), msgs)
	}
	return true
}

// AssertToolCalled checks that the client called the named tool with
// arguments containing argsSubset (a JSON object text or Go value; every
// key given must be there with an equal value, others may be there too).
// It waits up to the wait timeout; on failure it shows each call of that
// tool and how its arguments differed.
func (s *Server) AssertToolCalled(t TB, name string, argsSubset any) bool {
	t.Helper()
	m := ToolCall(name, argsSubset)
	if _, ok := s.waitMatch(m); ok {
		return true
	}
	msgs := s.journal.view()
	var got []string
	wantB, _ := toJSONObject(argsSubset)
	want, _ := parseJSONValue(wantB)
	for _, msg := range msgs {
		if msg.Direction == FromClient && isToolCall(msg, name) {
			args := msg.Get("params.arguments").Raw
			g, _ := parseJSONValue([]byte(args))
			_, why := subsetDiff(want, g, "", false)
			got = append(got, fmt.Sprintf("call #%d with %s: %s", msg.Seq, shorten(args, 80), why))
		}
	}
	if len(got) == 0 {
		got = append(got, fmt.Sprintf("tool %q was never called", name))
	}
	return s.fail(t, fmt.Sprintf("AssertToolCalled(%q)", name), m.Description, strings.Join(got, "; "), msgs)
}

// AssertOrder checks that the client sent these methods (requests or
// notifications) in this order, others possibly in between, waiting up to
// the wait timeout.
func (s *Server) AssertOrder(t TB, methods ...string) bool {
	t.Helper()
	sent := func(msgs []Message) []string {
		var out []string
		for _, m := range msgs {
			if m.Direction == FromClient && (m.IsRequest() || m.IsNotification()) {
				out = append(out, m.Method)
			}
		}
		return out
	}
	inOrder := func(msgs []Message) bool {
		i := 0
		for _, m := range sent(msgs) {
			if i < len(methods) && m == methods[i] {
				i++
			}
		}
		return i == len(methods)
	}
	msgs, ok := s.waitUntil(inOrder)
	if !ok {
		return s.fail(t, "AssertOrder", strings.Join(methods, " → "), strings.Join(sent(msgs), " → "), msgs)
	}
	return true
}

// AssertCancelled checks that the client cancelled (notifications/cancelled)
// a request of the given method ("" for any), waiting up to the wait timeout.
func (s *Server) AssertCancelled(t TB, method string) bool {
	t.Helper()
	cancelled := func(msgs []Message) bool {
		for _, m := range msgs {
			if m.Direction != FromClient || m.Method != "notifications/cancelled" {
				continue
			}
			id := m.Get("params.requestId").Raw
			for _, r := range msgs {
				if r.Session == m.Session && r.Direction == FromClient && r.IsRequest() && r.ID == id && (method == "" || r.Method == method) {
					return true
				}
			}
		}
		return false
	}
	msgs, ok := s.waitUntil(cancelled)
	if !ok {
		what := "a request"
		if method != "" {
			what = "a " + method + " request"
		}
		return s.fail(t, fmt.Sprintf("AssertCancelled(%q)", method), "notifications/cancelled for "+what,
			fmt.Sprintf("%d notifications/cancelled, none for %s", countClient(msgs, "notifications/cancelled"), what), msgs)
	}
	return true
}

// AssertNoViolations checks that the client broke no protocol rule so far,
// expected or not. It does not wait.
func (s *Server) AssertNoViolations(t TB) bool {
	t.Helper()
	if vs := s.Violations(); len(vs) > 0 {
		return s.fail(t, "AssertNoViolations", "no violations", fmt.Sprintf("%d violation(s):\n%s", len(vs), formatViolations(vs)), s.journal.view())
	}
	return true
}
