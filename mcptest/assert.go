package mcptest

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/mcpmock/mcpmock/internal/spec"
)

// This file holds the assertions on what a client called: methods,
// tools, their counts and order, cancellation, and the rules it broke.

func countClient(msgs Messages, method string) int {
	n := 0
	for _, m := range msgs {
		if m.Direction == FromClient && (m.IsRequest() || m.IsNotification()) && m.Method == method {
			n++
		}
	}
	return n
}

// unknownMethod says why a client will not send method: it is no method
// of MCP, no Handle serves it, and it is close to one that is (a typo).
// "" otherwise: a name far from every known one may be an extension a
// client does send, and is waited for.
func (s *Server) unknownMethod(method string) string {
	s.mu.Lock()
	known := spec.Names(spec.ClientSends) // the requests and notifications a client sends in some version
	for m := range s.handlers {
		known = append(known, m)
	}
	s.mu.Unlock()
	if slices.Contains(known, method) {
		return ""
	}
	c, near := closest(method, known)
	if !near {
		return ""
	}
	return fmt.Sprintf("%q is not a method a client sends in MCP, and no Handle(%q) serves it; did you mean %q?", method, method, c)
}

// unscriptedTool says why no tools/call of name is to be expected: no tool
// of that name is scripted, and no Handle takes over tools/call. "" when
// it is scripted.
func (s *Server) unscriptedTool(name string) string {
	s.mu.Lock()
	_, scripted := s.tools.get(name)
	_, handled := s.handlers["tools/call"]
	names := s.tools.keys()
	s.mu.Unlock()
	if scripted || handled {
		return ""
	}
	why := fmt.Sprintf("tool %q is not scripted (did you forget WithTools?)", name)
	switch c, near := closest(name, names); {
	case near:
		why += fmt.Sprintf("; did you mean %q?", c)
	case len(names) == 0:
		why += "; the server has no tools"
	default:
		why += "; the scripted tools are " + quoteAll(names)
	}
	return why
}

// AssertCalled checks that the client sent method (a request or a
// notification), waiting for it up to the wait timeout. It fails at once
// when every session has ended, or when method is no method of MCP, no
// Handle serves it and it is close to one that is (a typo: the failure
// names it).
func (s *Server) AssertCalled(t TB, method string) bool {
	t.Helper()
	call := fmt.Sprintf("AssertCalled(%q)", method)
	msgs, _, ok, why := s.expect(matching(ClientSent(method), unlessNever(s.unknownMethod(method))))
	if ok {
		return true
	}
	return s.fail(t, call, "the client sends "+method, s.settledGot("it never did", why), msgs)
}

// AssertNotCalled checks that the client has not sent method so far. It
// does not wait (no wait can prove a client never will), and it is not
// checked again at the end: AssertCalledTimes(t, method, 0) is, and fails
// the test at cleanup when the client sends method later.
func (s *Server) AssertNotCalled(t TB, method string) bool {
	t.Helper()
	if n := s.journal.count(*ClientSent(method).sel); n > 0 {
		return s.fail(t, fmt.Sprintf("AssertNotCalled(%q)", method), method+" never sent", "sent "+plural(n, "time", "times"), s.journal.view())
	}
	return true
}

