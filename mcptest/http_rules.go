package mcptest

// Rule IDs of the client checks of the Streamable HTTP transport. What
// the spec says of each is its row in the rule table (rule_table.go).
const (
	// RuleHTTPAccept: a POST's Accept header lists both application/json
	// and text/event-stream; a GET's lists text/event-stream (answered 406).
	RuleHTTPAccept RuleID = "http/accept"
	// RuleHTTPContentType (a warning: RFC 9110 says SHOULD): a POST
	// carries a JSON-RPC message as application/json (answered 415).
	RuleHTTPContentType RuleID = "http/content-type"
	// RuleHTTPSessionID: after the initialize result assigned an
	// Mcp-Session-Id, every request carries it, and only an id the server
	// issued (answered 400 without one, 404 for an unknown one).
	RuleHTTPSessionID RuleID = "http/session-id"
	// RuleHTTPProtocolVersion: after the handshake every HTTP request
	// carries Mcp-Protocol-Version (an unsupported one is answered 400).
	RuleHTTPProtocolVersion RuleID = "http/protocol-version-header"
	// RuleHTTPProtocolVersionNegotiated (a warning): the Mcp-Protocol-Version
	// a client sends after the handshake is the version it negotiated.
	RuleHTTPProtocolVersionNegotiated RuleID = "http/protocol-version-negotiated"
	// RuleHTTPReinitialize: a client told 404 for its session starts a new
	// one with initialize instead of reusing the ended session's id.
	RuleHTTPReinitialize RuleID = "http/reinitialize-after-404"
	// RuleHTTPDelete (a warning): a client that is done with a session
	// ends it with DELETE. Reported when the server closes.
	RuleHTTPDelete RuleID = "http/delete-on-close"
	// RuleHTTPStatelessHeaders: a stateless-era (2026-07-28) request carries
	// Mcp-Protocol-Version, Mcp-Method and, for tools/call, prompts/get and
	// resources/read, Mcp-Name, each agreeing with its body (answered 400
	// with -32020).
	RuleHTTPStatelessHeaders RuleID = "http/stateless-headers"
	// RuleHTTPOrigin (a warning: validating Origin is the server's duty): a
	// request's Origin, when present, is a loopback one or one allowed with
	// WithAllowedOrigins (answered 403).
	RuleHTTPOrigin RuleID = "http/origin"
	// RuleHTTPHost (a warning: the server's duty): a request's Host names a
	// loopback address, against DNS rebinding (answered 403).
	RuleHTTPHost RuleID = "http/host"
)

// once reports whether rule was not yet reported for this session over
// HTTP, remembering it: header checks report once per session.
func (c *httpConn) once(rule RuleID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.warned == nil {
		c.warned = map[RuleID]bool{}
	}
	if c.warned[rule] {
		return false
	}
	c.warned[rule] = true
	return true
}

// noteHeaderless reports a request without Mcp-Protocol-Version after
// the handshake negotiated 2025-06-18 or later (which made it a MUST).
func (c *httpConn) noteHeaderless(body []byte, x *HTTPExchange) {
	if !c.once(RuleHTTPProtocolVersion) {
		return
	}
	c.sess.violate(RuleHTTPProtocolVersion, c.sess.describeHTTP(body, x), "no Mcp-Protocol-Version header after negotiating "+c.sess.ProtocolVersion()+" (the server assumes 2025-03-26)")
}

// noteMismatch reports a Mcp-Protocol-Version header that is not the
// negotiated version.
func (c *httpConn) noteMismatch(body []byte, x *HTTPExchange, negotiated string) {
	if !c.once(RuleHTTPProtocolVersionNegotiated) {
		return
	}
	c.sess.violate(RuleHTTPProtocolVersionNegotiated, c.sess.describeHTTP(body, x), "Mcp-Protocol-Version "+x.ProtocolVersion+", but the session negotiated "+negotiated)
}

// describeHTTP is the message a header violation names: the body as it
// will be journaled (it is not journaled yet).
func (s *Session) describeHTTP(body []byte, x *HTTPExchange) Message {
	m := decode(body).msg
	m.SessionNumber, m.Direction, m.HTTP = s.n, FromClient, x
	m.raw = string(body)
	return m
}

// noteNoDelete reports, when the server closes, a handshake-era session
// the client left open: it neither sent DELETE nor learnt that the session
// had ended. Stateless-era requests have no session to end.
func (c *httpConn) noteNoDelete() {
	c.mu.Lock()
	open := !c.stateless && !c.deleted && !c.ended && !c.noSID && !c.legacy && !c.stray
	c.mu.Unlock()
	if open && c.sess.Era() == EraHandshake {
		c.sess.violate(RuleHTTPDelete, Message{SessionNumber: c.sess.n, Direction: FromClient, Kind: KindInvalid, Problem: "no DELETE"},
			"the client never ended session "+c.sess.id+" with DELETE")
	}
}
