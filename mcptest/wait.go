package mcptest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// This file is the waiting: matchers, WaitFor and Await, and the failure
// format every assertion shares.

// Matcher selects journal messages for WaitFor and Await; its Description
// says what was waited for when it fails. Match is called in the waiting
// goroutine, once per message, in wire order. ClientSent, ServerSent and
// ToolCall build the common ones; write any other as a literal,
// Matcher{Description: "the reply to id 9", Match: func(m Message) bool {…}}.
type Matcher struct {
	Description string
	Match       func(Message) bool

	// sel, when set, selects the only messages Match can accept, by the
	// journal's index: a waiter looks at those alone and is woken by those
	// alone (nil: by every message).
	sel *selector

	// never, when set, says why no message can match on this server
	// (a tool that is not scripted, an unknown method): WaitFor fails at
	// once instead of waiting. "" means a match may still come.
	never func(s *Server) string
}

// ClientSent matches a request or notification the client sent with method.
// WaitFor fails at once when method is a near miss of a method of MCP or
// of one the server Handles (a typo such as "tools/lsit"), naming it.
func ClientSent(method string) Matcher {
	sel := &selector{dir: FromClient, kinds: kindsRequest | kindsNotice, method: method}
	return Matcher{Description: "the client sends " + method, Match: sel.accepts, sel: sel,
		never: func(s *Server) string { return s.unknownMethod(method) }}
}

// ServerSent matches a request or notification the mock sent with method,
// e.g. ServerSent("notifications/subscriptions/acknowledged").
func ServerSent(method string) Matcher {
	sel := &selector{dir: FromServer, kinds: kindsRequest | kindsNotice, method: method}
	return Matcher{Description: "the server sends " + method, Match: sel.accepts, sel: sel}
}