// AssertCalledTimes checks that the client sent method (a request or a
// notification) exactly n times. It waits up to the wait timeout for the
// count to reach n, and fails at once when the count is already past n,
// when every session has ended short of n, when n is negative, or when
// method is a near miss of a known one (a typo, named). Exactly means for
// the whole test: when it passes, Verify (which NewServer's cleanup runs
// after Close) checks the count again, and a later call of method fails
// the test there, naming this call's file:line and the extra message.
// To check a count only so far, compare len(srv.Journal().All().Requests(method))
// (or Notifications) yourself.
func (s *Server) AssertCalledTimes(t TB, method string, n int) bool {
	t.Helper()
	call := fmt.Sprintf("AssertCalledTimes(%q, %d)", method, n)
	if n < 0 {
		return s.fail(t, call, "a count of 0 or more", fmt.Sprintf("%d; a client cannot send a method fewer than 0 times", n), s.journal.view())
	}
	sent := ClientSent(method)
	count := 0
	windowed := s.journal.windowed()
	msgs, _, _, why := s.expect(expectation{sel: sent.sel, step: func(m Message) bool {
		if sent.Match(m) {
			count++
		}
		// Under Options.JournalKeep the steps miss what left memory: the
		// journal's own count (kept as messages come) does not.
		return count >= n || windowed && s.journal.count(*sent.sel) >= n
	}, cond: func(Messages) bool { return n == 0 }, settled: unlessNever(s.unknownMethod(method))})
	msgs = s.journal.view() // more may have come since: the count is of the journal as it is now
	if got := s.journal.count(*sent.sel); got != n {
		gotS := plural(got, "time", "times")
		if got < n {
			gotS = s.settledGot(gotS, why)
		} else {
			gotS += "; the extra one: " + oneLine(nthSent(msgs, sent, n), 160)
		}
		return s.fail(t, call, plural(n, "time", "times"), gotS, msgs)
	}
	site := "an unknown line"
	if _, file, line, ok := runtime.Caller(1); ok {
		site = fmt.Sprintf("%s:%d", filepath.Base(file), line)
	}
	s.mu.Lock()
	s.counts = append(s.counts, countCheck{call: call, site: site, sent: sent, n: n})
	s.mu.Unlock()
	return true
}

// countCheck is an AssertCalledTimes that passed, for Verify to check
// again: the count must still be n when the test ends.
type countCheck struct {
	call string  // e.g. AssertCalledTimes("tools/list", 1)
	site string  // file:line of the assertion
	sent Matcher // ClientSent(method)
	n    int
}

// nthSent returns the message after the first n that sent matches (the
// first extra one); the caller knows there is one.
func nthSent(msgs Messages, sent Matcher, n int) Message {
	for _, m := range msgs {
		if sent.Match(m) {
			if n == 0 {
				return m
			}
			n--
		}
	}
	return Message{}
}

// countFindings checks every AssertCalledTimes that passed against the
// journal as it is now: one finding for each whose method the client has
// sent more times since, naming its call site and the first extra message.
func (s *Server) countFindings() []string {
	s.mu.Lock()
	checks := slices.Clone(s.counts)
	s.mu.Unlock()
	if len(checks) == 0 {
		return nil
	}
	var out []string
	msgs := s.journal.view()
	for _, c := range checks {
		if got := s.journal.count(*c.sent.sel); got > c.n {
			out = append(out, fmt.Sprintf("%s passed at %s, but the client sent it %s by the end; the first extra one: %s",
				c.call, c.site, plural(got, "time", "times"), oneLine(nthSent(msgs, c.sent, c.n), 160)))
		}
	}
	return out
}

// AssertToolCalled checks that the client called the named tool with
// arguments containing argsSubset (a JSON object text or Go value; every
// key given must be there with an equal value, others may be there too;
// nil for any arguments). It waits up to the wait timeout; on failure it
// shows each call of that tool and how its arguments differed. It fails at
// once when argsSubset is not a JSON object, when no tool of that name is
// scripted (naming the closest one), or when every session has ended.
func (s *Server) AssertToolCalled(t TB, name string, argsSubset any) bool {
	t.Helper()
	call := fmt.Sprintf("AssertToolCalled(%q)", name)
	m := ToolCall(name, argsSubset)
	msgs, _, ok, why := s.expect(matching(m, func(_ Messages, o *outlook) string {
		if why := m.never(s); why != "" {
			return why
		}
		return o.over()
	}))
	if ok {
		return true
	}
	var got []string
	wantB, wantErr := toJSONObject(argsSubset)
	want, _ := parseJSONValue(wantB)
	for _, msg := range msgs {
		if msg.Direction == FromClient && isToolCall(msg, name) {
			args := msg.Get("params.arguments").Raw
			g, _ := parseJSONValue([]byte(args))
			_, diff := subsetDiff(want, g, "", false)
			if wantErr != nil { // nothing to compare with (not "want null"): the reason follows
				got = append(got, fmt.Sprintf("call #%d with %s", msg.Seq, shorten(args, 80)))
				continue
			}
			got = append(got, fmt.Sprintf("call #%d with %s: %s", msg.Seq, shorten(args, 80), diff))
		}
	}
	if len(got) == 0 {
		got = append(got, fmt.Sprintf("tool %q was never called", name))
	}
	return s.fail(t, call, m.Description, s.settledGot(strings.Join(got, "; "), why), msgs)
}

