package mcptest

// Rule IDs of the client checks of the Streamable HTTP transport. What
// the spec says of each is its row in the rule table (rule_table.go).
const (
	// ruleHTTPAccept: a POST's Accept header lists both application/json
	// and text/event-stream; a GET's lists text/event-stream (answered 406).
	ruleHTTPAccept RuleID = "http/accept"
	// ruleHTTPContentType (a warning: RFC 9110 says SHOULD): a POST
	// carries a JSON-RPC message as application/json (answered 415).
	ruleHTTPContentType RuleID = "http/content-type"
	// ruleHTTPSessionID: after the initialize result assigned an
	// Mcp-Session-Id, every request carries it, and only an id the server
	// issued (answered 400 without one, 404 for an unknown one).
	ruleHTTPSessionID RuleID = "http/session-id"
	// ruleHTTPProtocolVersion: after the handshake every HTTP request
	// carries Mcp-Protocol-Version (an unsupported one is answered 400).
	ruleHTTPProtocolVersion RuleID = "http/protocol-version-header"
	// ruleHTTPProtocolVersionNegotiated (a warning): the Mcp-Protocol-Version
	// a client sends after the handshake is the version it negotiated.
	ruleHTTPProtocolVersionNegotiated RuleID = "http/protocol-version-negotiated"
	// ruleHTTPReinitialize: a client told 404 for its session starts a new
	// one with initialize instead of reusing the ended session's id.
	ruleHTTPReinitialize RuleID = "http/reinitialize-after-404"
	// ruleHTTPDelete (a warning): a client that is done with a session
	// ends it with DELETE. Reported when the server closes.
	ruleHTTPDelete RuleID = "http/delete-on-close"
	// ruleHTTPStatelessHeaders: a stateless-era (2026-07-28) request carries
	// Mcp-Protocol-Version, Mcp-Method and, for tools/call, prompts/get and
	// resources/read, Mcp-Name, each agreeing with its body (answered 400
	// with -32020).
	ruleHTTPStatelessHeaders RuleID = "http/stateless-headers"
	// ruleHTTPParamHeaders: a stateless-era tools/call mirrors each
	// argument its tool's inputSchema annotates with x-mcp-header into the
	// header Mcp-Param-{name}, agreeing with the body, and leaves the
	// header out when the argument is null or absent (answered 400 with
	// -32020).
	ruleHTTPParamHeaders RuleID = "http/param-headers"
	// ruleHTTPHeaderEncoding: an Mcp-Name or Mcp-Param-* value that is not
	// plain header-safe ASCII is sent in the Base64 form =?base64?…?=,
	// correctly encoded (answered 400 with -32020).
	ruleHTTPHeaderEncoding RuleID = "http/header-encoding"
	// ruleHTTPOrigin (a warning: validating Origin is the server's duty): a
	// request's Origin, when present, is a loopback one or one allowed with
	// HTTPOptions.AllowedOrigins (answered 403).
	ruleHTTPOrigin RuleID = "http/origin"
	// ruleHTTPHost (a warning: the server's duty): a request's Host names a
	// loopback address, against DNS rebinding (answered 403).
	ruleHTTPHost RuleID = "http/host"
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
	if !c.once(ruleHTTPProtocolVersion) {
		return
	}
	c.sess.violate(ruleHTTPProtocolVersion, c.sess.describeHTTP(body, x), "no Mcp-Protocol-Version header after negotiating "+c.sess.ProtocolVersion()+" (the server assumes 2025-03-26)")
}

// noteMismatch reports a Mcp-Protocol-Version header that is not the
// negotiated version.
func (c *httpConn) noteMismatch(body []byte, x *HTTPExchange, negotiated string) {
	if !c.once(ruleHTTPProtocolVersionNegotiated) {
		return
	}
	c.sess.violate(ruleHTTPProtocolVersionNegotiated, c.sess.describeHTTP(body, x), "Mcp-Protocol-Version "+x.ProtocolVersion+", but the session negotiated "+negotiated)
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
		c.sess.violate(ruleHTTPDelete, Message{SessionNumber: c.sess.n, Direction: FromClient, Kind: KindInvalid, Problem: "no DELETE"},
			"the client never ended session "+c.sess.id+" with DELETE")
	}
}
