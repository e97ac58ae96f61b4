package mcptest

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

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
	return o, s.journal.Len() == len(msgs)
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
	next := 0
	satisfied := func() bool {
		if e.sel == nil {
			msgs = s.journal.view()
			for ; e.step != nil && next < len(msgs); next++ {
				if e.step(msgs[next]) {
					found = msgs[next]
					return true
				}
			}
		} else { // through the index: only what sel selects
			var keys []msgKey
			var c compiled
			var named bool
			msgs, keys, c, named = s.journal.indexed(*e.sel)
			for ; named && e.step != nil && next < len(keys); next++ {
				if c.match(keys[next]) && e.step(msgs[next]) {
					found = msgs[next]
					return true
				}
			}
			next = len(keys)
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

// handshakes returns, per session, the version initialize was answered with
// and whether notifications/initialized followed.
func handshakes(msgs Messages) (versions map[int]string, ready map[int]bool) {
	versions, ready = map[int]string{}, map[int]bool{}
	for _, m := range msgs {
		switch {
		case m.Direction == FromServer && m.Kind == KindResult && m.Method == "initialize":
			versions[m.SessionNumber] = m.Get("result.protocolVersion").String()
		case m.Direction == FromClient && m.IsNotification() && m.Method == "notifications/initialized":
			if _, ok := versions[m.SessionNumber]; ok {
				ready[m.SessionNumber] = true
			}
		}
	}
	return versions, ready
}

// AssertHandshakeCompleted checks that a client completed the handshake:
// initialize answered with a result, then notifications/initialized. It
// waits for the handshake up to the wait timeout, so it can follow the
// client's Connect directly, and fails at once when no session can
// complete it any more (each has ended or is in the stateless era) or the
// server speaks no handshake-era version. To check the version too, add
// AssertNegotiatedVersion; for a client that may pick either era, use
// AssertConnected.
func (s *Server) AssertHandshakeCompleted(t TB) bool {
	t.Helper()
	call := "AssertHandshakeCompleted"
	want := "initialize answered, then notifications/initialized"
	s.mu.Lock()
	legacy, offered := s.legacyVersions(), slices.Clone(s.versions)
	s.mu.Unlock()
	if len(legacy) == 0 {
		return s.fail(t, call, want, "the server speaks only stateless-era versions ("+strings.Join(offered, ", ")+"), which have no handshake; see WithProtocolVersions", s.journal.view())
	}
	msgs, _, ok, why := s.expect(expectation{cond: func(msgs Messages) bool {
		_, ready := handshakes(msgs)
		return len(ready) > 0
	}, settled: func(msgs Messages, o *outlook) string {
		if why := o.over(); why != "" {
			return why
		}
		if len(o.sessions) == 0 {
			return ""
		}
		eras := erasOf(msgs)
		for _, n := range o.sessions {
			if !o.ended[n] && eras[n].era != EraStateless {
				return ""
			}
		}
		return "no session can complete it any more"
	}})
	if ok {
		return true
	}
	versions, ready := handshakes(msgs)
	eras := erasOf(msgs)
	var got []string
	for _, n := range sessionsOf(msgs) {
		if e := eras[n]; e.era == EraStateless {
			got = append(got, fmt.Sprintf("session %d is in the stateless era (protocol %s), which has no handshake; use AssertConnected to accept either era, or pin the client to a handshake version, or narrow the server with WithProtocolVersions(HandshakeVersions()...)", n, e.version))
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
	return s.fail(t, call, want, s.settledGot(strings.Join(got, "; "), why), msgs)
}

// AssertConnected checks that a client connected and can use the server,
// in whichever era it chose: it completed the handshake
// (initialize answered, then notifications/initialized), or the mock
// accepted a request of the stateless era from it (server/discover or one
// carrying the per-request _meta). It waits up to the wait timeout, so it
// can follow the client's Connect directly, and fails at once when every
// session has ended without connecting. AssertEra says which era.
func (s *Server) AssertConnected(t TB) bool {
	t.Helper()
	connected := func(msgs Messages) bool {
		_, ready := handshakes(msgs)
		if len(ready) > 0 {
			return true
		}
		for _, e := range erasOf(msgs) {
			if e.era == EraStateless {
				return true
			}
		}
		return false
	}
	msgs, _, ok, why := s.expect(expectation{cond: connected, settled: untilOver})
	if ok {
		return true
	}
	versions, _ := handshakes(msgs)
	var got []string
	for _, n := range sessionsOf(msgs) {
		if v, answered := versions[n]; answered {
			got = append(got, fmt.Sprintf("session %d: initialize answered (%s), no notifications/initialized", n, v))
		} else {
			got = append(got, fmt.Sprintf("session %d: no initialize answered with a result, no stateless request accepted", n))
		}
	}
	if len(got) == 0 {
		got = append(got, "no session")
	}
	return s.fail(t, "AssertConnected", "a completed handshake, or an accepted request of the stateless era",
		s.settledGot(strings.Join(got, "; "), why), msgs)
}

// eraInfo is where a session ended up, read from the journal.
type eraInfo struct {
	era     Era
	version string
}

// erasOf reads each session's era and version from the journal: the
// handshake era when initialize was answered with a result (the version of
// the latest one), else the stateless era when a request carrying the
// per-request _meta got a result (the version of the latest such result's
// request). It reads from the end and parses only the messages that may
// settle a session (its latest initialize result; its latest stateless
// results and their requests), so that over a long journal it costs a look
// at each message's fields, not a parse of every request and result.
func erasOf(msgs Messages) map[int]eraInfo {
	type candidate struct { // a stateless result whose request is not found yet
		id  string
		pos int
	}
	type state struct {
		handshake bool        // an initialize result settled it
		version   string      // of the handshake, or of the best stateless result
		best      int         // position of the latest stateless result whose request asked, -1: none
		cands     []candidate // latest first
	}
	states := map[int]*state{}
	var st *state
	lastSession := 0
	sessionState := func(session int) *state { // a session's messages mostly come together: few map lookups
		if st != nil && session == lastSession {
			return st
		}
		lastSession, st = session, states[session]
		if st == nil {
			st = &state{best: -1}
			states[session] = st
		}
		return st
	}
	for i := len(msgs) - 1; i >= 0; i-- { // the handshake era first: it wins over the other
		if m := &msgs[i]; m.Direction == FromServer && m.Kind == KindResult && m.Method == "initialize" {
			if st := sessionState(m.SessionNumber); !st.handshake {
				st.handshake, st.version = true, m.Get("result.protocolVersion").String()
			}
		}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		m := &msgs[i]
		st := sessionState(m.SessionNumber)
		switch {
		case st.handshake:
		case st.best >= 0 && (len(st.cands) == 0 || st.cands[0].pos < st.best):
			// a stateless result later than every one still waiting for
			// its request settled it
		case m.Direction == FromServer && m.Kind == KindResult:
			if m.Get("result.resultType").Exists() {
				st.cands = append(st.cands, candidate{m.ID, i})
			}
		case m.Direction == FromClient && m.IsRequest() && slices.ContainsFunc(st.cands, func(c candidate) bool { return c.id == m.ID }):
			v := m.Get("params." + pathProtocolVersion)
			if v.Type != gjson.String {
				break // an earlier request with this id may have carried it
			}
			st.cands = slices.DeleteFunc(st.cands, func(c candidate) bool {
				if c.id == m.ID && c.pos > st.best {
					st.best, st.version = c.pos, v.Str
				}
				return c.id == m.ID
			})
		}
	}
	out := map[int]eraInfo{}
	for n, st := range states {
		switch {
		case st.handshake:
			out[n] = eraInfo{EraHandshake, st.version}
		case st.best >= 0:
			out[n] = eraInfo{EraStateless, st.version}
		}
	}
	return out
}

// erasSettled is the settled func of the era and version assertions: the
// server is closed, or every session has ended or settled its era and
// version (a session does not change them once they are negotiated).
func erasSettled(msgs Messages, o *outlook) string {
	if why := o.over(); why != "" {
		return why
	}
	if len(o.sessions) == 0 {
		return ""
	}
	eras := erasOf(msgs)
	for _, n := range o.sessions {
		if _, ok := eras[n]; !ok && !o.ended[n] {
			return ""
		}
	}
	return "every session has settled its era and version, which do not change"
}

// AssertEra checks that a session ended up in era, EraHandshake or
// EraStateless: the handshake era once initialize was answered with a
// result, the stateless era once the mock accepted a request carrying the
// per-request _meta. AssertNegotiatedVersion checks the version. It waits
// up to the wait timeout, and fails at once when every session has
// settled on the other era or ended, when the server speaks no version of
// era (WithProtocolVersions), or when era is not one of the two.
func (s *Server) AssertEra(t TB, era Era) bool {
	t.Helper()
	call := fmt.Sprintf("AssertEra(%q)", era)
	want := "a session in the " + string(era) + " era"
	if era != EraHandshake && era != EraStateless {
		return s.fail(t, call, "an era", fmt.Sprintf("%q is no era%s; the eras are mcptest.EraHandshake (%q) and mcptest.EraStateless (%q)",
			era, didYouMean(string(era), []string{string(EraHandshake), string(EraStateless)}), EraHandshake, EraStateless), s.journal.view())
	}
	s.mu.Lock()
	offered := slices.Clone(s.versions)
	s.mu.Unlock()
	if !slices.ContainsFunc(offered, func(v string) bool { return (era == EraStateless) == isStateless(v) }) {
		return s.fail(t, call, want, fmt.Sprintf("the server speaks no version of the %s era (WithProtocolVersions: %s)", era, strings.Join(offered, ", ")), s.journal.view())
	}
	msgs, _, ok, why := s.expect(expectation{cond: func(msgs Messages) bool {
		for _, e := range erasOf(msgs) {
			if e.era == era {
				return true
			}
		}
		return false
	}, settled: erasSettled})
	if ok {
		return true
	}
	return s.fail(t, call, want, s.settledGot(describeEras(msgs), why), msgs)
}

// AssertNegotiatedVersion checks that a session, in either era, settled on
// version. It waits up to the wait timeout, and fails at once when every
// session has settled on another version or ended.
func (s *Server) AssertNegotiatedVersion(t TB, version string) bool {
	t.Helper()
	msgs, _, ok, why := s.expect(expectation{cond: func(msgs Messages) bool {
		for _, e := range erasOf(msgs) {
			if e.version == version {
				return true
			}
		}
		return false
	}, settled: erasSettled})
	if ok {
		return true
	}
	got := describeEras(msgs)
	if !slices.Contains(AllVersions(), version) {
		got = fmt.Sprintf("%s (%q is no version mcptest speaks%s)", got, version, didYouMean(version, AllVersions()))
	}
	return s.fail(t, fmt.Sprintf("AssertNegotiatedVersion(%q)", version), "a session in protocol "+version, s.settledGot(got, why), msgs)
}

func describeEras(msgs Messages) string {
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
	msgs, _, _, why := s.expect(expectation{sel: sent.sel, step: func(m Message) bool {
		if sent.Match(m) {
			count++
		}
		return count >= n
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

// AssertCancelled checks that the client cancelled (notifications/cancelled)
// a request of the given method ("" for any), waiting up to the wait
// timeout; it fails at once when every session has ended, or when method
// is a near miss of a known one (a typo), naming it.
func (s *Server) AssertCancelled(t TB, method string) bool {
	t.Helper()
	var unknown string
	if method != "" {
		unknown = s.unknownMethod(method)
	}
	cancelled := func(msgs Messages) bool {
		for _, m := range msgs {
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
		return s.fail(t, fmt.Sprintf("AssertCancelled(%q)", method), "notifications/cancelled for "+what,
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
