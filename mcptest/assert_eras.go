package mcptest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// This file holds the assertions on how a client connected: the
// handshake, the era, the negotiated version.

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