// AssertOrder checks that the client sent these methods (requests or
// notifications) in this order, others possibly in between, waiting up to
// the wait timeout. It fails at once when every session has ended, or when
// one of the methods is a near miss of a known one (a typo), naming it.
func (s *Server) AssertOrder(t TB, methods ...string) bool {
	t.Helper()
	sent := func(msgs Messages) []string {
		var out []string
		for _, m := range msgs {
			if m.Direction == FromClient && (m.IsRequest() || m.IsNotification()) {
				out = append(out, m.Method)
			}
		}
		return out
	}
	inOrder := func(msgs Messages) bool {
		i := 0
		for _, m := range sent(msgs) {
			if i < len(methods) && m == methods[i] {
				i++
			}
		}
		return i == len(methods)
	}
	var unknown string
	for _, m := range methods {
		if unknown = s.unknownMethod(m); unknown != "" {
			break
		}
	}
	msgs, _, ok, why := s.expect(expectation{cond: inOrder, settled: unlessNever(unknown)})
	if !ok {
		return s.fail(t, "AssertOrder", strings.Join(methods, " → "), s.settledGot(strings.Join(sent(msgs), " → "), why), msgs)
	}
	return true
}

// AssertCancelled checks that the client cancelled a request of the given
// method ("" for any): with notifications/cancelled, or, for a request of
// the stateless era over Streamable HTTP, by closing its response before
// the reply (HTTPExchange.Cancelled), as the 2026-07-28 spec cancels there.
// It waits up to the wait timeout; it fails at once when every session has ended, or when method
// is a near miss of a known one (a typo), naming it.
func (s *Server) AssertCancelled(t TB, method string) bool {
	t.Helper()
	var unknown string
	if method != "" {
		unknown = s.unknownMethod(method)
	}
	cancelled := func(msgs Messages) bool {
		for _, m := range msgs {
			if m.HTTP != nil && m.HTTP.Cancelled && m.Direction == FromClient && (method == "" || m.Method == method) {
				return true // a stateless-era request whose response the client closed: its cancellation on HTTP
			}
			if m.Direction != FromClient || m.Method != "notifications/cancelled" {
				continue
			}
			id := m.Get("params.requestId").Raw
			for _, r := range msgs {
				if r.SessionNumber == m.SessionNumber && r.Direction == FromClient && r.IsRequest() && r.ID == id && (method == "" || r.Method == method) {
					return true
				}
			}
		}
		return false
	}
	msgs, _, ok, why := s.expect(expectation{cond: cancelled, settled: unlessNever(unknown)})
	if !ok {
		what := "a request"
		if method != "" {
			what = "a " + method + " request"
		}
		return s.fail(t, fmt.Sprintf("AssertCancelled(%q)", method), "notifications/cancelled (or, stateless over HTTP, a closed response) for "+what,
			s.settledGot(fmt.Sprintf("%d notifications/cancelled, none for %s", countClient(msgs, "notifications/cancelled"), what), why), msgs)
	}
	return true
}

// AssertNoViolations checks that the client broke no protocol rule so far
// that the test did not expect: it fails on exactly the violations Verify
// (and so NewServer's cleanup) would fail the test for, reported at this
// line instead of at the end. A rule declared with ExpectViolation is not
// a violation here, as it is not for Verify: the test said the client
// breaks it, and an assertion that failed on it would leave a test that
// expects one fault no way to check that the client broke nothing else. A
// warning (a SHOULD, SeverityWarning) is not one either: it never fails a
// test. Violations returns every one, expected or not, warnings included.
// Unlike Verify, it checks even after IgnoreViolations, which turns off
// only the verdict at the end, not an assertion the test makes. It does
// not wait: a client may break a rule at any time, and no wait could
// prove it never will.
func (s *Server) AssertNoViolations(t TB) bool {
	t.Helper()
	if vs, _ := s.unexpectedViolations(); len(vs) > 0 {
		return s.fail(t, "AssertNoViolations", "no violation the test did not expect (ExpectViolation)",
			plural(len(vs), "violation", "violations")+":\n"+formatViolations(vs), s.journal.view())
	}
	return true
}