// ToolCall matches a tools/call of the named tool whose arguments contain
// argsSubset (a JSON object text or Go value; nil for any arguments).
// WaitFor fails at once when argsSubset is not a JSON object, or when no
// tool of that name is scripted (and no Handle takes over tools/call): a
// correct client calls only the tools the server lists. To wait for a
// client that calls a tool the server never listed, write a Matcher.
func ToolCall(name string, argsSubset any) Matcher {
	desc := fmt.Sprintf("the client calls tool %q", name)
	var want any
	if argsSubset != nil {
		b, err := toJSONObject(argsSubset)
		if err != nil {
			problem := fmt.Sprintf("the argument subset is not a JSON object: %v", err)
			return Matcher{Description: desc + " (" + problem + ")", Match: func(Message) bool { return false },
				never: func(*Server) string { return problem }}
		}
		want, _ = parseJSONValue(b)
		desc += " with arguments containing " + string(b)
	}
	sel := toolCalls(FromClient, name)
	return Matcher{Description: desc, sel: &sel, Match: func(m Message) bool {
		if m.Direction != FromClient || !isToolCall(m, name) {
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
	}, never: func(s *Server) string { return s.unscriptedTool(name) }}
}

// wake wakes every waiter on the journal without recording anything: a
// session began or ended, which can settle a waiting assertion.
func (j *Journal) wake() {
	j.mu.Lock()
	ws := j.watchers
	j.mu.Unlock()
	for _, w := range ws {
		select {
		case w.signal <- struct{}{}:
		default: // a token is already there
		}
	}
}

// outlook is what a waiting assertion knows besides the journal: which
// sessions exist and which can add nothing more to it.
type outlook struct {
	sessions []int        // every session, in order
	ended    map[int]bool // sessions whose every message is journaled
	closed   bool         // the server is closed
}

// look reads the sessions after msgs was taken from the journal. It
// reports false when the journal grew meanwhile: the caller then looks at
// the journal again, so that the messages it judges hold everything an
// ended session will ever have.
func (s *Server) look(msgs Messages) (*outlook, bool) {
	o := &outlook{ended: map[int]bool{}, closed: s.ctx.Err() != nil}
	for _, sess := range s.Sessions() {
		o.sessions = append(o.sessions, sess.n)
		select {
		case <-sess.done:
			// A write that began before the end holds writeMu until its
			// message is journaled; every later one sees the session closed.
			sess.writeMu.Lock()
			sess.writeMu.Unlock()
			o.ended[sess.n] = true
		default:
		}
	}
	n := s.journal.Len()
	if len(msgs) == 0 {
		return o, n == 0
	}
	return o, msgs[len(msgs)-1].Seq == n // under Options.JournalKeep msgs may start after 1
}

// over says why nothing more can be journaled: the server is closed, or
// every session has ended (and at least one was opened); "" otherwise. A
// client that reconnects opens a new session, but an assertion that found
// every session ended does not wait for it: Await does.
func (o *outlook) over() string {
	if o.closed {
		return "the server is closed"
	}
	if len(o.sessions) == 0 {
		return ""
	}
	for _, n := range o.sessions {
		if !o.ended[n] {
			return ""
		}
	}
	if len(o.sessions) == 1 {
		return fmt.Sprintf("session %d has ended, and nothing more can arrive", o.sessions[0])
	}
	return fmt.Sprintf("every session (%s) has ended, and nothing more can arrive", joinInts(o.sessions))
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// expectation is what an assertion waits for. step sees every message
// sel selects (nil: every message) once, in wire order, and returns true
// when the wait is over; cond, when set, is then asked about the whole
// journal; settled says why the answer can no longer change ("" while it
// can), given the messages step and cond were not satisfied by.
type expectation struct {
	sel     *selector // the only messages that may satisfy it (nil: any); see Journal.watch
	step    func(Message) bool
	cond    func(Messages) bool
	settled func(Messages, *outlook) string
}

// expect waits for e: it looks at each new message as it is journaled
// (and again when a session begins or ends), never sleeping. It gives up
// at once, with why, when e is settled, and otherwise after the server's
// wait timeout (why is then "", or says that the server closed).
func (s *Server) expect(e expectation) (msgs Messages, found Message, ok bool, why string) {
	ctx, cancel := context.WithTimeout(s.ctx, s.waitTimeout)
	defer cancel()
	w := s.journal.addWatcher(e.sel)
	defer s.journal.unwatch(w)
	next := 0 // the Seq of the last message stepped through (Options.JournalKeep: msgs may start after it)
	satisfied := func() bool {
		if e.sel == nil {
			var base int
			msgs, base = s.journal.viewAt()
			for next = max(next, base); e.step != nil && next-base < len(msgs); next++ {
				if m := msgs[next-base]; e.step(m) {
					found = m
					return true
				}
			}
		} else { // through the index: only what sel selects
			var keys []msgKey
			var c compiled
			var named bool
			var base int
			msgs, keys, base, c, named = s.journal.indexedAt(*e.sel)
			for next = max(next, base); named && e.step != nil && next-base < len(keys); next++ {
				if i := next - base; c.match(keys[i]) && e.step(msgs[i]) {
					found = msgs[i]
					return true
				}
			}
			next = base + len(keys)
		}
		return e.cond != nil && e.cond(msgs)
	}
	for {
		if satisfied() {
			return msgs, found, true, ""
		}
		if e.settled != nil {
			o, fresh := s.look(msgs)
			if !fresh {
				continue
			}
			if why := e.settled(msgs, o); why != "" {
				return msgs, found, false, why
			}
		}
		select {
		case <-w.signal:
		case <-ctx.Done():
			if satisfied() {
				return msgs, found, true, ""
			}
			if s.ctx.Err() != nil {
				return msgs, found, false, "the server is closed"
			}
			return msgs, found, false, ""
		}
	}
}

// untilOver is the settled func of assertions that only the end of every
// session settles.
func untilOver(_ Messages, o *outlook) string { return o.over() }

// unlessNever is untilOver, but settled from the start when never is set.
func unlessNever(never string) func(Messages, *outlook) string {
	return func(_ Messages, o *outlook) string {
		if never != "" {
			return never
		}
		return o.over()
	}
}

// matching is the expectation of a message that m matches.
func matching(m Matcher, settled func(Messages, *outlook) string) expectation {
	return expectation{sel: m.sel, step: m.Match, settled: settled}
}

// Await is WaitFor without a test to fail: it returns the first message
// matching m, or an error when ctx ends or the server closes first. It is
// safe in any goroutine, e.g. to act when the client does something. Unlike
// WaitFor it keeps waiting when every session has ended, since a client may
// reconnect; ctx bounds it. Like WaitFor, it returns an error at once when
// m can never match on this server (see ToolCall and ClientSent): a mistake of
// the test, not something to wait out.
func (s *Server) Await(ctx context.Context, m Matcher) (Message, error) {
	if m.never != nil {
		if why := m.never(s); why != "" {
			return Message{}, fmt.Errorf("mcptest: Await(%s): %s", m.Description, why)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	found, ok := s.journal.watch(ctx, m.sel, m.Match)
	if !ok {
		if s.ctx.Err() != nil {
			return Message{}, fmt.Errorf("mcptest: Await(%s): the server closed first", m.Description)
		}
		return Message{}, fmt.Errorf("mcptest: Await(%s): %w", m.Description, ctx.Err())
	}
	return found, nil
}

// failure is the one format of an assertion failure: the call, what was
// wanted, what happened, and the last messages of the journal, one line
// each. The transcript, with every message in full, is logged once when
// the test ends.
func (s *Server) failure(call, want, got string, msgs Messages) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcptest: %s failed\n  want: %s\n  got:  %s\n", call, want, got)
	b.WriteString(journalTail(msgs, 12))
	return b.String()
}

// fail reports an assertion failure and returns false.
func (s *Server) fail(t TB, call, want, got string, msgs Messages) bool {
	t.Helper()
	t.Errorf("%s", s.failure(call, want, got, msgs))
	return false
}

// settledGot says what happened for a failure: why the answer can no
// longer change, or that the wait timeout passed.
func (s *Server) settledGot(got, why string) string {
	if why != "" {
		return got + "; " + why
	}
	return fmt.Sprintf("%s, within %v (Options.WaitTimeout)", got, s.waitTimeout)
}

func journalTail(msgs Messages, n int) string {
	var b strings.Builder
	if len(msgs) == 0 {
		return "journal: empty (no client connected, or it sent nothing)\n"
	}
	start := max(0, len(msgs)-n)
	fmt.Fprintf(&b, "journal (messages %d to %d of %d; the transcript, every message in full, is logged when the test ends):\n", start+1, len(msgs), len(msgs))
	for _, m := range msgs[start:] {
		fmt.Fprintf(&b, "  %s\n", oneLine(m, 160))
	}
	return b.String()
}

// oneLine is a message's summary and its body, cut to n bytes: the params
// of a request or notification (with _meta last, so that the arguments
// show), the result or error of a response, the raw frame of an invalid one.
func oneLine(m Message, n int) string {
	body := m.raw
	switch m.Kind {
	case KindRequest, KindNotification:
		body = metaLast(m.Get("params"))
	case KindResult:
		body = m.Get("result").Raw
	case KindError:
		body = m.Get("error").Raw
	}
	if body == "" {
		return m.String()
	}
	return m.String() + "  " + shorten(body, n)
}

// metaLast returns a params object's JSON text with its _meta member moved
// to the end.
func metaLast(p gjson.Result) string {
	if !p.IsObject() || !p.Get("_meta").Exists() {
		return p.Raw
	}
	var b strings.Builder
	var meta string
	b.WriteByte('{')
	p.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "_meta" {
			meta = v.Raw
			return true
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(k.Raw + ":" + v.Raw)
		return true
	})
	if b.Len() > 1 {
		b.WriteByte(',')
	}
	b.WriteString(`"_meta":` + meta + "}")
	return b.String()
}

// WaitFor blocks until a message matching m is in the journal (it may
// already be there) and returns it. Like testify's require, it stops the
// test (t.Fatalf) when it fails: after the server's wait timeout
// (Options.WaitTimeout), or at once when no match can come any more: every
// session has ended, or m can never match on this server (see ToolCall and
// Method). To wait without failing, or for a client that reconnects, use
// Await.
func (s *Server) WaitFor(t TB, m Matcher) Message {
	t.Helper()
	if m.never != nil {
		if why := m.never(s); why != "" {
			t.Fatalf("%s", s.failure("WaitFor", m.Description, why, s.journal.view()))
			return Message{}
		}
	}
	msgs, found, ok, why := s.expect(matching(m, untilOver))
	if !ok {
		t.Fatalf("%s", s.failure("WaitFor", m.Description, s.settledGot("no such message", why), msgs))
	}
	return found
}
